// The provably-fair rules, ported for verification in the page (docs/web.md
// "Verification in the page"): the float stream and event functions of the
// catalogue (docs/games.md "Provably-fair catalogue", apps/fair_events.c),
// the payout tables (apps/fair_pay.c, derived by tests/tools/fair_tables.py),
// the solo bets' outcomes (apps/fair.c), crash (apps/crash.c), the
// first-seat draw (apps/app.c) and the dice roll stream (apps/roll.c).
// Exact integers throughout: u32 products stay below 2^53, money is BigInt.
import { sha3_256 } from '../node_modules/@noble/hashes/sha3.js';
import { sha256 } from '../node_modules/@noble/hashes/sha2.js';
import { hmac } from '../node_modules/@noble/hashes/hmac.js';

const TWO32 = 4294967296;
const ONE = 10000n; // ten-thousandths: ZBC_FAIR_ONE
const ascii = (s) => new TextEncoder().encode(s);

export function hexBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`not hex: ${String(hex).slice(0, 40)}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesHex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

// ---- the float stream (docs/games.md "Solo bets", "Event functions") ----

// One HMAC block: HMAC_SHA256(key = server_seed, msg = client ":" nonce ":" round).
export function fairBlock(server, client, nonce, round) {
  return hmac(sha256, ascii(server), ascii(`${client}:${BigInt(nonce)}:${round}`));
}

// Float k = bytes 4(k mod 8)..+3 of block floor(k / 8), big-endian, as u32.
// `used[k]` keeps every float read (the steps a verifier prints).
export class Stream {
  constructor(server, client, nonce) {
    this.server = server;
    this.client = client;
    this.nonce = BigInt(nonce);
    this.round = -1;
    this.block = null;
    this.used = [];
  }

  u(k) {
    const round = Math.floor(k / 8);
    if (round !== this.round) {
      this.block = fairBlock(this.server, this.client, this.nonce, round);
      this.round = round;
    }
    const o = 4 * (k % 8);
    const b = this.block;
    const v = ((b[o] << 24) >>> 0) + (b[o + 1] << 16) + (b[o + 2] << 8) + b[o + 3];
    this.used[k] = v;
    return v;
  }
}

export const floorN = (u, n) => Math.floor((u * n) / TWO32);
export const ceilN = (u, n) => Math.floor((u * n + TWO32 - 1) / TWO32);

// Each value pushed past the squares already drawn (apps/fair_events.c push_past).
function pushPast(values) {
  const drawn = [];
  for (const v of values) {
    let x = v;
    for (let j = 0; j <= x; j++) if (drawn.includes(j)) x++;
    drawn.push(x);
  }
  return drawn;
}

export function plinko(s, rows) {
  if (!(rows >= 8 && rows <= 16)) throw new Error(`plinko: ${rows} rows, must be 8-16`);
  const path = [];
  for (let i = 0; i < rows; i++) path.push(floorN(s.u(i), 2));
  return { path, slot: path.reduce((a, b) => a + b, 0) };
}

export function keno(s) {
  const v = [];
  for (let i = 0; i < 10; i++) v.push(ceilN(s.u(i), 40 - i));
  return pushPast(v);
}

export function mines(s, tiles, count) {
  if (!(tiles >= 1 && tiles <= 25) || !(count >= 1 && count <= tiles)) {
    throw new Error(`mines: ${count} mines on ${tiles} tiles`);
  }
  const v = [];
  for (let i = 0; i < count; i++) v.push(floorN(s.u(i), tiles - i));
  return pushPast(v);
}

export const TOWER = [['easy', 4, 3], ['medium', 3, 2], ['hard', 2, 1], ['expert', 3, 1], ['master', 4, 1]];

export function tower(s, difficulty) {
  const shape = TOWER[difficulty];
  if (!shape) throw new Error(`tower: unknown difficulty ${difficulty}`);
  const [, cols, safe] = shape;
  const rows = [];
  for (let r = 0; r < 9; r++) {
    const values = [...Array(cols).keys()];
    const taken = [];
    for (let j = 0; j < safe; j++) taken.push(values.splice(floorN(s.u(r * safe + j), cols - j), 1)[0]);
    rows.push(taken);
  }
  return rows;
}

export const wheel = (s, segments) => floorN(s.u(0), segments);

export function cards(s, first, count) {
  const out = [];
  for (let k = first; k < first + count; k++) out.push(floorN(s.u(k), 52));
  return out;
}

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
export const SUITS = { blackjack: '♦♥♠♣', hilo: '♦♥♠♣', baccarat: '♠♥♦♣', blitz: '♠♥♣♦' };
export const cardName = (c, suits) => (c >= 0 && c < 52 ? RANKS[Math.floor(c / 4)] + suits[c % 4] : '?');

export function baccaratValue(c) {
  const rank = Math.floor(c / 4);
  return rank === 12 ? 1 : rank >= 8 ? 0 : rank + 2;
}

function bankerDraws(b, t) {
  return b <= 2 || (b === 3 && t !== 8) || (b === 4 && t >= 2 && t <= 7) ||
    (b === 5 && t >= 4 && t <= 7) || (b === 6 && (t === 6 || t === 7));
}

export function baccarat(s) {
  const c = cards(s, 0, 4);
  const player = [c[0], c[2]];
  const banker = [c[1], c[3]];
  const total = (hand) => hand.reduce((a, x) => a + baccaratValue(x), 0) % 10;
  const p = total(player);
  const b = total(banker);
  if (p < 8 && b < 8) {
    let draw;
    if (p <= 5) {
      player.push(cards(s, 4, 1)[0]);
      draw = bankerDraws(b, baccaratValue(player[2]));
    } else {
      draw = b <= 5;
    }
    if (draw) banker.push(cards(s, player.length === 3 ? 5 : 4, 1)[0]);
  }
  const pt = total(player);
  const bt = total(banker);
  return { player, banker, playerTotal: pt, bankerTotal: bt, winner: pt > bt ? 0 : bt > pt ? 1 : 2 };
}

export function blitz(s, k) {
  if (!(k >= 2 && k <= 16)) throw new Error(`blitz: ${k} cards, must be 2-16`);
  const c = cards(s, 0, k);
  return { cards: c, allDiffer: new Set(c).size === k, different: new Set(c).size };
}

// Crash point in hundredths: floor(99 × 2^32 / (u_0 + 256)).
export const crashOf = (u) => Number((99n << 32n) / (BigInt(u) + 256n));
export const crash = (s) => crashOf(s.u(0));

// ---- payout tables (apps/fair_pay.c; generated by tests/tools/fair_tables.py) ----

const PLINKO = [
  [
    [29400, 19700, 13300, 8900, 5982, 8900, 13300, 19700, 29400],
    [34000, 22900, 15400, 10300, 6942, 6942, 10300, 15400, 22900, 34000],
    [40700, 27400, 18400, 12400, 8300, 5516, 8300, 12400, 18400, 27400, 40700],
    [47400, 31900, 21400, 14400, 9700, 6461, 6461, 9700, 14400, 21400, 31900, 47400],
    [56700, 38100, 25600, 17200, 11600, 7800, 5125, 7800, 11600, 17200, 25600, 38100, 56700],
    [66300, 44600, 29900, 20100, 13500, 9100, 6095, 6095, 9100, 13500, 20100, 29900, 44600, 66300],
    [79300, 53300, 35800, 24100, 16200, 10900, 7300, 4828, 7300, 10900, 16200, 24100, 35800, 53300, 79300],
    [93000, 62500, 42000, 28200, 19000, 12700, 8600, 5720, 5720, 8600, 12700, 19000, 28200, 42000, 62500, 93000],
    [111300, 74800, 50200, 33700, 22700, 15200, 10200, 6900, 4642, 6900, 10200, 15200, 22700, 33700, 50200, 74800, 111300],
  ],
  [
    [48300, 26500, 14500, 8000, 4368, 8000, 14500, 26500, 48300],
    [60200, 33100, 18100, 10000, 5434, 5434, 10000, 18100, 33100, 60200],
    [77800, 42700, 23400, 12900, 7100, 3746, 7100, 12900, 23400, 42700, 77800],
    [97700, 53600, 29400, 16100, 8900, 4848, 4848, 8900, 16100, 29400, 53600, 97700],
    [126200, 69200, 38000, 20800, 11400, 6300, 3467, 6300, 11400, 20800, 38000, 69200, 126200],
    [159300, 87400, 48000, 26300, 14400, 7900, 4385, 4385, 7900, 14400, 26300, 48000, 87400, 159300],
    [205800, 112900, 61900, 34000, 18700, 10200, 5600, 3117, 5600, 10200, 18700, 34000, 61900, 112900, 205800],
    [260800, 143100, 78500, 43100, 23600, 13000, 7100, 3908, 3908, 7100, 13000, 23600, 43100, 78500, 143100, 260800],
    [336800, 184800, 101400, 55600, 30500, 16700, 9200, 5000, 2871, 5000, 9200, 16700, 30500, 55600, 101400, 184800, 336800],
  ],
  [
    [77400, 34400, 15300, 6800, 3011, 6800, 15300, 34400, 77400],
    [103900, 46200, 20500, 9100, 4065, 4065, 9100, 20500, 46200, 103900],
    [143800, 63900, 28400, 12600, 5600, 2539, 5600, 12600, 28400, 63900, 143800],
    [194500, 86400, 38400, 17100, 7600, 3357, 3357, 7600, 17100, 38400, 86400, 194500],
    [269300, 119700, 53200, 23600, 10500, 4700, 2048, 4700, 10500, 23600, 53200, 119700, 269300],
    [366200, 162800, 72300, 32100, 14300, 6400, 2789, 2789, 6400, 14300, 32100, 72300, 162800, 366200],
    [507000, 225300, 100200, 44500, 19800, 8800, 3900, 1733, 3900, 8800, 19800, 44500, 100200, 225300, 507000],
    [692300, 307700, 136700, 60800, 27000, 12000, 5300, 2402, 2402, 5300, 12000, 27000, 60800, 136700, 307700, 692300],
    [958500, 426000, 189300, 84100, 37400, 16600, 7400, 3300, 1434, 3300, 7400, 16600, 37400, 84100, 189300, 426000, 958500],
  ],
];
const KENO = [
  [
    [0, 39600],
    [0, 16080, 64400],
    [0, 0, 53448, 213800],
    [0, 0, 24240, 96900, 387700],
    [0, 0, 0, 79995, 320000, 1279900],
    [0, 0, 0, 38500, 154000, 616000, 2464000],
    [0, 0, 0, 0, 131879, 527500, 2110000, 8440200],
    [0, 0, 0, 0, 65931, 263800, 1055000, 4220100, 10000000],
    [0, 0, 0, 0, 0, 241530, 966100, 3864500, 10000000, 10000000],
    [0, 0, 0, 0, 0, 123403, 493600, 1974400, 7897700, 10000000, 10000000],
  ],
  [
    [0, 39600],
    [0, 0, 171600],
    [0, 0, 38355, 383600],
    [0, 0, 0, 158730, 1587300],
    [0, 0, 0, 0, 738580, 7385800],
    [0, 0, 0, 0, 202182, 2021800, 20218100],
    [0, 0, 0, 0, 0, 999733, 9997400, 99973600],
    [0, 0, 0, 0, 0, 0, 5943120, 59431200, 100000000],
    [0, 0, 0, 0, 0, 0, 1870397, 18703900, 100000000, 100000000],
    [0, 0, 0, 0, 0, 0, 0, 13144990, 100000000, 100000000, 100000000],
  ],
];
const BACCARAT = [20051, 19513, 103745];

export function plinkoMultiplier(rows, risk, slot) {
  const t = (PLINKO[risk] || [])[rows - 8];
  return t && slot >= 0 && slot <= rows ? t[slot] : 0;
}

export function kenoMultiplier(risk, picks, hits) {
  const t = (KENO[risk] || [])[picks - 1];
  return t && hits >= 0 && hits <= picks ? t[hits] : 0;
}

export const wheelSegmentsOk = (n) => n >= 10 && n <= 50 && n % 10 === 0;

export function wheelMultiplier(segments, risk, segment) {
  if (!wheelSegmentsOk(segments) || segment < 0 || segment >= segments) return 0;
  const p = segment % 10;
  const b = segments / 10;
  const last = segment === segments - 1;
  if (risk === 0) return p === 0 ? 15000 : p === 4 || p === 9 ? 0 : 12000;
  if (risk === 1) {
    if (last) return 9000 * b + 20000;
    return p % 2 === 0 ? 0 : p === 1 || p === 5 ? 15000 : 20000;
  }
  if (risk === 2) return last ? 9900 * segments : 0;
  return 0;
}

export const baccaratMultiplier = (side) => BACCARAT[side] || 0;

export function blitzMultiplier(k) {
  if (!(k >= 2 && k <= 16)) return 0;
  let num = 9900n;
  let den = 1n;
  for (let i = 0; i < k; i++) {
    num *= 52n;
    den *= BigInt(52 - i);
  }
  return Number(num / den);
}

function binom(n, k) {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

export function minesMultiplier(m, k) {
  if (m < 1 || m > 24 || k < 1 || k > 25 - m) return 0;
  return Number((9900n * binom(25, k)) / binom(25 - m, k));
}

export function towerMultiplier(difficulty, rows) {
  const shape = TOWER[difficulty];
  if (!shape || rows < 1 || rows > 9) return 0;
  let num = 9900n;
  let den = 1n;
  for (let r = 0; r < rows; r++) {
    num *= BigInt(shape[1]);
    den *= BigInt(shape[2]);
  }
  return Number(num / den);
}

export const hiloMultiplier = (winning, of) => (winning >= 1 && winning <= of ? Math.floor((9900 * of) / winning) : 0);

// ---- solo bets (apps/fair.c; docs/games.md "Solo bets") ----

export const BET_TYPES = { 16: 'dice', 17: 'coin', 18: 'roulette', 22: 'limbo', 23: 'plinko', 24: 'keno',
  25: 'wheel', 26: 'baccarat', 27: 'blitz' };
export const ROULETTE_KINDS = ['straight', 'red', 'black', 'odd', 'even', 'low', 'high', 'dozen', 'column'];
const RED = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];

const le16 = (p, o) => p[o] | (p[o + 1] << 8);
const le32 = (p, o) => (p[o] | (p[o + 1] << 8) | (p[o + 2] << 16)) + p[o + 3] * 16777216;
export function le64(p, o) {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(p[o + i]);
  return v;
}

// client_seed_len u8 ‖ client_seed (printable ASCII, ≤ 64), the rest of the params.
export function clientSeed(p, o, what) {
  if (p.length < o + 1) throw new Error(`${what} params: missing client seed length`);
  const n = p[o];
  if (n > 64) throw new Error(`${what} params: client seed is ${n} bytes, at most 64 allowed`);
  if (p.length - o - 1 !== n) throw new Error(`${what} params: client seed length says ${n} bytes but ${p.length - o - 1} follow`);
  let s = '';
  for (let i = 0; i < n; i++) {
    const c = p[o + 1 + i];
    if (c < 0x20 || c > 0x7e) throw new Error(`${what} params: client seed must be printable ASCII`);
    s += String.fromCharCode(c);
  }
  return s;
}

// A solo bet's CreateApp params (zbc_bet_parse); throws naming what is wrong.
export function parseBet(type, p) {
  const game = BET_TYPES[type];
  if (!game) throw new Error(`app type ${type} is not a solo bet`);
  const need = (n, what) => {
    if (p.length < n) throw new Error(`${game} params: need ${what}`);
  };
  const bet = { game, type };
  let o;
  switch (game) {
    case 'dice':
      need(3, 'direction u8 and target u16');
      bet.direction = p[0];
      bet.target = le16(p, 1);
      if (bet.direction > 1 || bet.target < 1 || bet.target > 9999) throw new Error('dice params out of range');
      o = 3;
      break;
    case 'coin':
      need(1, 'side u8');
      bet.side = p[0];
      if (bet.side > 1) throw new Error('coin flip params: side must be 0 or 1');
      o = 1;
      break;
    case 'roulette':
      need(2, 'kind u8 and number u8');
      bet.kind = p[0];
      bet.number = p[1];
      if (bet.kind > 8) throw new Error(`roulette params: unknown bet kind ${bet.kind}`);
      if (bet.kind === 0 ? bet.number > 36 : bet.kind >= 7 ? bet.number < 1 || bet.number > 3 : bet.number !== 0) {
        throw new Error(`roulette params: number ${bet.number} does not fit bet kind ${ROULETTE_KINDS[bet.kind]}`);
      }
      o = 2;
      break;
    case 'limbo':
      need(4, 'target u32');
      bet.target = le32(p, 0);
      if (bet.target < 101) throw new Error('limbo params: target below 1.01x');
      o = 4;
      break;
    case 'plinko':
    case 'wheel':
      need(2, game === 'plinko' ? 'rows u8 and risk u8' : 'segments u8 and risk u8');
      if (game === 'plinko') bet.rows = p[0];
      else bet.segments = p[0];
      bet.risk = p[1];
      if (game === 'plinko' && (bet.rows < 8 || bet.rows > 16 || bet.risk > 2)) throw new Error('plinko params out of range');
      if (game === 'wheel' && (!wheelSegmentsOk(bet.segments) || bet.risk > 2)) throw new Error('wheel params out of range');
      o = 2;
      break;
    case 'keno':
      need(2, 'risk u8 and picks count u8');
      bet.risk = p[0];
      need(2 + p[1], `${p[1]} picks`);
      bet.picks = Array.from(p.slice(2, 2 + p[1]));
      if (bet.risk > 1 || bet.picks.length < 1 || bet.picks.length > 10 ||
          bet.picks.some((q, i) => q < 1 || q > 40 || (i > 0 && q <= bet.picks[i - 1]))) {
        throw new Error('keno params out of range');
      }
      o = 2 + bet.picks.length;
      break;
    case 'baccarat':
      need(1, 'side u8');
      bet.side = p[0];
      if (bet.side > 2) throw new Error('baccarat params: side must be 0, 1 or 2');
      o = 1;
      break;
    case 'blitz':
      need(1, 'cards u8');
      bet.cards = p[0];
      if (bet.cards < 2 || bet.cards > 16) throw new Error('blitz params: cards must be 2-16');
      o = 1;
      break;
    default:
      break;
  }
  bet.clientSeed = clientSeed(p, o, game);
  return bet;
}

const mulDiv = (stake, num, den) => (BigInt(stake) * BigInt(num)) / BigInt(den);

function rouletteWins(kind, number, pocket) {
  const p = pocket;
  switch (kind) {
    case 0: return p === number;
    case 1: return p !== 0 && RED.includes(p);
    case 2: return p !== 0 && !RED.includes(p);
    case 3: return p !== 0 && p % 2 === 1;
    case 4: return p !== 0 && p % 2 === 0;
    case 5: return p >= 1 && p <= 18;
    case 6: return p >= 19 && p <= 36;
    case 7: return p !== 0 && Math.floor((p - 1) / 12) + 1 === number;
    case 8: return p !== 0 && ((p - 1) % 3) + 1 === number;
    default: return false;
  }
}

// The outcome of a bet (zbc_bet_resolve): {u, value, win, returns (BigInt),
// multiplier, steps: [text…], event}.  `value` is the node's bet_settle value.
export function resolveBet(bet, stake, server, nonce) {
  const s = new Stream(server, bet.clientSeed, nonce);
  const u = s.u(0);
  const st = BigInt(stake);
  const out = { u, value: 0, win: false, returns: 0n, multiplier: 0, steps: [] };
  const catalogue = (m) => {
    out.multiplier = m;
    out.returns = mulDiv(st, m, ONE);
    out.win = out.returns > st;
    out.steps.push(`multiplier ${(m / 10000).toFixed(4)}: returns floor(stake × ${m} / 10000) = ${out.returns}`);
  };
  switch (bet.game) {
    case 'dice': {
      out.value = floorN(u, 10001);
      out.win = bet.direction === 0 ? out.value < bet.target : out.value > bet.target;
      const winning = bet.direction === 0 ? bet.target : 10000 - bet.target;
      if (out.win) out.returns = mulDiv(st, 99 * 10001, 100 * winning);
      out.steps.push(`roll floor(u × 10001 / 2^32) = ${out.value} (${(out.value / 100).toFixed(2)}), ` +
        `${bet.direction === 0 ? 'under' : 'over'} ${(bet.target / 100).toFixed(2)}: ${out.win ? 'win' : 'loss'}`);
      break;
    }
    case 'coin':
      out.value = u < 2147483648 ? 0 : 1;
      out.win = out.value === bet.side;
      if (out.win) out.returns = mulDiv(st, 198, 100);
      out.steps.push(`u ${u < 2147483648 ? '<' : '≥'} 2^31: ${out.value ? 'tails' : 'heads'}`);
      break;
    case 'roulette': {
      out.value = floorN(u, 37);
      out.win = rouletteWins(bet.kind, bet.number, out.value);
      const mult = bet.kind === 0 ? 36 : bet.kind >= 7 ? 3 : 2;
      if (out.win) out.returns = st * BigInt(mult);
      out.steps.push(`pocket floor(u × 37 / 2^32) = ${out.value}: ${ROULETTE_KINDS[bet.kind]}${
        bet.kind === 0 || bet.kind >= 7 ? ' ' + bet.number : ''} ${out.win ? 'wins' : 'loses'}`);
      break;
    }
    case 'limbo':
      out.value = crashOf(u);
      out.win = out.value >= bet.target;
      if (out.win) out.returns = mulDiv(st, bet.target, 100);
      out.steps.push(`result floor(99 × 2^32 / (u + 256)) = ${out.value} hundredths, target ${bet.target}`);
      break;
    case 'wheel':
      out.value = floorN(u, bet.segments);
      out.steps.push(`segment floor(u × ${bet.segments} / 2^32) = ${out.value}`);
      catalogue(wheelMultiplier(bet.segments, bet.risk, out.value));
      break;
    case 'plinko': {
      const ev = plinko(s, bet.rows);
      out.value = ev.slot;
      ev.path.forEach((d, i) => {
        out.value += d * 2 ** (8 + i);
        out.steps.push(`row ${i + 1}: float ${i} u = ${s.used[i]}, floor(f × 2) = ${d}: ${d ? 'right' : 'left'}`);
      });
      out.event = { path: ev.path, slot: ev.slot };
      out.steps.push(`slot ${ev.slot}`);
      catalogue(plinkoMultiplier(bet.rows, bet.risk, ev.slot));
      break;
    }
    case 'keno': {
      const sq = keno(s);
      out.value = sq.filter((q) => bet.picks.includes(q)).length;
      sq.forEach((q, i) => out.steps.push(`draw ${i + 1}: float ${i} u = ${s.used[i]}: square ${q}${bet.picks.includes(q) ? ' (hit)' : ''}`));
      out.event = { squares: sq, hits: out.value };
      out.steps.push(`${out.value} of ${bet.picks.length} picks hit`);
      catalogue(kenoMultiplier(bet.risk, bet.picks.length, out.value));
      break;
    }
    case 'baccarat': {
      const hand = baccarat(s);
      out.value = hand.playerTotal + hand.bankerTotal * 256 + (hand.player.length === 3 ? 65536 : 0) +
        (hand.banker.length === 3 ? 131072 : 0);
      const names = (hs) => hs.map((c) => cardName(c, SUITS.baccarat)).join(' ');
      out.steps.push(`player ${names(hand.player)} = ${hand.playerTotal}, banker ${names(hand.banker)} = ${hand.bankerTotal}: ${
        ['player', 'banker', 'tie'][hand.winner]}`);
      out.event = hand;
      catalogue(hand.winner === bet.side ? baccaratMultiplier(bet.side) : hand.winner === 2 ? 10000 : 0);
      break;
    }
    case 'blitz': {
      const ev = blitz(s, bet.cards);
      out.value = ev.different;
      out.steps.push(`cards ${ev.cards.map((c) => cardName(c, SUITS.blitz)).join(' ')}: ${ev.different} different`);
      out.event = ev;
      catalogue(ev.allDiffer ? blitzMultiplier(bet.cards) : 0);
      break;
    }
    default:
      throw new Error(`not a solo bet: ${bet.game}`);
  }
  return out;
}

// ---- crash (apps/crash.c; docs/games.md "Crash") ----

// params: window u16 ‖ target u32 ‖ client seed
export function parseCrash(p) {
  if (p.length < 7) throw new Error(`crash params: need window u16, target u32 and the client seed length, got ${p.length} bytes`);
  const c = { window: le16(p, 0), target: le32(p, 2) };
  if (c.window < 1 || c.window > 1000) throw new Error(`crash params: window of ${c.window} blocks, must be 1-1000`);
  c.clientSeed = clientSeed(p, 6, 'crash');
  return c;
}

// An entry's move bytes: stake u64 ‖ target u32.
export function parseCrashEntry(m) {
  if (m.length !== 12) throw new Error(`crash entry: ${m.length} bytes, must be 12 (stake u64, target u32)`);
  const e = { stake: le64(m, 0), target: le32(m, 8) };
  if (e.stake === 0n || e.target < 101) throw new Error('crash entry: stake 0 or target below 1.01x');
  return e;
}

export const crashReturn = (stake, target) => mulDiv(stake, target, 100);

// ---- games (apps/app.c, apps/roll.c) ----

// first seat = LE64(SHA3-256("ZBC-TURN" ‖ seed ‖ LE64(app id))) mod seats
export function firstSeat(seed, appId, seats) {
  const buf = new Uint8Array(48);
  buf.set(ascii('ZBC-TURN'), 0);
  buf.set(seed, 8);
  let id = BigInt(appId);
  for (let i = 0; i < 8; i++, id >>= 8n) buf[40 + i] = Number(id & 0xffn);
  return Number(le64(sha3_256(buf), 0) % BigInt(seats || 1));
}

export function le64Bytes(v) {
  const b = new Uint8Array(8);
  let x = BigInt(v);
  for (let i = 0; i < 8; i++, x >>= 8n) b[i] = Number(x & 0xffn);
  return b;
}

// The first n bytes of H("ZBC-DICE" ‖ seed ‖ tag ‖ LE32 counter), counter 0, 1, …
export function rollBytes(seed, tag, n) {
  const out = new Uint8Array(n);
  for (let ctr = 0, o = 0; o < n; ctr++) {
    const buf = new Uint8Array(8 + 32 + tag.length + 4);
    buf.set(ascii('ZBC-DICE'), 0);
    buf.set(seed, 8);
    buf.set(tag, 40);
    new DataView(buf.buffer).setUint32(40 + tag.length, ctr, true);
    const blk = sha3_256(buf);
    for (let i = 0; i < 32 && o < n; i++) out[o++] = blk[i];
  }
  return out;
}

// Dice read from roll bytes (uniform(6) + 1, rejecting bytes ≥ 252); a game's
// engine decides how many it reads, so this is for showing them.
export function diceOf(bytes) {
  return Array.from(bytes).filter((b) => b < 252).map((b) => (b % 6) + 1);
}
