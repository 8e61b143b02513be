// Prints fresh secp256k1 keys and their Ethereum and Bitcoin P2PKH
// addresses, computed with ethers alone (independently of zbc):
//   {"eth": {"privkey": hex, "address": "0x…"}, "btc": {"privkey": hex, "address": "1…"}}
'use strict';
const { Wallet, SigningKey, sha256, ripemd160, encodeBase58, getBytes, concat, hexlify } = require('ethers');

function p2pkh(privHex) {
  const pub = SigningKey.computePublicKey('0x' + privHex, true);
  const h160 = ripemd160(sha256(pub));
  const payload = concat(['0x00', h160]);
  const check = getBytes(sha256(sha256(payload))).slice(0, 4);
  let s = encodeBase58(concat([payload, check]));
  // encodeBase58 drops leading zero bytes; base58check writes each as '1'.
  return s.startsWith('1') ? s : '1' + s;
}

const eth = Wallet.createRandom();
const btcPriv = hexlify(Wallet.createRandom().privateKey).slice(2);
console.log(JSON.stringify({
  eth: { privkey: eth.privateKey.slice(2), address: eth.address },
  btc: { privkey: btcPriv, address: p2pkh(btcPriv) },
}));
