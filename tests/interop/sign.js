// Signs a zbc signing digest the way a stock wallet would:
//   node sign.js eth <privkey-hex> <digest-hex>   ethers signMessage(getBytes(digest))
//   node sign.js btc <privkey-hex> <digest-hex>   bitcoinjs-message sign(hex digest, key, compressed)
// Prints the 65-byte signature as hex.
'use strict';
const [kind, priv, digest] = process.argv.slice(2);
if (!/^[0-9a-f]{64}$/i.test(priv || '') || !/^[0-9a-f]{64}$/i.test(digest || '')) {
  console.error('usage: node sign.js eth|btc <privkey-hex> <digest-hex>');
  process.exit(2);
}
if (kind === 'eth') {
  const { Wallet, getBytes } = require('ethers');
  const sig = new Wallet('0x' + priv).signMessageSync(getBytes('0x' + digest));
  console.log(sig.slice(2));
} else if (kind === 'btc') {
  const bitcoinMessage = require('bitcoinjs-message');
  const sig = bitcoinMessage.sign(digest.toLowerCase(), Buffer.from(priv, 'hex'), true);
  console.log(sig.toString('hex'));
} else {
  console.error('unknown kind ' + kind);
  process.exit(2);
}
