// The browser's store of game secrets (docs/web.md §8): a battleship
// fleet with its 100 salts, a rock-paper-scissors choice with its salt.
// One record per (app, key) in localStorage, sealed with XChaCha20-Poly1305
// under the key keystore.js derives from the unlocked seed, with the
// record's header (version, app, address, game) as associated data.  The
// plaintext is the wallet's secret file, byte for byte the same JSON shape
// (docs/wallet.md "Secret files"), so a file can be moved between the two.
// Nothing here is ever sent: the moves carry only what the game reveals.
import { xchacha20poly1305 } from '../node_modules/@noble/ciphers/chacha.js';
import { bytesToHex, hexToBytes } from './tx.js';
import { secretsKey } from './keystore.js';
import { h } from './dom.js';

const PREFIX = 'zbc.secret.v1.';

function slot(appId, address) {
  return `${PREFIX}${appId}.${address}`;
}

function header(r) {
  return new TextEncoder().encode(JSON.stringify(['zbc-web-secret', r.v, r.app, r.address, r.game]));
}

function keyFor(address) {
  const key = address ? secretsKey(address) : null;
  if (!key) throw new Error('unlock the wallet first (#/wallet): game secrets are sealed under its key');
  return key;
}

const HEX = (n) => new RegExp(`^[0-9a-f]{${n}}$`);

// Checks a secret object in the wallet's secret-file shape; returns it
// normalised (lower-case hex) or throws naming what is wrong.
export function checkSecret(sec) {
  if (!sec || typeof sec !== 'object') throw new Error('a game secret is a JSON object');
  if (sec.game === 'battleship') {
    const ships = String(sec.is_ship || '').toLowerCase();
    const salts = String(sec.salts || '').toLowerCase();
    if (!HEX(200).test(ships) || !/^(0[01])+$/.test(ships)) {
      throw new Error('a battleship secret\'s is_ship is 100 bytes of 00 or 01 in hex (200 characters)');
    }
    if (!HEX(6400).test(salts)) throw new Error('a battleship secret\'s salts are 3200 bytes in hex (6400 characters)');
    return { game: 'battleship', is_ship: ships, salts };
  }
  if (sec.game === 'rps') {
    const salt = String(sec.salt || '').toLowerCase();
    if (![1, 2, 3].includes(sec.choice)) throw new Error('an rps secret\'s choice is 1 (rock), 2 (scissors) or 3 (paper)');
    if (!HEX(64).test(salt)) throw new Error('an rps secret\'s salt is 32 bytes in hex (64 characters)');
    return { game: 'rps', choice: sec.choice, salt };
  }
  throw new Error(`no secrets are kept for the game '${String(sec.game)}' (battleship and rps only)`);
}

// Seals and stores `secret` for app `appId` of the key at `address`,
// replacing any earlier one (an rps round replaces the last round's).
export function save(address, appId, secret) {
  const sec = checkSecret(secret);
  const key = keyFor(address);
  const r = { v: 1, app: String(appId), address, game: sec.game };
  const nonce = crypto.getRandomValues(new Uint8Array(24));
  const plain = new TextEncoder().encode(JSON.stringify(sec));
  r.nonce = bytesToHex(nonce);
  r.box = bytesToHex(xchacha20poly1305(key, nonce, header(r)).encrypt(plain));
  plain.fill(0);
  localStorage.setItem(slot(appId, address), JSON.stringify(r));
}

// The secret stored for app `appId` and the key at `address`, or null when
// this browser has none; throws when the record does not open (another
// key's, or altered).
export function load(address, appId) {
  const raw = localStorage.getItem(slot(appId, address));
  if (raw === null) return null;
  const key = keyFor(address);
  let r;
  try {
    r = JSON.parse(raw);
  } catch {
    throw new Error(`the secrets stored for app ${appId} are not JSON`);
  }
  if (!r || r.v !== 1 || r.app !== String(appId) || r.address !== address || typeof r.game !== 'string' ||
      !HEX(48).test(r.nonce) || typeof r.box !== 'string' || !/^([0-9a-f]{2})+$/.test(r.box)) {
    throw new Error(`the secrets stored for app ${appId} are not a record of this page`);
  }
  let plain;
  try {
    plain = xchacha20poly1305(key, hexToBytes(r.nonce), header(r)).decrypt(hexToBytes(r.box));
  } catch {
    throw new Error(`the secrets stored for app ${appId} do not open with this key (altered, or another key's)`);
  }
  const sec = checkSecret(JSON.parse(new TextDecoder().decode(plain)));
  plain.fill(0);
  if (sec.game !== r.game) throw new Error(`the secrets stored for app ${appId} name another game`);
  return sec;
}

// The text of a wallet secret file (<wallet>/apps/ID-ADDRESS.json) as a
// secret of `game`; throws naming what is wrong.
export function parseWalletFile(game, text) {
  let sec;
  try {
    sec = JSON.parse(text);
  } catch {
    throw new Error('the wallet\'s secret file is JSON: paste the whole file');
  }
  sec = checkSecret(sec);
  if (sec.game !== game) throw new Error(`that file holds ${sec.game} secrets, this app is ${game}`);
  return sec;
}

// A form that imports the wallet's secret file for this seat, so a game the
// wallet started can be finished in the page.  verify(secret) throws when
// the secret is not the seat's commitment on chain; done() re-renders.
export function importForm(app, ctx, verify, done) {
  const area = h('textarea', { name: 'secret-file', rows: 3, cols: 70, spellcheck: 'false' });
  const out = h('span', { class: 'form-status' });
  return h('p', { class: 'secret-import' }, 'Finish a game the wallet started: paste its secret file ',
    h('code', {}, `apps/${app.id}-${ctx.address}.json`), ' ', area, ' ',
    h('button', { type: 'button', id: 'secret-import', onclick: () => {
      try {
        const sec = parseWalletFile(app.game, area.value);
        verify(sec);
        save(ctx.address, app.id, sec);
        done();
      } catch (e) {
        out.className = 'form-status error';
        out.textContent = e.message;
      }
    } }, 'Import'), ' ', out);
}

// The sentence for a seat whose secrets are not in this browser.
export function lostText(what, appId) {
  return `this browser has no ${what} for app ${appId}: the secrets stay where they were made ` +
    '(the wallet\'s secret file, or another browser); without them this seat cannot reveal and will lose on time';
}
