// Verification in the page (docs/web.md "Verification in the page"): the
// derivations `zbc verify` makes (node/wallet/cmd_verify.c), recomputed
// with the page's own hashing (js/fair.js over @noble/hashes) from chain
// data: the block seeds, the params, the move bytes and transaction hashes.
// The node's answer is only ever compared, never believed.
//
// verifyApp(app, fetchers) → [{name, passed, detail, value}], where
// `passed` is true, false, or null for what the page does not check (said
// in `detail`); fetchers = {block(height) → block JSON, info() → node/info}.
import * as F from './fair.js';
import { h } from './dom.js';
import { zbc } from './words.js';

const SOLO_GAMES = { 28: 'mines', 29: 'tower', 30: 'hilo', 31: 'blackjack' };
const CRASH_TYPE = 36;
const big = (x) => {
  if (typeof x === 'bigint') return x;
  if ((typeof x === 'number' && Number.isInteger(x) && x >= 0) || (typeof x === 'string' && /^\d+$/.test(x))) return BigInt(x);
  throw new Error(`not an amount: ${JSON.stringify(x)}`);
};
const int = (x, what) => {
  if (!Number.isInteger(x)) throw new Error(`${what} is not an integer: ${JSON.stringify(x)}`);
  return x;
};
const hist = (app) => (Array.isArray(app.history) ? app.history : []);
const entry = (app, kind) => hist(app).find((e) => e && e.kind === kind);
const x100 = (v) => `${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')}x`;

// The node's figure in a sentence (a BigInt sum, an absent field, any JSON value).
const show = (v) => (v === undefined ? 'nothing' : typeof v === 'bigint' ? String(v) : JSON.stringify(v));

class Checks {
  constructor() {
    this.list = [];
  }

  // One comparison: recomputed `want` against the node's `got`.
  eq(name, want, got, detail) {
    const passed = String(want) === String(got);
    this.list.push({ name, passed, value: String(want),
      detail: passed ? detail : `${detail}; the node says ${show(got)}, recomputed ${want}` });
    return passed;
  }

  ok(name, passed, detail, value) {
    this.list.push({ name, passed, detail, value: value === undefined ? undefined : String(value) });
    return passed;
  }

  note(name, detail) {
    this.list.push({ name, passed: null, detail });
  }
}

// The 32-byte seed of block h, from its header (its VRF proof is checked by
// the node and zbc-audit, not here: docs/web.md).
async function seedOf(fetchers, h) {
  const b = await fetchers.block(h);
  if (!b || typeof b.seed !== 'string' || !/^[0-9a-f]{64}$/.test(b.seed)) throw new Error(`block ${h} carries no 32-byte seed`);
  return F.hexBytes(b.seed);
}

function paidTo(r, pred) {
  let sum = 0n;
  for (const p of Array.isArray(r && r.payouts) ? r.payouts : []) if (p && pred(p)) sum += big(p.amount);
  return sum;
}

// ---- solo bets (cmd_verify.c verify_bet) ----
async function verifyBet(app, fetchers, c) {
  const bet = F.parseBet(app.type, F.hexBytes(app.params_hex));
  c.ok('params', true, `${bet.game} bet, client seed "${bet.clientSeed}"`);
  const settle = entry(app, 'bet_settle');
  if (!settle) {
    c.note('outcome', 'the bet is not settled yet (it settles in the block after it)');
    return;
  }
  const h = int(app.created, 'created') + 1;
  c.eq('settlement block', h, settle.height, 'the bet settles in block N+1 after its block N');
  const server = F.bytesHex(await seedOf(fetchers, h));
  c.ok('server seed', true, `server seed = hex of seed(${h}) = ${server}`, server);
  const out = F.resolveBet(bet, big(app.stake), server, big(app.id));
  c.eq('float u', out.u, settle.u, `HMAC_SHA256(server_seed, "${bet.clientSeed}:${app.id}:0") first float u = ${out.u}`);
  c.eq('outcome value', out.value, settle.value, out.steps.join('; '));
  c.eq('win', out.win, settle.win, out.win ? 'a win' : 'a loss');
  c.eq('returns', out.returns, settle.amount, `returns ${out.returns} (${zbc(out.returns)}) of a stake of ${zbc(big(app.stake))}`);
  c.eq('bet payout', out.returns, paidTo(app.result, (p) => p.reason === 'bet'), 'paid to the bettor');
}

// ---- crash rounds (cmd_verify.c verify_crash) ----
async function verifyCrash(app, fetchers, c) {
  const p = F.parseCrash(F.hexBytes(app.params_hex));
  const cr = app.crash;
  if (!cr || typeof cr !== 'object') throw new Error('the node gives no crash record');
  const close = int(app.created, 'created') + p.window;
  c.eq('close', close, cr.close, `the round takes entries until created + window = ${close}`);
  if (!Number.isInteger(cr.crash_point)) {
    c.note('crash point', `not settled yet: it settles at block ${close + 1}`);
    return;
  }
  const server = F.bytesHex(await seedOf(fetchers, close + 1));
  c.ok('server seed', true, `server seed = hex of seed(${close + 1}) = ${server}`, server);
  const s = new F.Stream(server, p.clientSeed, big(app.id));
  const point = F.crash(s);
  c.eq('float u', s.used[0], cr.u, `HMAC_SHA256(server_seed, "${p.clientSeed}:${app.id}:0") first float u = ${s.used[0]}`);
  c.eq('crash point', point, cr.crash_point, `floor(99 × 2^32 / (u + 256)) = ${point} (${x100(point)})`);
  const entries = Array.isArray(cr.entries) ? cr.entries : [];
  let n = 0;
  let pot = 0n;
  let paid = 0n;
  for (const h of hist(app)) {
    if (h.kind !== 'app_join') continue;
    const m = F.hexBytes(h.move_hex || '');
    const e = m.length === 0 ? { stake: big(app.stake), target: p.target } : F.parseCrashEntry(m);
    const ret = F.crashReturn(e.stake, e.target);
    const want = e.target <= point ? ret : 0n;
    pot += ret;
    paid += want;
    const ne = entries[n] || {};
    const same = String(ne.stake) === String(e.stake) && ne.target === e.target && String(ne.returns) === String(want) &&
      ne.cashed_out === (e.target <= point);
    c.ok(`entry ${n}`, same, `${zbc(e.stake)} at ${x100(e.target)} → ${want ? 'cashed out' : 'crashed'}, returns ${want} (${zbc(want)})` +
      (same ? '' : `; the node's entry: ${JSON.stringify(ne)}`), want);
    n++;
  }
  c.eq('entries', n, entries.length, `${n} entries in the history`);
  c.eq('paid to entries', paid, paidTo(app.result, (q) => q.reason === 'crash'), 'the sum of the cashed-out returns');
  c.eq('back to the fund', pot - paid, paidTo(app.result, (q) => q.reason === 'escrow'), `the pot of ${pot} less what the entries took`);
}

// ---- games: the first-seat draw and every dice roll ----
async function verifyDraws(app, fetchers, c) {
  const id = big(app.id);
  const act = entry(app, 'app_activate');
  // every engine draws its first seat at J+2 but battleship (its own opening) and the solo games
  const draws = app.game !== 'battleship' && !SOLO_GAMES[app.type];
  if (draws && !act) c.note('first seat', 'not drawn yet (it is drawn two blocks after the last join)');
  if (draws && act) {
    const h = int(app.joined, 'joined') + 2;
    c.eq('first-seat block', h, act.height, 'the first seat is drawn two blocks after the last join (J+2)');
    const seed = await seedOf(fetchers, h);
    const first = F.firstSeat(seed, id, int(app.seats, 'seats'));
    c.eq('first seat', first, act.seat, `LE64(SHA3-256("ZBC-TURN" ‖ seed(${h}) ‖ id)) mod ${app.seats} = ${first}`);
  }
  let rolled = 0;
  for (const e of hist(app)) {
    if (typeof e.rolls_hex !== 'string') continue;
    const start = e.kind === 'app_activate';
    const h = start ? int(app.joined, 'joined') + 2 : int(e.height, 'height');
    const tag = start ? F.le64Bytes(id) : F.hexBytes(e.tx_hash || '');
    const what = start ? 'the start position' : `move #${e.seq}${e.notation ? ' (' + e.notation + ')' : ''}`;
    c.eq(`rolls of ${what}: seed block`, h, e.roll_seed_height,
      start ? 'the start rolls use seed(J+2)' : 'the rolls use the seed of the block that applied the move');
    c.eq(`rolls of ${what}: tag`, F.bytesHex(tag), e.roll_tag, start ? 'the tag is the app id, 8 bytes LE' : 'the tag is the move\'s transaction hash');
    const rec = F.hexBytes(e.rolls_hex);
    const want = F.bytesHex(F.rollBytes(await seedOf(fetchers, h), tag, rec.length));
    c.eq(`rolls of ${what}`, want, e.rolls_hex, `SHA3-256("ZBC-DICE" ‖ seed(${h}) ‖ tag ‖ counter) = ${want}` +
      ` (dice ${F.diceOf(rec).join(' ') || 'none'}; ${e.roll_bytes_used} bytes used)`);
    rolled++;
  }
  return rolled;
}

// ---- payouts of a game (cmd_verify.c verify_payouts, verify_unstarted) ----
function verifyPayouts(app, rakeBps, c) {
  const r = app.result;
  const seats = int(app.seats, 'seats');
  const stake = big(app.stake);
  const pot = stake * BigInt(seats);
  const want = Array(seats).fill(0n);
  const ending = r.outcome || r.ending;
  let rake = 0n;
  if (ending === 'expired' || ending === 'abandoned') {
    if (ending === 'expired') for (let i = 0; i < Math.min(app.seated, seats); i++) want[i] = stake;
    c.ok('winner', r.winner === null, `${ending} before the start: no winner`);
  } else if (ending === 'draw') {
    want.fill(stake);
  } else {
    rake = (pot * BigInt(rakeBps)) / 10000n;
    if (ending === 'win' && Number.isInteger(r.winner) && r.winner < seats) {
      want[r.winner] = pot - rake;
      c.note('winner', `who won is the engine's replay of the moves (zbc verify does it); the page checks the money of the node's win of seat ${r.winner}`);
    } else if (ending === 'resign' || ending === 'timeout') {
      const loser = ending === 'resign' ? r.resigned : r.timed_out;
      if (!Number.isInteger(loser) || loser >= seats) {
        c.ok('loser', false, `the node's ${ending} names no seat that resigned or timed out`);
      } else {
        const out = new Set(Array.isArray(r.out) ? r.out : []);
        let recv = [...Array(seats).keys()].filter((i) => i !== loser && !out.has(i));
        if (recv.length === 0) recv = [...Array(seats).keys()].filter((i) => i !== loser);
        const share = pot - rake;
        const each = share / BigInt(recv.length);
        recv.forEach((s, k) => { want[s] = each + (k === 0 ? share % BigInt(recv.length) : 0n); });
        const one = recv.length === 1 ? recv[0] : null;
        c.eq('winner', one, r.winner, `seat ${loser} ${ending === 'resign' ? 'resigned' : 'timed out'}: ` +
          (one !== null ? `seat ${one} takes the pot` : `seats ${recv.join(', ')} share it`) +
          (out.size ? ` (seats out of play, as the node says: ${[...out].join(', ')})` : ''));
      }
    } else {
      c.ok('ending', false, `the node's ending "${ending}" names no winner the rules know`);
    }
  }
  c.eq('rake', rake, r.rake, `floor(pot ${pot} × ${rakeBps} bps / 10000) = ${rake} (${zbc(rake)})`);
  const listed = Array.isArray(r.paid) ? r.paid : [];
  for (let s = 0; s < seats; s++) {
    c.eq(`seat ${s} paid`, want[s], paidTo(r, (p) => p.seat === s), `seat ${s} receives ${want[s]} (${zbc(want[s])}, ${ending})`);
    const l = listed.find((p) => p && p.seat === s);
    if (l) c.eq(`seat ${s} in the result`, want[s], l.amount, `the result's paid list names ${want[s]} for seat ${s}`);
  }
}

// ---- multi-step solo games (cmd_verify.c replay + verify_solo) ----
// Each game's rules as the engines apply them (apps/games/{mines,tower,hilo}.c,
// docs/games.md): params → {field, client}; start(field) → state; step(state,
// move bytes, stream) → a sentence (or throws: not a legal move); value(state).
const tileName = (t) => 'ABCDE'[t % 5] + (Math.floor(t / 5) + 1);
const RANK_NAMES = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const xv = (v) => `${Math.floor(v / 10000)}.${String(v % 10000).padStart(4, '0')}x`;

const SOLO = {
  mines: {
    fields: 1,
    cashout: 2,
    field: (f) => {
      const m = f ?? 3;
      if (m < 1 || m > 24) throw new Error(`mines takes 1 to 24 mines, not ${m}`);
      return m;
    },
    max: (m) => F.minesMultiplier(m, 25 - m),
    start: (m) => ({ m, revealed: [], status: 'playing', hit: null, minesAt: null }),
    step(g, mv, s) {
      if (mv.length !== 2 || mv[0] !== 1 || mv[1] > 24 || g.revealed.includes(mv[1])) throw new Error('not a legal reveal');
      const hidden = [...Array(25).keys()].filter((t) => !g.revealed.includes(t));
      const drawn = F.mines(s, hidden.length, g.m).map((k) => hidden[k]);
      if (drawn.includes(mv[1])) {
        Object.assign(g, { status: 'bust', hit: mv[1], minesAt: drawn.slice().sort((a, b) => a - b) });
      } else {
        g.revealed.push(mv[1]);
        if (g.revealed.length === 25 - g.m) g.status = 'cleared';
      }
      return `reveal ${tileName(mv[1])}: ${hidden.length} hidden tiles, ${g.m} mines drawn at ` +
        `${drawn.map(tileName).join(' ')}: ${drawn.includes(mv[1]) ? 'a mine' : 'safe'}`;
    },
    progress: (g) => g.revealed.length,
    value: (g) => (g.status === 'bust' ? 0 : g.revealed.length === 0 ? 10000 : F.minesMultiplier(g.m, g.revealed.length)),
    view: (g, v) => {
      const sorted = (a) => (Array.isArray(a) ? a.slice().sort((x, y) => x - y) : a ?? null);
      return [['revealed tiles', sorted(g.revealed), sorted(v.revealed)], ['mine hit', g.hit, v.hit ?? null],
        ['losing draw', g.minesAt, sorted(v.mines_at)]];
    },
  },
  tower: {
    fields: 1,
    cashout: 2,
    field: (f) => {
      const d = f ?? 0;
      if (!F.TOWER[d]) throw new Error(`tower difficulty ${d} is unknown (0 easy … 4 master)`);
      return d;
    },
    max: (d) => F.towerMultiplier(d, 9),
    start: (d) => ({ d, picks: [], status: 'playing', hit: null, safe: null }),
    step(g, mv, s) {
      const cols = F.TOWER[g.d][1];
      if (mv.length !== 2 || mv[0] !== 1 || mv[1] >= cols) throw new Error('not a legal climb');
      const safe = F.tower(s, g.d)[g.picks.length];
      const row = g.picks.length + 1;
      if (safe.includes(mv[1])) {
        g.picks.push(mv[1]);
        if (g.picks.length === 9) g.status = 'cleared';
      } else {
        Object.assign(g, { status: 'bust', hit: mv[1], safe: safe.slice().sort((a, b) => a - b) });
      }
      return `climb ${mv[1] + 1} on row ${row}: safe columns ${safe.map((c) => c + 1).join(' ')}: ${safe.includes(mv[1]) ? 'safe' : 'bust'}`;
    },
    progress: (g) => g.picks.length,
    value: (g) => (g.status === 'bust' ? 0 : g.picks.length === 0 ? 10000 : F.towerMultiplier(g.d, g.picks.length)),
    view: (g, v) => [['climbed columns', g.picks, v.picks], ['losing pick', g.hit, v.hit ?? null],
      ['safe columns of the losing row', g.safe, Array.isArray(v.safe_columns) ? v.safe_columns.slice().sort((a, b) => a - b) : null]],
  },
  hilo: {
    fields: 0,
    cashout: 5,
    field: () => 0,
    max: () => 10000000,
    start: () => ({ cards: [], value: 10000, status: 'no card', won: 0 }),
    step(g, mv, s) {
      const how = mv.length === 1 ? mv[0] : 0;
      if (how < 1 || how > 4 || (how === 1) !== (g.cards.length === 0) || g.cards.length >= 52) throw new Error('not a legal draw');
      const card = F.cards(s, g.cards.length, 1)[0];
      const word = ['', 'deal', 'higher', 'lower', 'skip'][how];
      let said = `${word}: card ${g.cards.length} = floor(f × 52) = ${F.cardName(card, F.SUITS.hilo)}`;
      if (how === 2 || how === 3) {
        const from = Math.floor(g.cards[g.cards.length - 1] / 4);
        const to = Math.floor(card / 4);
        if (how === 2 ? to > from : to < from) {
          const w = how === 2 ? 12 - from : from;
          g.value = Math.min(10000000, Math.floor((g.value * F.hiloMultiplier(w, 13)) / 10000));
          g.won++;
          said += `: won (${w} of 13 ranks ${word} than ${RANK_NAMES[from]}), value ${xv(g.value)}`;
        } else {
          g.status = 'bust';
          g.value = 0;
          said += ': lost';
        }
      }
      g.cards.push(card);
      if (how === 1) g.status = 'playing';
      if (g.status === 'playing' && (g.value === 10000000 || g.cards.length === 52)) g.status = 'ended';
      return said;
    },
    progress: (g) => g.won,
    value: (g) => (g.status === 'bust' ? 0 : g.value),
    view: (g, v) => [['cards', g.cards, Array.isArray(v.cards) ? v.cards.map((x) => x && x.index) : null],
      ['guesses won', g.won, v.won]],
  },
  blackjack: {
    fields: 0,
    cashout: null,
    field: () => 0,
    max: () => 80000,
    start: () => ({ status: 'waiting', hands: [], cur: 0, dealer: [], n: 0, value: 0, natural: false, dealerNatural: false }),
    step(g, mv, s) {
      const m = mv.length === 1 ? mv[0] : 0;
      const draw = () => F.cards(s, g.n++, 1)[0];
      const h = g.hands[g.cur];
      if ((m === 1) !== (g.status === 'waiting') || m < 1 || m > 5 || g.status === 'over' ||
          (m === 4 && h.cards.length !== 2) ||
          (m === 5 && (g.hands.length !== 1 || h.cards.length !== 2 || bjRank(h.cards[0]) !== bjRank(h.cards[1])))) {
        throw new Error('not a legal blackjack move here');
      }
      const word = ['', 'deal', 'hit', 'stand', 'double', 'split'][m];
      const first = g.n;
      if (m === 1) {
        g.status = 'playing';
        const hand = { cards: [draw()], bet: 1, done: false };
        g.hands.push(hand);
        g.dealer.push(draw());
        hand.cards.push(draw());
        if (bjTotal(hand.cards) === 21) {
          g.natural = true;
          g.status = 'over';
          g.dealer.push(draw());
          g.dealerNatural = bjTotal(g.dealer) === 21;
          g.value = g.dealerNatural ? 10000 : 24294;
        }
      } else if (m === 2) {
        h.cards.push(draw());
        if (bjTotal(h.cards) >= 21) h.done = true;
        bjNext(g, draw);
      } else if (m === 3) {
        h.done = true;
        bjNext(g, draw);
      } else if (m === 4) {
        h.bet = 2;
        h.cards.push(draw());
        h.done = true;
        bjNext(g, draw);
      } else {
        const aces = bjRank(h.cards[0]) === 12;
        const h2 = { cards: [h.cards.pop()], bet: 1, done: false };
        g.hands.push(h2);
        h.cards.push(draw());
        h2.cards.push(draw());
        h.done = h2.done = aces;
        for (const x of [h, h2]) if (bjTotal(x.cards) >= 21) x.done = true;
        bjNext(g, draw);
      }
      const drawn = [];
      for (let k = first; k < g.n; k++) drawn.push(F.cardName(F.floorN(s.used[k], 52), F.SUITS.blackjack));
      return `${word}: cards ${first}–${g.n - 1} = ${drawn.join(' ') || 'none'}` +
        (g.status === 'over' ? `; dealer ${g.dealer.map((c) => F.cardName(c, F.SUITS.blackjack)).join(' ')}, returns ${xv(g.value)}` : '');
    },
    progress: (g) => (g.status === 'waiting' ? 0 : 1),
    value: (g) => (g.status === 'waiting' ? 10000 : g.status === 'over' ? g.value : 0),
    view: (g, v) => {
      const names = (cs) => cs.map((c) => F.cardName(c, F.SUITS.blackjack));
      return [['hands', g.hands.map((x) => ({ cards: names(x.cards), bet: x.bet })),
        Array.isArray(v.hands) ? v.hands.map((x) => ({ cards: x && x.cards, bet: x && x.bet })) : null],
      ['dealer', names(g.dealer), v.dealer && v.dealer.cards]];
    },
  },
};

// For tests/integration/test_web_verify.py: the rules replayed against the C engine.
export const SOLO_RULES = SOLO;

// Blackjack (apps/games/blackjack.c): ranks 0 = "2" … 12 = A; the best total.
const bjRank = (c) => Math.floor(c / 4);
function bjTotal(cards) {
  let t = 0;
  let aces = 0;
  for (const c of cards) {
    const r = bjRank(c);
    t += r === 12 ? 1 : r >= 8 ? 10 : r + 2;
    aces += r === 12;
  }
  return aces > 0 && t + 10 <= 21 ? t + 10 : t;
}

// The next hand to play, or the dealer's hole card and draws and the returns.
function bjNext(g, draw) {
  while (g.cur < g.hands.length && g.hands[g.cur].done) g.cur++;
  if (g.cur < g.hands.length) return;
  g.status = 'over';
  g.value = 0;
  if (!g.hands.some((x) => bjTotal(x.cards) <= 21)) return;
  g.dealer.push(draw());
  if (bjTotal(g.dealer) === 21) {
    g.dealerNatural = true; // takes every stake of the round
    return;
  }
  while (bjTotal(g.dealer) < 17) g.dealer.push(draw());
  const d = bjTotal(g.dealer);
  for (const x of g.hands) {
    const p = bjTotal(x.cards);
    if (p <= 21 && (d > 21 || p > d)) g.value += 2 * x.bet * 10000;
    else if (p <= 21 && p === d) g.value += x.bet * 10000;
  }
}

async function verifySolo(app, fetchers, c, rules) {
  const p = F.hexBytes(app.params_hex);
  if (p.length !== 0 && p.length < rules.fields) throw new Error(`params of ${p.length} bytes`);
  const field = rules.field(p.length === 0 || rules.fields === 0 ? undefined : p[0]);
  const client = p.length <= rules.fields ? '' : F.clientSeed(p, rules.fields, app.game);
  const stake = big(app.stake);
  const max = rules.max(field);
  const escrow = (stake * BigInt(max)) / 10000n - stake;
  const esc = entry(app, 'app_escrow');
  c.eq('escrow', escrow, esc ? esc.amount : undefined, `floor(${stake} × ${max} / 10000) − stake from the apps fund`);
  const g = rules.start(field);
  let over = false;
  for (const e of hist(app)) {
    if (e.kind !== 'app_move') continue;
    const mv = F.hexBytes(e.move_hex || '');
    if (over) {
      c.ok(`move #${e.seq}`, false, 'a move after the end of the game');
      break;
    }
    if (mv.length === 1 && mv[0] === rules.cashout) {
      over = true;
      c.ok(`move #${e.seq}: cash out`, rules.progress(g) > 0, `cash out at ${xv(rules.value(g))}` +
        (rules.progress(g) > 0 ? '' : ': nothing to cash out yet'));
      continue;
    }
    const server = F.bytesHex(await seedOf(fetchers, int(e.height, 'height')));
    try {
      const said = rules.step(g, mv, new F.Stream(server, client, big(app.id)));
      c.ok(`move #${e.seq}`, true, `seed(${e.height}): ${said}`);
    } catch (x) {
      c.ok(`move #${e.seq}`, false, `move ${e.move_hex}: ${x.message}`);
      break;
    }
    over = g.status !== 'playing';
  }
  const v = app.view && typeof app.view === 'object' ? app.view : {};
  for (const [name, mine, node] of rules.view(g, v)) {
    c.ok(name, JSON.stringify(mine) === JSON.stringify(node), `${JSON.stringify(mine)}; the node's view: ${show(node)}`);
  }
  const value = rules.value(g);
  c.eq('value', xv(value).slice(0, -1), v.multiplier, `the game's value ${xv(value)}`);
  const r = app.result;
  if (!r) {
    c.ok('game goes on', !over, `cash-out value ${xv(value)}`);
    return;
  }
  const ret = (stake * BigInt(value)) / 10000n;
  c.eq('outcome', ret > 0n ? 'cashout' : 'bust', r.outcome, `settled at ${xv(value)}`);
  c.eq('rake', 0, r.rake, 'a solo game takes no rake');
  c.eq('winner', ret > stake ? 0 : null, r.winner, ret > stake ? 'a return above the stake: seat 0 won' : 'no profit: no winner');
  c.eq('seat 0 paid', ret, paidTo(r, (q) => q.seat === 0), `floor(${stake} × ${value} / 10000) = ${ret} (${zbc(ret)}) to the player, the rest to the apps fund`);
}

export async function verifyApp(app, fetchers) {
  const c = new Checks();
  try {
    if (!app || typeof app !== 'object') throw new Error('the node gave no app');
    const type = int(app.type, 'type');
    if (F.BET_TYPES[type]) {
      await verifyBet(app, fetchers, c);
    } else if (type === CRASH_TYPE) {
      await verifyCrash(app, fetchers, c);
    } else {
      const r = app.result && typeof app.result === 'object' ? app.result : null;
      const unstarted = r && (r.outcome === 'expired' || r.outcome === 'abandoned');
      if (!unstarted) await verifyDraws(app, fetchers, c);
      if (SOLO[SOLO_GAMES[type]]) {
        await verifySolo(app, fetchers, c, SOLO[SOLO_GAMES[type]]);
      } else if (SOLO_GAMES[type]) {
        c.note(`${SOLO_GAMES[type]} steps`, `the page does not replay ${SOLO_GAMES[type]}'s draws yet; zbc verify does`);
      } else {
        if (!unstarted) c.note('moves', 'the page does not replay the moves through the engine (zbc verify does): the final state and who won are the node\'s');
        if (r) verifyPayouts(app, int((await fetchers.info()).rake_bps, 'rake_bps'), c);
        else c.note('payouts', 'the game is still running: no payouts yet');
      }
    }
  } catch (e) {
    c.ok('the node\'s answer', false, `cannot verify: ${e.message}`);
  }
  return c.list;
}

// "N of M checks passed" over the checks made (notes excluded).
export function summary(checks) {
  const made = checks.filter((x) => x.passed !== null);
  return { passed: made.filter((x) => x.passed).length, total: made.length };
}

// The app page's "Verify" section (explorer.js app()): a button that runs
// verifyApp on the app as shown and lists every check, passed or failed.
// The page re-renders the app on each of its events; the last result is
// shown again while the app is unchanged (same history, same status).
let last = null; // {key, checks}: the last result
let shown = null; // {key, out}: the panel on the page now

function listChecks(out, checks) {
  const { passed, total } = summary(checks);
  const ok = passed === total && total > 0;
  out.replaceChildren(
    h('p', { class: ok ? 'ok' : 'bad', 'data-field': 'verify-summary' }, `${passed} of ${total} checks passed`),
    h('ul', { class: 'checks' }, checks.map((x) => h('li', {
      class: x.passed === null ? 'muted' : x.passed ? 'ok' : 'bad',
      'data-check': x.name, 'data-passed': x.passed === null ? 'skipped' : String(x.passed), 'data-value': x.value,
    }, h('b', {}, x.passed === null ? 'not checked' : x.passed ? 'passed' : 'FAILED'), ` ${x.name}: ${x.detail}`))));
}

export function verifyPanel(app, fetchers) {
  const key = `${app.id}:${app.status}:${app.history_total ?? hist(app).length}:${JSON.stringify(app.result)}`;
  const out = h('div', { class: 'verify', 'data-verify': 'result' });
  shown = { key, out };
  if (last && last.key === key) listChecks(out, last.checks);
  const btn = h('button', {
    id: 'app-verify',
    onclick: async () => {
      btn.disabled = true;
      out.replaceChildren(h('p', { class: 'muted' }, 'recomputing…'));
      const checks = await verifyApp(app, fetchers);
      last = { key, checks };
      // an event may have redrawn the page meanwhile: show it in the panel there now
      listChecks(shown && shown.key === key ? shown.out : out, checks);
      btn.disabled = false;
    },
  }, 'Verify');
  return [
    h('h2', {}, 'Verification'),
    h('p', { class: 'muted' }, 'Recomputed in this page from the block seeds, the params and the moves, with the ',
      'page\'s own hashing: the node\'s answer is only compared. The block seeds are taken from the headers; their ',
      'VRF proofs are checked by the node and zbc-audit, not by the page.'),
    h('p', {}, btn), out,
  ];
}
