// Produces interop.json: signatures made by stock wallet libraries, which
// the C verifier (crypto/sig.c) must accept, and Keccak-256 values from an
// independent implementation.  Run once in a scratch directory:
//   npm install ethers@6 bitcoinjs-message ecpair tiny-secp256k1 bitcoinjs-lib
//   node make-interop.js > interop.json
// The output is committed; this script is kept only to show how.
'use strict';
const { Wallet, keccak256, getBytes, SigningKey } = require('ethers');
const bitcoinMessage = require('bitcoinjs-message');
const { createHash } = require('crypto');

const keys = [
  '0000000000000000000000000000000000000000000000000000000000000001',
  '0000000000000000000000000000000000000000000000000000000000000002',
  '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
  'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
];
const digests = [
  '0000000000000000000000000000000000000000000000000000000000000000',
  '124e46e8b679ff7d2e9b20d40c07b2f9b25fc4589a8050b4db77fb7d58bf8db7',
  'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
];

function hash160(buf) {
  const sha = createHash('sha256').update(buf).digest();
  return createHash('ripemd160').update(sha).digest();
}

async function main() {
  const eth = [];
  const btc = [];
  for (const k of keys) {
    const wallet = new Wallet('0x' + k);
    const sk = new SigningKey('0x' + k);
    const pubC = Buffer.from(getBytes(sk.compressedPublicKey));
    const pubU = Buffer.from(getBytes(sk.publicKey));
    for (const d of digests) {
      // personal_sign of the 32 raw digest bytes
      const sig = await wallet.signMessage(getBytes('0x' + d));
      eth.push({ seckey: k, digest: d, address: wallet.address,
                 signature: sig.slice(2) });
      for (const compressed of [true, false]) {
        // Bitcoin Core signmessage over the lower-case hex of the digest
        const s = bitcoinMessage.sign(d, Buffer.from(k, 'hex'), compressed);
        btc.push({ seckey: k, digest: d, compressed,
                   hash160: hash160(compressed ? pubC : pubU).toString('hex'),
                   signature: s.toString('hex') });
      }
    }
  }
  const keccak = [];
  for (const n of [0, 1, 135, 136, 137, 200, 272, 1000]) {
    const data = Buffer.alloc(n);
    for (let i = 0; i < n; i++) data[i] = i & 0xff;
    keccak.push({ len: n, pattern: 'byte i = i mod 256', hash: keccak256(data).slice(2) });
  }
  const out = {
    description: 'Signatures by stock wallet libraries over fixed 32-byte digests, and Keccak-256 of byte patterns. ' +
      'Produced once by make-interop.js (beside this file) with Node.js 20, ethers ' + require('ethers').version +
      ' (Wallet.signMessage of the raw digest bytes: EIP-191 personal_sign; keccak256 from @noble/hashes) and ' +
      'bitcoinjs-message 2.2.0 (sign(lower-case hex of the digest, key, compressed)). Not produced by this project\'s code.',
    ethereum: eth,
    bitcoin: btc,
    keccak256: keccak,
  };
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}
main();
