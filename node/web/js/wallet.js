// The wallet page (#/wallet, docs/web.md §4): create or import a key
// (kept encrypted in this browser), unlock it, send ZBC signed in the page.
import { get, find, enc } from './api.js';
import { h, fields, link } from './dom.js';
import { zbc } from './words.js';
import * as ks from './keystore.js';
import { bytesToHex, createAppBody, hexToBytes, publicKey, sign, unsignedTx, TX } from './tx.js';
import { GAME_TYPES, creatorSecret, hasParams, paramsBytes, seatRange } from './boards/index.js';
import * as secrets from './secrets.js';
import { BET_TYPES, BET_USAGE, KENO_RISKS, betOfWords, betParams, soloParams, SOLO_TYPES } from './bets.js';

let seed = null; // the unlocked seed: this page's memory only

// The unlocked key's ZBC_ address, or null when locked or absent.
export function unlockedAddress() {
  const r = ks.stored();
  return seed && r ? r.address : null;
}

// Builds a transaction of `type` with `body` from the unlocked key at the
// node's minimum fee, signs it in the page and posts it; resolves to
// {hash, fee}, rejects with the node's sentence.
// Timestamps are whole seconds: two moves with the same bytes in one second
// (a dice game's "roll", turn after turn) would be the same transaction,
// refused as a duplicate.  Each submission of this page takes a later
// second than the one before (a block takes timestamps up to 10 s after
// its own time, consensus/tx_valid.c:zbc_tx_valid_time: more than ten
// transactions in one second would be refused).
let lastTimestamp = 0n;

// `beforePost(hash)`, when given, runs after signing and before posting (a
// throw sends nothing): battleship's creator stores its secret there, keyed
// by the new app id the hash gives.
export async function submit(type, body, { recipient = null, message = '', beforePost = null } = {}) {
  if (!seed) throw new Error('unlock the wallet first (#/wallet)');
  const info = await get('node/info');
  const now = BigInt(Math.floor(Date.now() / 1000));
  lastTimestamp = now > lastTimestamp ? now : lastTimestamp + 1n;
  const base = { type, senderPk: publicKey(seed), recipient, body, message, timestamp: lastTimestamp };
  // the fee's 8 bytes are fixed: the length, and so the minimum, do not depend on it
  const len = unsignedTx({ ...base, fee: 0n }).length + 64;
  const fee = BigInt(info.min_fee_base) + BigInt(info.min_fee_per_byte) * BigInt(len);
  const signed = sign(unsignedTx({ ...base, fee }), seed, hexToBytes(info.genesis_hash));
  if (beforePost) await beforePost(signed.transaction_hash);
  const res = await fetch('/api/v1/transactions', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ transaction_bytes: signed.transaction_bytes }) });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || `HTTP ${res.status}`);
  return { hash: signed.transaction_hash, fee };
}

// An app's id: the first 8 bytes of its CreateApp's hash, little-endian.
export function appIdOf(txHash) {
  let id = 0n;
  for (let i = 7; i >= 0; i--) id = (id << 8n) | BigInt(parseInt(txHash.substr(2 * i, 2), 16));
  return id.toString();
}

// "1.5", "1.5ZBC", "2 ZBC" -> atomic units (BigInt); 8 decimals at most.
export function parseZbc(text) {
  const m = /^\s*(\d{1,11})(?:\.(\d{1,8}))?\s*(?:ZBC)?\s*$/i.exec(text);
  if (!m) throw new Error('amount must be ZBC with at most 8 decimals, e.g. 1.5');
  return BigInt(m[1]) * 100000000n + BigInt((m[2] || '').padEnd(8, '0') || '0');
}

export function form(id, rows, button, onsubmit) {
  const f = h('form', { id, class: 'filters' }, rows, h('button', { type: 'submit' }, button),
    h('span', { class: 'form-status', 'data-status': id }));
  f.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const status = f.querySelector('.form-status');
    status.className = 'form-status muted';
    status.textContent = 'working…';
    try {
      await onsubmit(Object.fromEntries(new FormData(f)), status);
    } catch (e) {
      status.className = 'form-status error';
      status.textContent = e.message;
    }
  });
  return f;
}

function input(label, name, attrs = {}) {
  return h('label', {}, label, h('input', { name, autocomplete: 'off', spellcheck: 'false', ...attrs }));
}

function passphrases(twice) {
  return [input('passphrase', 'passphrase', { type: 'password' }),
    twice ? input('again', 'again', { type: 'password' }) : null];
}

function samePassphrase(v) {
  if (v.passphrase !== v.again) throw new Error('the two passphrases differ');
  return v.passphrase;
}

export async function page(rerender) {
  const r = ks.stored();
  if (!r) {
    return [
      h('h1', {}, 'Wallet'),
      h('p', { class: 'muted' }, 'The key stays in this browser, encrypted under your passphrase; ' +
        'it is never sent to the node. Write the seed down: it is the only backup.'),
      h('h2', {}, 'Create a key'),
      form('key-new', passphrases(true), 'Create', async (v) => {
        const s = ks.newSeed();
        await ks.save(s, samePassphrase(v));
        seed = s;
        rerender(bytesToHex(s));
      }),
      h('h2', {}, 'Import a seed'),
      form('key-import', [input('seed (64 hex)', 'seed', { size: 66 }), passphrases(true)], 'Import', async (v) => {
        const s = /^[0-9a-fA-F]{64}$/.test(v.seed.trim()) ? hexToBytes(v.seed.trim()) : null;
        if (!s) throw new Error('a seed is 64 hex characters');
        await ks.save(s, samePassphrase(v));
        seed = s;
        rerender();
      }),
    ];
  }
  const out = [h('h1', {}, 'Wallet'), fields([['address', h('code', { 'data-field': 'wallet-address' },
    link('#/account/' + enc(r.address), r.address))]])];
  if (!seed) {
    out.push(form('key-unlock', passphrases(false), 'Unlock', async (v) => {
      seed = await ks.unlock(v.passphrase);
      rerender();
    }));
    out.push(h('h2', {}, 'Forget this key'),
      form('key-forget', [h('label', {}, 'type FORGET', h('input', { name: 'confirm' }))], 'Forget', async (v) => {
        if (v.confirm !== 'FORGET') throw new Error('type FORGET to delete the key from this browser');
        ks.forget();
        rerender();
      }));
    return out;
  }
  const acct = await find('accounts/' + enc(r.address));
  out.push(fields([['balance', h('span', { 'data-field': 'wallet-balance' }, acct ? zbc(acct.balance) : '0 ZBC')]]));
  out.push(h('h2', {}, 'Send ZBC'), form('send', [input('to', 'to', { size: 70 }), input('amount (ZBC)', 'amount'),
    input('message', 'message')], 'Sign and send', async (v, status) => {
    const amount = new Uint8Array(8);
    new DataView(amount.buffer).setBigUint64(0, parseZbc(v.amount), true);
    const { hash, fee } = await submit(TX.SEND_ZBC, amount, { recipient: v.to, message: v.message || '' });
    status.className = 'form-status ok';
    status.replaceChildren(`sent (fee ${zbc(fee)}): `, link('#/tx/' + hash, hash));
    status.dataset.tx = hash;
  }));
  out.push(h('h2', {}, 'Start a game'), createGameForm());
  out.push(...placeBet());
  out.push(form('key-lock', [], 'Lock', async () => {
    seed = null;
    rerender();
  }));
  return out;
}

// "Place a bet" and "Play a solo game" (docs/web.md "Bets and solo games"): a solo bet in the
// words of `zbc bet GAME …` (the same params bytes), or a multi-step solo
// game (mines, tower, hilo, blackjack) as `zbc app create GAME --params`
// builds it; each is a CreateApp for one seat, linked when sent.
function randomClientSeed() {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(8)));
}

function created(status, hash, what) {
  const id = appIdOf(hash);
  status.className = 'form-status ok';
  status.replaceChildren(`${what}: `, link('#/app/' + id, `app ${id}`));
  status.dataset.app = id;
  status.dataset.tx = hash;
}

function placeBet() {
  const select = (name, options) => h('select', { name }, options.map((g) => h('option', { value: g }, g)));
  const usage = h('p', { class: 'muted', 'data-field': 'bet-usage' });
  const games = select('game', Object.keys(BET_TYPES));
  const showUsage = () => { usage.textContent = `${games.value}: ${BET_USAGE[games.value]}`; };
  games.addEventListener('change', showUsage);
  showUsage();
  return [
    h('h2', {}, 'Place a bet'), usage,
    form('bet-place', [h('label', {}, 'game', games), input('bet', 'words', { size: 30, placeholder: 'under 49.5' }),
      h('label', {}, 'keno risk', select('risk', KENO_RISKS)), input('stake (ZBC)', 'stake'),
      input('client seed (optional)', 'seed', { size: 20 })], 'Place the bet', async (v, status) => {
      const words = v.words.trim().split(/\s+/).filter((w) => w !== '');
      const bet = betOfWords([v.game, ...words], v.game === 'keno' ? v.risk : null);
      const params = betParams(bet, v.seed.trim() || randomClientSeed());
      const { hash } = await submit(TX.CREATE_APP, createAppBody({ appType: BET_TYPES[v.game],
        stake: parseZbc(v.stake), seats: 1, params }));
      created(status, hash, `${v.game} bet placed (settled by the next block)`);
    }),
    h('h2', {}, 'Play a solo game'),
    h('p', { class: 'muted' }, 'mines: mines 1-24 (default 3); tower: difficulty easy, medium, hard, expert or master; ' +
      'hilo and blackjack take none.'),
    form('solo-create', [h('label', {}, 'game', select('game', Object.keys(SOLO_TYPES))),
      input('mines / difficulty', 'field', { size: 10 }), input('stake (ZBC)', 'stake'),
      input('client seed (optional)', 'seed', { size: 20 })], 'Start', async (v, status) => {
      const params = soloParams(v.game, v.field.trim(), v.seed.trim());
      const { hash } = await submit(TX.CREATE_APP, createAppBody({ appType: SOLO_TYPES[v.game],
        stake: parseZbc(v.stake), seats: 1, params }));
      created(status, hash, `${v.game} started`);
    }),
  ];
}

// "Start a game" (docs/web.md §4): the game, its seats (the game's range),
// its params where it has named ones (the words `zbc app create --params`
// takes, e.g. monopoly's cash=N), the stake and an optional opponent; the
// CreateApp body is createAppBody's, byte for byte the wallet's.  A game
// whose creator commits a secret in the params (battleship: its board)
// shows the module's placement; Create stores the secret, sealed, under
// the new app id (the first 8 bytes of the transaction hash) before the
// CreateApp is posted, so a lost answer never loses a committed board.
function createGameForm() {
  const games = Object.keys(GAME_TYPES);
  const seats = h('select', { name: 'seats' });
  const params = input('params (optional)', 'params', { placeholder: 'e.g. cash=500' });
  const game = h('select', { name: 'game' }, games.map((g) => h('option', { value: g }, g)));
  const fit = () => {
    const [lo, hi] = seatRange(game.value);
    const keep = Number(seats.value);
    seats.replaceChildren(...Array.from({ length: hi - lo + 1 }, (_, i) => h('option', { value: String(lo + i) }, String(lo + i))));
    seats.value = String(keep >= lo && keep <= hi ? keep : lo);
    seats.disabled = lo === hi;
    const named = hasParams(game.value);
    params.style.display = named ? '' : 'none';
    if (!named) params.querySelector('input').value = '';
  };
  const picker = h('div', { 'data-field': 'create-secret' });
  const showPicker = () => {
    const m = creatorSecret(game.value);
    picker.replaceChildren(m ? m.createPicker() : '');
  };
  game.addEventListener('change', fit);
  game.addEventListener('change', showPicker);
  const f = form('app-create', [h('label', {}, 'game', game), h('label', {}, 'seats', seats), params,
    input('stake (ZBC)', 'stake'), input('opponent (optional)', 'opponent', { size: 70 })], 'Create', async (v, status) => {
    const n = Number(seats.value);
    const m = creatorSecret(v.game);
    const made = m ? m.createSecret() : null;
    const body = createAppBody({ appType: GAME_TYPES[v.game], stake: parseZbc(v.stake), seats: n,
      params: made ? made.params : paramsBytes(v.game, v.params || ''), opponent: (v.opponent || '').trim() || null });
    const address = unlockedAddress();
    const { hash } = await submit(TX.CREATE_APP, body, { beforePost: made
      ? (txHash) => secrets.save(address, appIdOf(txHash), made.secret) : null });
    const id = appIdOf(hash);
    status.className = 'form-status ok';
    status.replaceChildren('created: ', link('#/app/' + id, `app ${id}`), ` (${n} seats)`);
    status.dataset.app = id;
    status.dataset.tx = hash;
  });
  fit();
  showPicker();
  // the placement's buttons stay outside the form: Create is its only button
  return h('div', { class: 'app-create' }, f, picker);
}

export function newSeedNotice(hex) {
  return h('p', { class: 'ok', 'data-field': 'new-seed' }, 'Your new seed (write it down, it is shown once): ',
    h('code', {}, hex));
}
