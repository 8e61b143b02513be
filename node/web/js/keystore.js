// The page's key store (docs/web.md §4): one Ed25519 seed in the
// browser's localStorage, encrypted under a passphrase, never sent
// anywhere.  scrypt (N 2^15, r 8, p 1: 32 MiB, well under a second) derives
// the key; XChaCha20-Poly1305 seals the seed with the record's header as
// associated data, so a changed address or parameter fails to open.
import { scryptAsync } from '../node_modules/@noble/hashes/scrypt.js';
import { xchacha20poly1305 } from '../node_modules/@noble/ciphers/chacha.js';
import { hkdf } from '../node_modules/@noble/hashes/hkdf.js';
import { sha256 } from '../node_modules/@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, publicKey, zbcAddress } from './tx.js';

const SLOT = 'zbc.key.v1';
const KDF = { N: 2 ** 15, r: 8, p: 1, dkLen: 32 };
export const MIN_PASSPHRASE = 8;

function header(r) {
  return new TextEncoder().encode(JSON.stringify(['zbc-web-key', r.v, r.kdf, r.N, r.r, r.p, r.salt, r.address]));
}

// The stored record, or null (also for anything that is not a record of
// this version: it is left alone, not trusted).
export function stored() {
  let r;
  try {
    r = JSON.parse(localStorage.getItem(SLOT) || 'null');
  } catch {
    return null;
  }
  if (!r || r.v !== 1 || r.kdf !== 'scrypt' || r.N !== KDF.N || r.r !== KDF.r || r.p !== KDF.p ||
      !/^[0-9a-f]{32}$/.test(r.salt) || !/^[0-9a-f]{48}$/.test(r.nonce) ||
      !/^[0-9a-f]{96}$/.test(r.box) || typeof r.address !== 'string') return null;
  return r;
}

// The key that seals this key's game secrets (js/secrets.js, docs/web.md
// "Game secrets"): HKDF-SHA256 of the seed, derived when the seed is
// opened (save, unlock) and kept in this page's memory only, by address.
let secrets = null;

function remember(seed, address) {
  if (secrets) secrets.key.fill(0);
  secrets = { address, key: hkdf(sha256, seed, undefined, new TextEncoder().encode('zbc-web-secrets-v1'), 32) };
}

// The secrets key of the opened key at `address`, or null.
export function secretsKey(address) {
  return secrets && secrets.address === address ? secrets.key : null;
}

export function newSeed() {
  return crypto.getRandomValues(new Uint8Array(32));
}

// Seals seed under passphrase and stores it (replacing any stored key).
export async function save(seed, passphrase) {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes (64 hex)');
  if (passphrase.length < MIN_PASSPHRASE) throw new Error(`the passphrase needs at least ${MIN_PASSPHRASE} characters`);
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const nonce = crypto.getRandomValues(new Uint8Array(24));
  const r = { v: 1, kdf: 'scrypt', N: KDF.N, r: KDF.r, p: KDF.p, salt: bytesToHex(salt),
    address: zbcAddress(publicKey(seed)) };
  const key = await scryptAsync(passphrase, salt, KDF);
  r.nonce = bytesToHex(nonce);
  r.box = bytesToHex(xchacha20poly1305(key, nonce, header(r)).encrypt(seed));
  key.fill(0);
  localStorage.setItem(SLOT, JSON.stringify(r));
  remember(seed, r.address);
  return r;
}

// The seed of the stored key; throws "wrong passphrase" when it does not open.
export async function unlock(passphrase) {
  const r = stored();
  if (!r) throw new Error('no key is stored in this browser');
  const key = await scryptAsync(passphrase, hexToBytes(r.salt), KDF);
  let seed;
  try {
    seed = xchacha20poly1305(key, hexToBytes(r.nonce), header(r)).decrypt(hexToBytes(r.box));
  } catch {
    throw new Error('wrong passphrase for the key stored in this browser');
  } finally {
    key.fill(0);
  }
  if (zbcAddress(publicKey(seed)) !== r.address) throw new Error('the stored key does not match its address');
  remember(seed, r.address);
  return seed;
}

export function forget() {
  localStorage.removeItem(SLOT);
  if (secrets) secrets.key.fill(0);
  secrets = null;
}
