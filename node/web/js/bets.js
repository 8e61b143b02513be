// Solo bets in the page (docs/web.md "Bets and solo games"): the words
// `zbc bet` takes, the params bytes it builds (docs/games.md "Solo bets",
// "The five catalogue bets on chain"), the payout tables the wallet prints
// multipliers from (docs/games.md "Payout tables") and a settled bet in the
// wallet's words (node/wallet/result_text.c:zbc_bet_text).  Nothing here
// draws an outcome: what was rolled is the node's `bet_settle` entry.
import { zbc } from './words.js';

// Type codes (docs/protocol-apps.md §4).
export const BET_TYPES = { dice: 16, coin: 17, roulette: 18, limbo: 22, plinko: 23, keno: 24, wheel: 25,
  baccarat: 26, blitz: 27 };
const BY_TYPE = Object.fromEntries(Object.entries(BET_TYPES).map(([k, v]) => [v, k]));

// What each game's words are, as `zbc bet GAME --help` says them.
export const BET_USAGE = {
  dice: 'under|over PERCENT, e.g. under 49.5',
  coin: 'heads|tails',
  roulette: 'red, black, odd, even, low, high, straight N, dozen N or column N',
  limbo: 'MULTIPLIER, e.g. 2.5',
  plinko: 'ROWS low|medium|high (rows 8-16), e.g. 12 medium',
  keno: 'N1,N2,… (1-10 squares of 1-40), e.g. 3,17,40',
  wheel: 'SEGMENTS low|medium|high (segments 10, 20, 30, 40 or 50), e.g. 20 high',
  baccarat: 'player|banker|tie',
  blitz: 'K (cards 2-16), e.g. 5',
};

export const RISKS = ['low', 'medium', 'high'];
export const KENO_RISKS = ['classic', 'high'];
export const SIDES = ['player', 'banker', 'tie'];
export const ROULETTE_KINDS = ['straight', 'red', 'black', 'odd', 'even', 'low', 'high', 'dozen', 'column'];
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
export const CLIENT_SEED_MAX = 64;

export function rouletteRed(p) {
  return RED.has(p);
}

/* Payout tables in ten-thousandths of the stake (apps/fair_pay.c). */
const PLINKO = [
  [
    [29400, 19700, 13300, 8900, 5982],
    [34000, 22900, 15400, 10300, 6942],
    [40700, 27400, 18400, 12400, 8300, 5516],
    [47400, 31900, 21400, 14400, 9700, 6461],
    [56700, 38100, 25600, 17200, 11600, 7800, 5125],
    [66300, 44600, 29900, 20100, 13500, 9100, 6095],
    [79300, 53300, 35800, 24100, 16200, 10900, 7300, 4828],
    [93000, 62500, 42000, 28200, 19000, 12700, 8600, 5720],
    [111300, 74800, 50200, 33700, 22700, 15200, 10200, 6900, 4642],
  ],
  [
    [48300, 26500, 14500, 8000, 4368],
    [60200, 33100, 18100, 10000, 5434],
    [77800, 42700, 23400, 12900, 7100, 3746],
    [97700, 53600, 29400, 16100, 8900, 4848],
    [126200, 69200, 38000, 20800, 11400, 6300, 3467],
    [159300, 87400, 48000, 26300, 14400, 7900, 4385],
    [205800, 112900, 61900, 34000, 18700, 10200, 5600, 3117],
    [260800, 143100, 78500, 43100, 23600, 13000, 7100, 3908],
    [336800, 184800, 101400, 55600, 30500, 16700, 9200, 5000, 2871],
  ],
  [
    [77400, 34400, 15300, 6800, 3011],
    [103900, 46200, 20500, 9100, 4065],
    [143800, 63900, 28400, 12600, 5600, 2539],
    [194500, 86400, 38400, 17100, 7600, 3357],
    [269300, 119700, 53200, 23600, 10500, 4700, 2048],
    [366200, 162800, 72300, 32100, 14300, 6400, 2789],
    [507000, 225300, 100200, 44500, 19800, 8800, 3900, 1733],
    [692300, 307700, 136700, 60800, 27000, 12000, 5300, 2402],
    [958500, 426000, 189300, 84100, 37400, 16600, 7400, 3300, 1434],
  ],
];
const KENO = [
  [[0, 39600], [0, 16080, 64400], [0, 0, 53448, 213800], [0, 0, 24240, 96900, 387700],
    [0, 0, 0, 79995, 320000, 1279900], [0, 0, 0, 38500, 154000, 616000, 2464000],
    [0, 0, 0, 0, 131879, 527500, 2110000, 8440200], [0, 0, 0, 0, 65931, 263800, 1055000, 4220100, 10000000],
    [0, 0, 0, 0, 0, 241530, 966100, 3864500, 10000000, 10000000],
    [0, 0, 0, 0, 0, 123403, 493600, 1974400, 7897700, 10000000, 10000000]],
  [[0, 39600], [0, 0, 171600], [0, 0, 38355, 383600], [0, 0, 0, 158730, 1587300],
    [0, 0, 0, 0, 738580, 7385800], [0, 0, 0, 0, 202182, 2021800, 20218100],
    [0, 0, 0, 0, 0, 999733, 9997400, 99973600], [0, 0, 0, 0, 0, 0, 5943120, 59431200, 100000000],
    [0, 0, 0, 0, 0, 0, 1870397, 18703900, 100000000, 100000000],
    [0, 0, 0, 0, 0, 0, 0, 13144990, 100000000, 100000000, 100000000]],
];
const BACCARAT = [20051, 19513, 103745];

// The plinko table is symmetric: slot s pays as slot rows - s.
export function plinkoMultiplier(rows, risk, slot) {
  if (rows < 8 || rows > 16 || risk > 2 || slot < 0 || slot > rows) return 0;
  return PLINKO[risk][rows - 8][Math.min(slot, rows - slot)];
}

export function kenoMultiplier(risk, picks, hits) {
  if (risk > 1 || picks < 1 || picks > 10 || hits < 0 || hits > picks) return 0;
  return KENO[risk][picks - 1][hits];
}

export function wheelMultiplier(segments, risk, segment) {
  if (![10, 20, 30, 40, 50].includes(segments) || segment < 0 || segment >= segments) return 0;
  const p = segment % 10;
  const b = segments / 10;
  const last = segment === segments - 1;
  if (risk === 0) return p === 0 ? 15000 : p === 4 || p === 9 ? 0 : 12000;
  if (risk === 1) return last ? 9000 * b + 20000 : p % 2 === 0 ? 0 : p === 1 || p === 5 ? 15000 : 20000;
  if (risk === 2) return last ? 9900 * segments : 0;
  return 0;
}

export function baccaratMultiplier(side) {
  return BACCARAT[side] || 0;
}

// floor(0.99 × 52^k / (52 × 51 × … × (53 − k))) in ten-thousandths.
export function blitzMultiplier(k) {
  if (k < 2 || k > 16) return 0;
  let num = 9900n;
  let den = 1n;
  for (let i = 0; i < k; i++) {
    num *= 52n;
    den *= BigInt(52 - i);
  }
  return Number(num / den);
}

// Ten-thousandths as "0.5982x", "1.20x", "1000.00x" (zbc_multiplier_text).
export function multiplierText(m) {
  let frac = String(m % 10000).padStart(4, '0');
  while (frac.length > 2 && frac.endsWith('0')) frac = frac.slice(0, -1);
  return `${Math.floor(m / 10000)}.${frac}x`;
}

// Hundredths as "49.50" (a dice target or roll) or "2.00x" (limbo, crash).
export function hundredthsText(v) {
  return `${Math.floor(v / 100)}.${String(v % 100).padStart(2, '0')}`;
}

// "49.5" -> 4950: at most two decimals (cmd_bet.c:hundredths).
export function parseHundredths(text) {
  const m = /^(\d{0,10})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m || (m[1] === '' && m[2] === undefined)) return null;
  const v = Number(m[1] || '0') * 100 + Number((m[2] || '').padEnd(2, '0') || '0');
  return Number.isSafeInteger(v) ? v : null;
}

function oneOf(word, what, words) {
  const i = words.indexOf(word);
  if (i < 0) throw new Error(`unknown ${what} '${word}'; ${what}s: ${words.join(', ')}`);
  return i;
}

function whole(text, lo, hi) {
  if (!/^\d{1,3}$/.test(text)) return null;
  const v = Number(text);
  return v >= lo && v <= hi ? v : null;
}

// The words of `zbc bet GAME WORDS…` ([game, ...words]) as a bet, with
// risk = `--risk` (keno only); errors in the wallet's sentences
// (node/wallet/cmd_bet.c:zbc_bet_args).
export function betOfWords(argv, risk = null) {
  const [g, ...w] = argv;
  if (!(g in BET_TYPES)) throw new Error(`unknown bet '${g}'; bets: ${Object.keys(BET_TYPES).join(', ')}`);
  if (risk !== null && g !== 'keno') throw new Error(`--risk is keno's; ${g} takes its risk as a word`);
  const usage = () => new Error(`usage: zbc bet ${g} ${BET_USAGE[g]}`);
  switch (g) {
    case 'dice': {
      if (w.length !== 2) throw usage();
      if (w[0] !== 'under' && w[0] !== 'over') throw new Error(`dice bets are 'under' or 'over', not '${w[0]}'`);
      const t = parseHundredths(w[1]);
      if (t === null || t < 1 || t > 9999) throw new Error(`dice target must be from 0.01 to 99.99, not '${w[1]}'`);
      return { game: g, direction: w[0] === 'over' ? 1 : 0, target: t };
    }
    case 'coin':
      if (w.length !== 1) throw usage();
      if (w[0] !== 'heads' && w[0] !== 'tails') throw new Error(`coin bets are 'heads' or 'tails', not '${w[0]}'`);
      return { game: g, side: w[0] === 'tails' ? 1 : 0 };
    case 'roulette': {
      const kind = ROULETTE_KINDS.indexOf(w[0]);
      const numbered = kind === 0 || kind === 7 || kind === 8;
      if (kind < 0 || numbered !== (w.length === 2) || w.length > 2) {
        throw new Error('roulette bets: red, black, odd, even, low, high, straight N, dozen N or column N');
      }
      let number = 0;
      if (numbered) {
        number = whole(w[1], 0, 36);
        if (number === null) throw new Error(`roulette number '${w[1]}' is not 0-36`);
        if (kind !== 0 && (number < 1 || number > 3)) {
          throw new Error(`roulette params: dozen/column number ${number} out of range 1-3`);
        }
      }
      return { game: g, kind, number };
    }
    case 'limbo': {
      if (w.length !== 1) throw usage();
      const t = parseHundredths(w[0].replace(/x$/i, ''));
      if (t === null || t < 101 || t > 0xffffffff) {
        throw new Error(`limbo target must be a multiplier of at least 1.01, not '${w[0]}'`);
      }
      return { game: g, target: t };
    }
    case 'plinko': {
      if (w.length !== 2) throw usage();
      const rows = whole(w[0], 8, 16);
      if (rows === null) throw new Error(`plinko rows must be 8-16, not '${w[0]}'`);
      return { game: g, rows, risk: oneOf(w[1], 'plinko risk', RISKS) };
    }
    case 'keno': {
      if (w.length !== 1) throw usage();
      const seen = new Set();
      const parts = w[0].split(',');
      for (const p of parts) {
        if (p === '') throw new Error(`keno picks '${w[0]}': an empty square between commas (write them like 3,17,40)`);
        const v = whole(p, 1, 40);
        if (v === null) throw new Error(`keno square '${p.slice(0, 20)}' is not a square 1-40`);
        if (seen.has(v)) throw new Error(`keno square ${v} is picked twice`);
        seen.add(v);
      }
      if (seen.size > 10) throw new Error(`keno takes 1-10 picks, not ${parts.length}`);
      return { game: g, risk: risk === null ? 0 : oneOf(risk, 'keno risk', KENO_RISKS),
        picks: [...seen].sort((a, b) => a - b) };
    }
    case 'wheel': {
      if (w.length !== 2) throw usage();
      const segments = whole(w[0], 1, 255);
      if (![10, 20, 30, 40, 50].includes(segments)) {
        throw new Error(`wheel segments must be 10, 20, 30, 40 or 50, not '${w[0]}'`);
      }
      return { game: g, segments, risk: oneOf(w[1], 'wheel risk', RISKS) };
    }
    case 'baccarat':
      if (w.length !== 1) throw usage();
      return { game: g, side: oneOf(w[0], 'baccarat side', SIDES) };
    case 'blitz': {
      if (w.length !== 1) throw usage();
      const cards = whole(w[0], 2, 16);
      if (cards === null) throw new Error(`blitz cards must be 2-16, not '${w[0]}'`);
      return { game: g, cards };
    }
    default:
      throw usage();
  }
}

// The params bytes of a bet (apps/fair.c:zbc_bet_encode): the game's
// fields, then client_seed_len u8 ‖ client_seed (printable ASCII, ≤ 64).
export function betParams(bet, clientSeed) {
  const f = [];
  switch (bet.game) {
    case 'dice': f.push(bet.direction, bet.target & 0xff, bet.target >> 8); break;
    case 'coin': f.push(bet.side); break;
    case 'roulette': f.push(bet.kind, bet.number); break;
    case 'limbo': for (let i = 0; i < 4; i++) f.push(Math.floor(bet.target / 2 ** (8 * i)) & 0xff); break;
    case 'plinko': f.push(bet.rows, bet.risk); break;
    case 'keno': f.push(bet.risk, bet.picks.length, ...bet.picks); break;
    case 'wheel': f.push(bet.segments, bet.risk); break;
    case 'baccarat': f.push(bet.side); break;
    case 'blitz': f.push(bet.cards); break;
    default: throw new Error(`unknown bet '${bet.game}'`);
  }
  return Uint8Array.from([...f, ...clientSeedBytes(clientSeed)]);
}

// client_seed_len u8 ‖ client_seed: printable ASCII, at most 64 bytes.
export function clientSeedBytes(clientSeed) {
  if (clientSeed.length > CLIENT_SEED_MAX) throw new Error(`--client-seed is at most ${CLIENT_SEED_MAX} characters`);
  const out = [clientSeed.length];
  for (let i = 0; i < clientSeed.length; i++) {
    const c = clientSeed.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) throw new Error(`client seed must be printable ASCII (character ${i + 1} is not)`);
    out.push(c);
  }
  return out;
}

// A bet from an app view's type and params_hex, or null when they do not
// read as one (a hostile node's bytes are only shown, never trusted).
export function betOfApp(app) {
  const game = BY_TYPE[app.type];
  const hex = typeof app.params_hex === 'string' ? app.params_hex : '';
  if (!game || !/^([0-9a-f]{2})*$/i.test(hex) || hex.length > 256) return null;
  const p = hex.match(/../g)?.map((x) => parseInt(x, 16)) || [];
  const need = { dice: 3, coin: 1, roulette: 2, limbo: 4, plinko: 2, keno: 2, wheel: 2, baccarat: 1, blitz: 1 }[game];
  if (p.length < need + 1) return null;
  let n = need;
  let b;
  switch (game) {
    case 'dice': b = { direction: p[0], target: p[1] | (p[2] << 8) }; break;
    case 'coin': b = { side: p[0] }; break;
    case 'roulette': b = { kind: p[0], number: p[1] }; break;
    case 'limbo': b = { target: p[0] + p[1] * 2 ** 8 + p[2] * 2 ** 16 + p[3] * 2 ** 24 }; break;
    case 'plinko': b = { rows: p[0], risk: p[1] }; break;
    case 'keno':
      if (p[1] < 1 || p[1] > 10 || p.length < 2 + p[1] + 1) return null;
      b = { risk: p[0], picks: p.slice(2, 2 + p[1]) };
      n = 2 + p[1];
      break;
    case 'wheel': b = { segments: p[0], risk: p[1] }; break;
    case 'baccarat': b = { side: p[0] }; break;
    default: b = { cards: p[0] };
  }
  const sl = p[n];
  if (p.length !== n + 1 + sl) return null;
  return { game, ...b, clientSeed: String.fromCharCode(...p.slice(n + 1)) };
}

// The app's bet_settle entry (the last one), or null before settlement.
export function settleOf(app) {
  const hist = app.history || [];
  for (let i = hist.length - 1; i >= 0; i--) if (hist[i].kind === 'bet_settle') return hist[i];
  return null;
}

// The bet in the words `zbc bet --help` uses: "under 49.50", "straight 17",
// "plinko 12 rows, medium risk".
export function betWords(b) {
  switch (b.game) {
    case 'dice': return `${b.direction ? 'over' : 'under'} ${hundredthsText(b.target)}`;
    case 'coin': return b.side ? 'tails' : 'heads';
    case 'roulette': return (ROULETTE_KINDS[b.kind] || '?') + ([0, 7, 8].includes(b.kind) ? ` ${b.number}` : '');
    case 'limbo': return `target ${hundredthsText(b.target)}x`;
    case 'plinko': return `${b.rows} rows, ${RISKS[b.risk] || '?'} risk`;
    case 'keno': return `picks ${b.picks.join(', ')}, ${KENO_RISKS[b.risk] || '?'} risk`;
    case 'wheel': return `${b.segments} segments, ${RISKS[b.risk] || '?'} risk`;
    case 'baccarat': return `on ${SIDES[b.side] || '?'}`;
    case 'blitz': return `${b.cards} cards`;
    default: return '';
  }
}

// The multiplier the node's settlement value pays, for the catalogue bets.
export function betMultiplier(b, v) {
  switch (b.game) {
    case 'plinko': return plinkoMultiplier(b.rows, b.risk, v & 0xff);
    case 'keno': return kenoMultiplier(b.risk, b.picks.length, v);
    case 'wheel': return wheelMultiplier(b.segments, b.risk, v);
    case 'baccarat': {
      const pt = v & 0xff;
      const bt = (v >> 8) & 0xff;
      const winner = pt > bt ? 0 : bt > pt ? 1 : 2;
      return winner === b.side ? baccaratMultiplier(b.side) : winner === 2 ? 10000 : 0;
    }
    case 'blitz': return v === b.cards ? blitzMultiplier(b.cards) : 0;
    default: return null;
  }
}

// What was rolled, from the node's bet_settle value (docs/games.md "What
// bet_settle carries"), in the wallet's words.
export function rolledWords(b, v) {
  switch (b.game) {
    case 'dice': return `rolled ${hundredthsText(v)} (${b.direction ? 'over' : 'under'} ${hundredthsText(b.target)})`;
    case 'coin': return `flipped ${v ? 'tails' : 'heads'} (${b.side ? 'tails' : 'heads'})`;
    case 'roulette': return `pocket ${v}${v === 0 ? ' green' : RED.has(v) ? ' red' : ' black'} (${betWords(b)})`;
    case 'limbo': return `result ${hundredthsText(v)}x (target ${hundredthsText(b.target)}x)`;
    case 'plinko': {
      let path = '';
      for (let r = 0; r < b.rows && r < 24; r++) path += (v >>> (8 + r)) & 1 ? 'R' : 'L';
      return `path ${path}, slot ${v & 0xff} (0-${b.rows}): ${multiplierText(betMultiplier(b, v))}`;
    }
    case 'keno': return `${v} hits of ${b.picks.length} picks: ${multiplierText(betMultiplier(b, v))}`;
    case 'wheel': return `segment ${v} of ${b.segments}: ${multiplierText(betMultiplier(b, v))}`;
    case 'baccarat': {
      const pt = v & 0xff;
      const bt = (v >> 8) & 0xff;
      return `player ${pt}, banker ${bt}: ${pt > bt ? 'player wins' : bt > pt ? 'banker wins' : 'tie'} ` +
        `(bet on ${SIDES[b.side] || '?'})`;
    }
    case 'blitz': return `${v} different cards of ${b.cards}`;
    default: return '';
  }
}

// A settled bet in the wallet's words (zbc_bet_text): "rolled 2.71 (under
// 49.50): win, paid 2 ZBC", "segment 7 of 10: 1.20x: no profit, returned
// 0.6 ZBC", "…: loss"; null while not settled or not a bet.
export function betText(app) {
  const settle = settleOf(app);
  const b = betOfApp(app);
  if (!settle || !b || !Number.isInteger(settle.value) || settle.value < 0 || settle.value > 0xffffffff) return null;
  const back = BigInt(settle.amount || 0);
  const tail = settle.win === true ? `: win, paid ${zbc(back)}` : back > 0n ? `: no profit, returned ${zbc(back)}` : ': loss';
  return rolledWords(b, settle.value) + tail;
}

// The multi-step solo games (docs/games.md "Multi-step solo games").
export const SOLO_TYPES = { mines: 28, tower: 29, hilo: 30, blackjack: 31 };
export const TOWER_DIFFICULTIES = ['easy', 'medium', 'hard', 'expert', 'master'];

// Their params as `zbc app create GAME --params mines=3,seed=TEXT` builds
// them: the game's field (mines: the mine count, default 3; tower: the
// difficulty, a name or 0-4, default easy), then client_seed_len ‖ seed
// when a seed is given.
export function soloParams(game, field, clientSeed) {
  const f = [];
  if (game === 'mines') {
    const m = field === '' ? 3 : whole(field, 1, 24);
    if (m === null) throw new Error(`mines takes 1 to 24 mines, not ${field}`);
    f.push(m);
  } else if (game === 'tower') {
    const d = field === '' ? 0 : /^[0-4]$/.test(field) ? Number(field) : TOWER_DIFFICULTIES.indexOf(field);
    if (d < 0) throw new Error(`tower difficulty ${field} is unknown (0 easy, 1 medium, 2 hard, 3 expert, 4 master)`);
    f.push(d);
  } else if (!(game in SOLO_TYPES)) {
    throw new Error(`unknown solo game '${game}'; solo games: ${Object.keys(SOLO_TYPES).join(', ')}`);
  } else if (field !== '') {
    throw new Error(`${game} takes no field (only a client seed)`);
  }
  if (clientSeed === '') return Uint8Array.from(f);
  return Uint8Array.from([...f, ...clientSeedBytes(clientSeed)]);
}

// The result line of a bet or a crash round: the bet in the wallet's words,
// or the round's end as the node wrote it ("crash at 2.18x: 2 of 2 entries
// cashed out"); null for anything else (words.js:resultText then).
export function betResult(app) {
  if (app.crash) {
    const end = (app.history || []).filter((e) => e.kind === 'app_end').pop();
    return end && typeof end.reason === 'string' ? end.reason : null;
  }
  if (BY_TYPE[app.type]) return betText(app);
  return SOLO_NAMES[app.type] ? soloResult(app) : null;
}

const SOLO_NAMES = { 28: 'mines', 29: 'tower', 30: 'hilo', 31: 'blackjack' };

// The end of a multi-step solo game in the wallet's words
// (result_text.c, "cashout" and "bust"): "cashed out at 1.1250x: paid
// 1.125 ZBC for a stake of 1 ZBC (won 0.125 ZBC)", "bust: the stake of 1
// ZBC went to the apps fund"; null before the end.
export function soloResult(app) {
  const r = app.result;
  const outcome = r && (r.outcome || r.ending);
  if (outcome !== 'cashout' && outcome !== 'bust') return null;
  const stake = BigInt(app.stake || 0);
  if (outcome === 'bust') return `bust: the stake of ${zbc(stake)} went to the apps fund`;
  const paid = Array.isArray(r.paid) ? r.paid.filter((p) => p.seat === 0).slice(0, 1)
    : (r.payouts || []).filter((p) => p.seat === 0);
  const got = paid.reduce((sum, p) => sum + BigInt(p.amount || 0), 0n);
  const end = (app.history || []).filter((e) => e.kind === 'app_end').pop();
  const status = app.view && typeof app.view === 'object' ? app.view.status : '';
  const how = end && end.reason === 'clock' ? 'settled by the clock at' : status === 'cashout' ? 'cashed out at' : 'returned';
  const mult = app.view && typeof app.view.multiplier === 'string' ? app.view.multiplier : '?';
  return `${how} ${mult}x: paid ${zbc(got)} for a stake of ${zbc(stake)} (${got >= stake ? 'won' : 'lost'} ` +
    `${zbc(got >= stake ? got - stake : stake - got)})`;
}
