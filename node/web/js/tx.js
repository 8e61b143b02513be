// Transactions built and signed in the page, byte for byte as the wallet
// builds them (docs/protocol-tx.md §1–§3, docs/crypto.md §3; docs/web.md
// §4).  Hashing and Ed25519 are the pinned @noble packages, served from
// node/web/node_modules; the secret key never leaves the page.
import { sha3_256, keccak_256 } from '../node_modules/@noble/hashes/sha3.js';
import { sha512 } from '../node_modules/@noble/hashes/sha2.js';
import * as ed from '../node_modules/@noble/ed25519/index.js';

ed.hashes.sha512 = sha512; // synchronous signing, also outside a secure context

const enc = new TextEncoder();
const SIGNING_TAG = enc.encode('ZBC-TX');
const NO_ADDRESS = Uint8Array.of(2, 0, 0, 0); // type 2, empty: no recipient / no escrow

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error('not an even-length hex string');
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

export function bytesToHex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u32(v) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}

// An integer field of 8 bytes, little-endian; signed (i64) or not (u64).
function int64(v, signed) {
  const x = BigInt(v);
  const lo = signed ? -(1n << 63n) : 0n;
  const hi = signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
  if (x < lo || x > hi) throw new Error(`${v} does not fit in ${signed ? 'i64' : 'u64'}`);
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, x), true);
  return b;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(s) {
  let bits = 0;
  let acc = 0;
  const out = [];
  for (const ch of s) {
    const v = B32.indexOf(ch);
    if (v < 0) throw new Error(`'${ch}' is not a base32 character`);
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

function base32Encode(b) {
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const x of b) {
    acc = (acc << 8) | x;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += B32[(acc >> bits) & 31];
    }
  }
  if (bits > 0) out += B32[(acc << (5 - bits)) & 31];
  return out;
}

// The ZBC_ text of a 32-byte Ed25519 public key (docs/crypto.md §3.1).
export function zbcAddress(pk, prefix = 'ZBC') {
  const sum = sha3_256(concat(pk, enc.encode(prefix))).slice(0, 3);
  const body = base32Encode(concat(pk, sum));
  return prefix + '_' + body.match(/.{8}/g).join('_');
}

function eip55Ok(hex40) {
  const lower = hex40.toLowerCase();
  if (hex40 === lower || hex40 === hex40.toUpperCase()) return true;
  const h = bytesToHex(keccak_256(enc.encode(lower)));
  for (let i = 0; i < 40; i++) {
    const c = hex40[i];
    if (/[a-f]/.test(c) && parseInt(h[i], 16) >= 8) return false;
    if (/[A-F]/.test(c) && parseInt(h[i], 16) < 8) return false;
  }
  return true;
}

// A recipient as typed address bytes (u32 LE type ‖ payload): ZBC_ text
// or 64 hex (type 0), 0x + 40 hex (type 4, EIP-55 checked when mixed
// case).  Anything else is refused with a sentence.
export function typedAddress(text) {
  const t = String(text).trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return concat(u32(0), hexToBytes(t));
  if (/^0[xX][0-9a-fA-F]{40}$/.test(t)) {
    if (!eip55Ok(t.slice(2))) throw new Error('bad EIP-55 checksum in Ethereum address');
    return concat(u32(4), hexToBytes(t.slice(2)));
  }
  const s = t.replace(/[_\-\s]/g, '').toUpperCase();
  const prefix = s.slice(0, 3);
  if (prefix !== 'ZBC' && prefix !== 'ZNK') throw new Error('the page sends to ZBC_ addresses, 64 hex or 0x addresses');
  if (s.length !== 59) throw new Error(`a ${prefix} address has 56 base32 characters after its prefix`);
  const raw = base32Decode(s.slice(3));
  const pk = raw.slice(0, 32);
  const sum = sha3_256(concat(pk, enc.encode(prefix))).slice(0, 3);
  if (raw.length !== 35 || sum.some((x, i) => x !== raw[32 + i])) throw new Error(`bad checksum in ${prefix} address`);
  return concat(u32(0), pk);
}

export function publicKey(seed) {
  return ed.getPublicKey(seed);
}

// Transaction types the page builds (docs/protocol-tx.md §3).
export const TX = { SEND_ZBC: 1, CREATE_APP: 24, JOIN_APP: 25, APP_MOVE: 26, RESIGN_APP: 27, CLAIM_APP_TIMEOUT: 28 };

// The unsigned bytes of any transaction (docs/protocol-tx.md §1): a
// ZooBC (type 0) sender, no escrow; recipient null for none.
export function unsignedTx({ type, senderPk, recipient = null, fee, timestamp, body, message = '' }) {
  const msg = typeof message === 'string' ? enc.encode(message) : message;
  return concat(u32(type), Uint8Array.of(1), int64(timestamp, true), u32(0), senderPk,
    recipient === null ? NO_ADDRESS : typedAddress(recipient), int64(fee, true), u32(body.length), body,
    NO_ADDRESS, u32(msg.length), msg);
}

// The unsigned bytes of a SendZBC.
export function sendZbcUnsigned({ senderPk, recipient, amount, fee, timestamp, message = '' }) {
  return unsignedTx({ type: TX.SEND_ZBC, senderPk, recipient, fee, timestamp, body: int64(amount, false), message });
}

function u16(v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new Error(`${v} does not fit in u16`);
  return Uint8Array.of(v & 0xff, v >> 8);
}

// CreateApp: app_type u8 ‖ stake_token u64 ‖ stake u64 ‖ seats u8 ‖
// params_len u16 ‖ params ‖ [opponent: typed ZooBC address].
export function createAppBody({ appType, stakeToken = 0, stake, seats, params = new Uint8Array(0), opponent = null }) {
  if (!Number.isInteger(appType) || appType < 0 || appType > 255) throw new Error('app type is a number from 0 to 255');
  if (!Number.isInteger(seats) || seats < 0 || seats > 255) throw new Error('seats is a number from 0 to 255');
  const opp = opponent ? typedAddress(opponent) : new Uint8Array(0);
  if (opp.length > 0 && (opp.length !== 36 || opp[0] !== 0)) throw new Error('the opponent must be a ZooBC (ZBC_) account');
  return concat(Uint8Array.of(appType), int64(stakeToken, false), int64(stake, false), Uint8Array.of(seats),
    u16(params.length), params, opp);
}

// JoinApp, ResignApp, ClaimAppTimeout: app_id u64.
export function appIdBody(appId) {
  return int64(appId, false);
}

// AppMove: app_id u64 ‖ move_len u16 ‖ move (empty: a keep-alive).
export function appMoveBody(appId, move) {
  return concat(int64(appId, false), u16(move.length), move);
}

// One call for any type the page builds, from plain fields (the browser
// test drives it with the vectors' params): {unsigned_bytes, sender, digest,
// signature, transaction_bytes, transaction_hash}.
export function signTx({ seedHex, genesisHex, type, fee, timestamp, message = '', version = 2, params }) {
  const seed = hexToBytes(seedHex);
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const senderPk = publicKey(seed);
  let body;
  let recipient = null;
  if (type === TX.SEND_ZBC) {
    body = int64(params.amount, false);
    recipient = params.recipient;
  } else if (type === TX.CREATE_APP) {
    body = createAppBody({ appType: Number(params.app_type), stakeToken: params.stake_token, stake: params.stake_amount,
      seats: Number(params.seats), params: hexToBytes(params.params_hex || ''), opponent: params.opponent_hex || null });
  } else if (type === TX.JOIN_APP || type === TX.RESIGN_APP || type === TX.CLAIM_APP_TIMEOUT) {
    body = appIdBody(params.app_id);
  } else if (type === TX.APP_MOVE) {
    body = appMoveBody(params.app_id, hexToBytes(params.move_hex || ''));
  } else {
    throw new Error(`the page builds no transaction of type ${type}`);
  }
  const unsigned = unsignedTx({ type, senderPk, recipient, fee, timestamp, body, message });
  return { unsigned_bytes: bytesToHex(unsigned), sender: zbcAddress(senderPk),
    ...sign(unsigned, seed, version === 1 ? null : hexToBytes(genesisHex), version) };
}

// The signing digest: version 2 H("ZBC-TX" ‖ genesis ‖ unsigned), version
// 1 (legacy ZooBC chains) H(unsigned) (docs/protocol-tx.md §2).
export function digest(unsigned, genesisHash, version = 2) {
  return version === 1 ? sha3_256(unsigned) : sha3_256(concat(SIGNING_TAG, genesisHash, unsigned));
}

// Signs unsigned bytes with an Ed25519 seed: {transaction_bytes, hash,
// signature, digest} in hex.
export function sign(unsigned, seed, genesisHash, version = 2) {
  const d = digest(unsigned, genesisHash, version);
  const sig = ed.sign(d, seed);
  const bytes = concat(unsigned, sig);
  return { digest: bytesToHex(d), signature: bytesToHex(sig), transaction_bytes: bytesToHex(bytes),
    transaction_hash: bytesToHex(sha3_256(bytes)) };
}

// One call for the common case.
export function signSendZbc({ seedHex, genesisHex, recipient, amount, fee, timestamp, message = '', version = 2 }) {
  return signTx({ seedHex, genesisHex, type: TX.SEND_ZBC, fee, timestamp, message, version,
    params: { recipient, amount } });
}
