// The explorer's views (docs/web.md §3): one function per route, each
// building its part of the page from the node's API.
import { get, find, enc } from './api.js';
import { h, fields, table, link, short } from './dom.js';
import { zbc, when, ago, resultText, eventText, clockText } from './words.js';
import { boardFor, moveFor, autoMove } from './boards/index.js';
import { unlockedAddress, submit } from './wallet.js';
import { TX, appIdBody, appMoveBody } from './tx.js';
import { betResult } from './bets.js';
import { joinPanel } from './boards/crash.js';
import { verifyPanel } from './verify.js';

const LATEST = 15;

export function addrLink(a) {
  return a ? link('#/account/' + enc(a), a) : '—';
}

function txLink(hash) {
  return hash ? link('#/tx/' + hash, h('code', {}, short(hash))) : '—';
}

function blockLink(height) {
  return link('#/block/' + height, String(height));
}

function appLink(id) {
  return link('#/app/' + id, String(id));
}

// Home: the latest blocks, newest first.
export async function home(info) {
  const tip = info.height;
  const heights = [];
  for (let i = tip; i >= 1 && heights.length < LATEST; i--) heights.push(i);
  const blocks = await Promise.all(heights.map((n) => get('blocks/' + n)));
  const rows = blocks.map((b) => [
    blockLink(b.height), h('code', {}, short(b.hash)), h('span', { title: when(b.timestamp) }, ago(b.timestamp)),
    String(b.tx_count), h('code', {}, short(b.producer_address, 12)),
  ]);
  return [
    h('h1', {}, 'Latest blocks'),
    heights.length === 0
      ? h('p', { class: 'muted' }, 'No block yet: the chain is at its genesis.')
      : table(['height', 'hash', 'time', 'transactions', 'producer'], rows),
  ];
}

export async function block(height) {
  const b = await get('blocks/' + enc(height));
  if (b.genesis) {
    return [h('h1', {}, 'Genesis'), fields([['hash', h('code', {}, b.hash)], ['time', when(b.timestamp)],
      ['seed', h('code', {}, b.seed)]])];
  }
  const nav = h('p', {}, b.height > 1 ? link('#/block/' + (b.height - 1), '← previous') : '', ' ',
    link('#/block/' + (b.height + 1), 'next →'));
  return [
    h('h1', {}, `Block ${b.height}`), nav,
    fields([
      ['hash', h('code', { 'data-field': 'hash' }, b.hash)],
      ['previous', h('code', {}, b.previous_block_hash)],
      ['time', `${when(b.timestamp)} (${ago(b.timestamp)})`],
      ['producer', h('code', {}, b.producer_address)],
      ['rank', String(b.rank)],
      ['state root', h('code', {}, b.state_root)],
      ['transactions', String(b.tx_count)],
    ]),
    h('h2', {}, 'Transactions'),
    b.transactions.length === 0 ? h('p', { class: 'muted' }, 'none')
      : table(['#', 'hash'], b.transactions.map((t, i) => [String(i), txLink(t)])),
    h('h2', {}, 'Events'),
    b.events.length === 0 ? h('p', { class: 'muted' }, 'none')
      : table(['tx', 'kind', 'what'], b.events.map((e) => [
        e.tx_index === null ? 'block' : String(e.tx_index), e.kind, eventText(e)])),
  ];
}

function statusWords(st) {
  if (st.status === 'confirmed') {
    const applied = st.applied === false
      ? h('span', { class: 'bad', 'data-field': 'applied' }, 'no-op: ' + (st.noop_reason || 'no reason given'))
      : h('span', { class: 'ok', 'data-field': 'applied' }, 'applied');
    return [applied, ` in block `, blockLink(st.block_height),
      ` (${st.confirmations} confirmation${st.confirmations === 1 ? '' : 's'}${st.final ? ', final' : ''})`];
  }
  if (st.status === 'dropped') return h('span', { class: 'bad' }, st.description);
  return st.description || st.status;
}

export async function tx(hash) {
  const [t, st] = await Promise.all([find('transactions/' + enc(hash)), get('transactions/' + enc(hash) + '/status')
    .catch((e) => (e.status === 404 ? null : Promise.reject(e)))]);
  if (t === null) {
    if (st && st.status === 'dropped') return [h('h1', {}, 'Transaction'), h('p', {}, statusWords(st))];
    return [h('h1', {}, 'Transaction'), h('p', { class: 'error' }, 'unknown to this node: ' + hash)];
  }
  const rows = [
    ['hash', h('code', {}, t.transaction_hash)],
    ['status', st ? statusWords(st) : t.status],
    ['type', t.transaction_type_name],
    ['sender', addrLink(t.sender)],
    ['recipient', t.recipient ? addrLink(t.recipient) : undefined],
    ['amount', t.amount !== undefined ? zbc(t.amount) : undefined],
    ['fee', zbc(t.fee)],
    ['signed at', when(t.timestamp * 1000)],
    ['app', t.app_id !== undefined ? appLink(t.app_id) : undefined],
    ['app type', t.app_type !== undefined ? String(t.app_type) : undefined],
    ['stake', t.stake !== undefined ? zbc(t.stake) : undefined],
    ['move', t.move_hex !== undefined ? h('code', {}, t.move_hex || '(keep-alive)') : undefined],
    ['bytes', h('code', {}, short(t.transaction_bytes, 24))],
  ];
  return [h('h1', {}, 'Transaction'), fields(rows)];
}

export async function account(addr, cursor) {
  const a = await find('accounts/' + enc(addr));
  const q = 'accounts/' + enc(addr) + '/history?limit=25' + (cursor ? '&cursor=' + enc(cursor) : '');
  const hist = await get(q);
  const rows = hist.entries.map((e) => [blockLink(e.height), e.kind, eventText(e), txLink(e.tx_hash)]);
  return [
    h('h1', {}, 'Account'),
    fields([
      ['address', h('code', { 'data-field': 'address' }, a ? a.address : hist.address)],
      ['balance', h('span', { 'data-field': 'balance' }, a ? zbc(a.balance) : 'no record (0 ZBC)')],
      ['read at', `height ${hist.height}`],
    ]),
    h('h2', {}, 'History'),
    rows.length === 0 ? h('p', { class: 'muted' }, 'no event names this account')
      : table(['block', 'kind', 'what', 'transaction'], rows),
    hist.next_cursor ? h('p', {}, link(`#/account/${enc(addr)}?cursor=${enc(hist.next_cursor)}`, 'older →')) : null,
  ];
}

function appRows(apps) {
  return apps.map((a) => [appLink(a.id), a.game, a.status, `${a.seated}/${a.seats}`, zbc(a.pot),
    a.players.map((p) => p.address).join(', '), a.outcome || '—', blockLink(a.created)]);
}

const STATUSES = ['', 'open', 'active', 'finished', 'abandoned'];

export async function apps(params, go) {
  const q = new URLSearchParams();
  for (const k of ['status', 'type', 'player', 'cursor']) if (params.get(k)) q.set(k, params.get(k));
  q.set('limit', '25');
  const list = await get('apps?' + q.toString());
  const form = h('form', { class: 'filters', id: 'app-filters' },
    h('label', {}, 'game', h('input', { name: 'type', value: params.get('type') || '', placeholder: 'tictactoe or 1' })),
    h('label', {}, 'state', h('select', { name: 'status' },
      STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s || 'any')))),
    h('label', {}, 'player', h('input', { name: 'player', value: params.get('player') || '', size: 40 })),
    h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v).trim()) f.set(k, String(v).trim());
    go('#/apps' + (f.toString() ? '?' + f.toString() : ''));
  });
  let more = null;
  if (list.next_cursor) {
    const n = new URLSearchParams(q);
    n.delete('limit');
    n.set('cursor', list.next_cursor);
    more = h('p', {}, link('#/apps?' + n.toString(), 'older →'));
  }
  return [
    h('h1', {}, 'Apps'), form,
    list.apps.length === 0 ? h('p', { class: 'muted' }, 'no app matches')
      : table(['id', 'game', 'state', 'seats', 'pot', 'players', 'outcome', 'created'], appRows(list.apps)),
    more,
  ];
}

const autoSent = new Set();

// The last action of this page in each app (docs/web.md §4 "Playing on the
// app page"), by app id: {what, state: 'working'|'sent'|'error', hash,
// error}.  The app page is redrawn on each of the app's events, which can
// come while a request is out (the move's own block, with automine): the
// status line of every drawing shows this record, and an answer updates
// the line drawn last, so it is never lost in a detached element.
const actions = new Map();
const statusLines = new Map(); // app id -> the status line drawn last

function showAction(a, el) {
  const r = actions.get(String(a.id));
  if (!r) return;
  if (r.state === 'working') {
    el.className = 'form-status muted';
    el.textContent = r.what + '…';
  } else if (r.state === 'error') {
    el.className = 'form-status error';
    el.textContent = `${r.what}: ${r.error}`;
  } else {
    const landed = (a.history || []).find((e) => e.tx_hash === r.hash);
    el.className = 'form-status ok';
    el.replaceChildren(`${r.what}: sent `, link('#/tx/' + r.hash, h('code', {}, short(r.hash))),
      landed ? `, in block ${landed.height}` : ', waiting for its block');
  }
  el.dataset.action = r.state;
}

// What the unlocked wallet key can do in this app (docs/web.md §4):
// join, move by clicking the board, resign, claim a timeout.  Each sends a
// transaction signed in the page; the page follows the app's event
// stream, so the board changes when the block lands.  A board module's
// automatic move (autoMove: a reveal, battleship's open) is sent once per
// position (app, moves, notation), recorded in autoSent.
function play(a) {
  const me = unlockedAddress();
  if (!me) return { panel: null, onMove: null, ctx: null };
  const status = h('span', { class: 'form-status', 'data-status': 'app-action' });
  const id = String(a.id);
  statusLines.set(id, { el: status, app: a });
  showAction(a, status);
  const update = (r) => {
    actions.set(id, r);
    const now = statusLines.get(id);
    showAction(now.app, now.el);
  };
  // body: the bytes, or an async function giving them (a board's moveFor)
  const act = async (what, type, body) => {
    update({ what, state: 'working' });
    try {
      const { hash } = await submit(type, typeof body === 'function' ? await body() : body);
      update({ what, state: 'sent', hash });
      return true;
    } catch (e) {
      update({ what, state: 'error', error: e.message });
      return false;
    }
  };
  const seat = (a.players.find((p) => p.address === me) || {}).seat;
  const seated = Number.isInteger(seat);
  const buttons = [];
  if (a.status === 'open' && !seated && a.seated < a.seats) {
    buttons.push(h('button', { id: 'app-join', onclick: () => act('join', TX.JOIN_APP, appIdBody(a.id)) },
      `Join for ${zbc(a.stake)}`));
  }
  const myTurn = a.status === 'active' && seated && a.turn === seat && !a.has_pending && !a.first_turn_pending;
  if (a.status === 'active' && seated) {
    buttons.push(h('button', { id: 'app-resign', onclick: () => act('resign', TX.RESIGN_APP, appIdBody(a.id)) }, 'Resign'));
  }
  if (a.timeout_claimable && seated && a.clock !== seat) {
    buttons.push(h('button', { id: 'app-claim', onclick: () => act('claim', TX.CLAIM_APP_TIMEOUT, appIdBody(a.id)) },
      'Claim the timeout'));
  }
  // the keep-alive: an empty AppMove by the clock holder moves the deadline
  // (docs/protocol-apps.md §2); the chain takes one in every game with a clock
  if (a.status === 'active' && seated && a.clock === seat && !a.has_pending && !a.first_turn_pending) {
    buttons.push(h('button', { id: 'app-keepalive', onclick: () => act('keep-alive', TX.APP_MOVE,
      appMoveBody(a.id, new Uint8Array(0))) }, 'Keep alive'));
  }
  const ctx = { address: me, seat: seated ? seat : null };
  const send = (n) => act(`move ${n}`, TX.APP_MOVE, async () => appMoveBody(a.id, await moveFor(a, n, ctx)));
  const onMove = myTurn ? send : null;
  let auto = null;
  if (myTurn) {
    try {
      auto = autoMove(a, ctx);
    } catch (e) {
      status.className = 'form-status error';
      status.textContent = e.message;
    }
  }
  const key = `${a.id}:${a.moves}:${auto}`;
  if (auto !== null && !autoSent.has(key)) {
    autoSent.add(key);
    // a refused one is tried again at the next drawing of the app (its next event, or a reload)
    setTimeout(() => send(auto).then((ok) => { if (!ok) autoSent.delete(key); }), 0);
  }
  const words = !seated ? 'you (the wallet\'s key) hold no seat here'
    : auto !== null ? `you hold seat ${seat}: the page sends your ${auto}`
      : myTurn ? 'your move: click a highlighted square' : `you hold seat ${seat}`;
  return { panel: h('p', { class: 'play' }, h('span', { 'data-field': 'you' }, words), ' ', buttons, ' ', status),
    onMove, ctx };
}

// The game's SVG board when it has a module (docs/web.md §6), else the
// engine's text board.
function board(a, onMove, ctx) {
  let svg;
  try {
    svg = boardFor(a, onMove, ctx);
  } catch (e) { // a view the module cannot read: say why, keep the rest of the page
    return [h('h2', {}, 'Board'), h('p', { class: 'error', 'data-field': 'board-error' }, e.message),
      a.board ? h('pre', { class: 'board' }, a.board) : null];
  }
  if (svg) return [h('h2', {}, 'Board'), svg];
  return a.board ? [h('h2', {}, 'Board'), h('pre', { class: 'board' }, a.board)] : null;
}

export async function app(id) {
  // the node's block time for the clock in time (none on an automine node)
  const [a, info] = await Promise.all([get('apps/' + enc(id)), get('node/info')]);
  const blockMs = info.automine ? 0 : Number(info.block_time_ms) || 0;
  const result = betResult(a) || resultText(a);
  const { panel, onMove, ctx } = play(a);
  const hist = (a.history || []).slice().reverse().map((e) => [blockLink(e.height), e.kind,
    e.notation || eventText(e), txLink(e.tx_hash)]);
  return [
    h('h1', {}, `App ${a.id}: ${a.game}`),
    fields([
      ['state', a.status],
      ['result', result ? h('span', { 'data-field': 'result' }, result) : undefined],
      ['seats', `${a.seated} of ${a.seats}`],
      ['stake', zbc(a.stake)],
      ['pot', zbc(a.pot)],
      ['to move', a.turn !== null && a.turn !== undefined ? `seat ${a.turn}` : undefined],
      ['deadline', a.deadline !== null && a.deadline !== undefined ? h('span', { 'data-field': 'deadline' },
        clockText(a.deadline, a.height, blockMs)) : undefined],
      ['created', blockLink(a.created)],
      ['moves', String(a.moves)],
    ]),
    h('h2', {}, 'Players'),
    table(['seat', 'address'], a.players.map((p) => [String(p.seat), addrLink(p.address)])),
    panel,
    joinPanel(a),
    board(a, onMove, ctx),
    h('h2', {}, 'History'),
    hist.length === 0 ? h('p', { class: 'muted' }, 'none') : table(['block', 'kind', 'what', 'transaction'], hist),
    verifyPanel(a, { block: (n) => get('blocks/' + n), info: () => get('node/info') }),
  ];
}

// Search (docs/web.md §3): "app N" → app; digits → the block at that
// height, or the app with that id above the tip; 64 hex → a block or a
// transaction among the latest 256 blocks (read from the blocks, so no
// request is expected to miss), else a transaction the node knows, else a
// ZooBC account key; any other text → an account address.  Resolves to a
// route.
const SCAN = 256;
const BATCH = 16;

export async function search(text, info) {
  const q = text.trim();
  const m = /^app\s*#?\s*(\d+)$/i.exec(q);
  if (m) return '#/app/' + m[1];
  if (/^\d+$/.test(q)) {
    if (q.length <= 10 && Number(q) <= info.height) return '#/block/' + q;
    return '#/app/' + q;
  }
  if (/^[0-9a-fA-F]{64}$/.test(q)) {
    const hex = q.toLowerCase();
    for (let n = info.height; n >= 1 && n > info.height - SCAN; n -= BATCH) {
      const batch = [];
      for (let k = n; k > n - BATCH && k >= 1; k--) batch.push(get('blocks/' + k));
      for (const b of await Promise.all(batch)) {
        if (b.hash === hex) return '#/block/' + b.height;
        if (b.transactions.includes(hex)) return '#/tx/' + hex;
      }
    }
    if (await find('transactions/' + hex)) return '#/tx/' + hex;
    return '#/account/' + hex;
  }
  return '#/account/' + enc(q);
}
