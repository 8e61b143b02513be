// The solo bets' boards (docs/web.md "Bets and solo games"): the bet's parameters, the block
// whose seed decides it, then what the node's bet_settle entry says was
// rolled (docs/games.md "What bet_settle carries"), drawn per game, and
// the payout in the wallet's words (bets.js:betText).  The rolled value is
// one element with data-piece="outcome" and data-value = the node's
// value.  What the node's summary leaves out — the keno draw's ten
// squares, the baccarat and blitz cards — is recomputed in the page from
// the seed of the settling block (js/fair.js, the page's own hashing) and
// drawn labelled so, with whether it agrees with the node's summary
// (docs/web.md §7); the Verify section stays the authority.
import { s } from './svg.js';
import { get } from '../api.js';
import * as F from '../fair.js';
import { caption, card } from './betparts.js';
import { betOfApp, betText, betWords, betMultiplier, hundredthsText, multiplierText, plinkoMultiplier,
  rouletteRed, settleOf, wheelMultiplier, SIDES } from '../bets.js';

const WIDTH = 640;

// A bet app has no engine view: the board draws from the app itself.
export const viewless = true;

function outcome(value, attrs, ...children) {
  return s('g', { 'data-piece': 'outcome', 'data-value': value, ...attrs }, ...children);
}

function dice(b, v, g) {
  const x0 = 20;
  const w = WIDTH - 40;
  const at = (p) => x0 + (w * p) / 10000;
  g.append(s('rect', { x: x0, y: 60, width: w, height: 24, class: 'track' }));
  const [lo, hi] = b.direction ? [b.target, 10000] : [0, b.target];
  g.append(s('rect', { x: at(lo), y: 60, width: at(hi) - at(lo), height: 24, class: 'win-zone' }));
  g.append(caption(at(b.target), 100, hundredthsText(b.target), { 'text-anchor': 'middle' }));
  if (v !== null) {
    g.append(outcome(v, { class: 'marker' }, s('line', { x1: at(v), y1: 50, x2: at(v), y2: 94 }),
      s('text', { x: at(v), y: 44, 'text-anchor': 'middle' }, hundredthsText(v))));
  }
  return 120;
}

function coin(b, v, g) {
  g.append(caption(20, 80, `bet on ${b.side ? 'tails' : 'heads'}`));
  if (v !== null) {
    g.append(outcome(v, { class: 'coin' }, s('circle', { cx: 260, cy: 75, r: 34 }),
      s('text', { x: 260, y: 83, 'text-anchor': 'middle' }, v ? 'T' : 'H')));
  }
  return 120;
}

function roulette(b, v, g) {
  const wins = (p) => {
    if (p === 0) return b.kind === 0 && b.number === 0;
    switch (b.kind) {
      case 0: return p === b.number;
      case 1: return rouletteRed(p);
      case 2: return !rouletteRed(p);
      case 3: return p % 2 === 1;
      case 4: return p % 2 === 0;
      case 5: return p <= 18;
      case 6: return p >= 19;
      case 7: return Math.ceil(p / 12) === b.number;
      default: return (p - 1) % 3 === b.number - 1;
    }
  };
  const cell = 44;
  for (let p = 0; p <= 36; p++) {
    const x = p === 0 ? 0 : 20 + Math.ceil(p / 3) * cell;
    const y = p === 0 ? 50 : 50 + (2 - ((p - 1) % 3)) * 34;
    const colour = p === 0 ? 'green' : rouletteRed(p) ? 'red' : 'black';
    const attrs = { x, y, width: p === 0 ? 60 : cell - 2, height: p === 0 ? 100 : 32,
      class: ['pocket', colour, wins(p) ? 'picked' : ''].join(' ').trim(), 'data-square': String(p) };
    g.append(s('rect', attrs), s('text', { x: x + (p === 0 ? 30 : 21), y: y + (p === 0 ? 56 : 22), 'text-anchor': 'middle',
      class: 'pocket-label' }, String(p)));
    if (v === p) {
      g.append(outcome(v, { class: 'marker', 'data-square': String(p) },
        s('circle', { cx: x + (p === 0 ? 30 : 21), cy: y + (p === 0 ? 50 : 16), r: 14 })));
    }
  }
  return 170;
}

function limbo(b, v, g) {
  g.append(caption(20, 70, `target ${hundredthsText(b.target)}x`));
  if (v !== null) {
    g.append(outcome(v, { class: 'big ' + (v >= b.target ? 'won' : 'lost') },
      s('text', { x: 260, y: 90, 'text-anchor': 'middle' }, hundredthsText(v) + 'x')));
  }
  return 120;
}

function plinko(b, v, g) {
  const rows = b.rows;
  const dx = (WIDTH - 40) / (rows + 2);
  const dy = 22;
  const cx = WIDTH / 2;
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i <= r + 2 - 1; i++) {
      g.append(s('circle', { cx: cx + (i - (r + 1) / 2) * dx, cy: 50 + r * dy, r: 3, class: 'peg' }));
    }
  }
  const sy = 50 + rows * dy;
  for (let k = 0; k <= rows; k++) {
    const x = cx + (k - rows / 2) * dx;
    const landed = v !== null && (v & 0xff) === k;
    g.append(s('rect', { x: x - dx / 2 + 1, y: sy, width: dx - 2, height: 26, class: 'slot' + (landed ? ' picked' : ''),
      'data-square': `slot ${k}` }),
    s('text', { x, y: sy + 17, 'text-anchor': 'middle', class: 'slot-label' },
      multiplierText(plinkoMultiplier(rows, b.risk, k)).replace(/x$/, '')));
  }
  if (v !== null) {
    const pts = [[cx, 30]];
    let k = 0;
    for (let r = 0; r < rows; r++) {
      k += (v >>> (8 + r)) & 1;
      pts.push([cx + (k - (r + 1) / 2) * dx, 50 + r * dy + dy / 2]);
    }
    pts.push([cx + ((v & 0xff) - rows / 2) * dx, sy + 13]);
    g.append(outcome(v, { class: 'path' }, s('polyline', { points: pts.map((p) => p.join(',')).join(' ') }),
      s('circle', { cx: pts[pts.length - 1][0], cy: pts[pts.length - 1][1], r: 7, class: 'ball' })));
  }
  return sy + 50;
}

function keno(b, v, g) {
  const picks = new Set(b.picks);
  for (let q = 1; q <= 40; q++) {
    const x = 20 + ((q - 1) % 10) * 50;
    const y = 40 + Math.floor((q - 1) / 10) * 40;
    g.append(s('rect', { x, y, width: 46, height: 36, rx: 4, class: 'square' + (picks.has(q) ? ' picked' : ''),
      'data-square': String(q) }), s('text', { x: x + 23, y: y + 23, 'text-anchor': 'middle' }, String(q)));
  }
  if (v !== null) {
    g.append(outcome(v, { class: 'big' }, s('text', { x: 20, y: 230 },
      `${v} of ${b.picks.length} picks drawn: ${multiplierText(betMultiplier(b, v))}`)));
  }
  return v === null ? 250 : 250 + RECOMPUTED_H;
}

function wheel(b, v, g) {
  const n = b.segments;
  const cx = 180;
  const cy = 170;
  const r = 120;
  for (let i = 0; i < n; i++) {
    const a0 = (2 * Math.PI * i) / n - Math.PI / 2;
    const a1 = (2 * Math.PI * (i + 1)) / n - Math.PI / 2;
    const m = wheelMultiplier(n, b.risk, i);
    const d = `M ${cx} ${cy} L ${cx + r * Math.cos(a0)} ${cy + r * Math.sin(a0)} ` +
      `A ${r} ${r} 0 0 1 ${cx + r * Math.cos(a1)} ${cy + r * Math.sin(a1)} Z`;
    g.append(s('path', { d, class: `segment m${Math.min(m, 30000) === 0 ? 0 : m <= 15000 ? 1 : 2}` +
      (v === i ? ' picked' : ''), 'data-square': `segment ${i}` }));
  }
  if (v !== null) {
    const a = (2 * Math.PI * (v + 0.5)) / n - Math.PI / 2;
    g.append(outcome(v, { class: 'marker' }, s('line', { x1: cx, y1: cy, x2: cx + (r + 14) * Math.cos(a),
      y2: cy + (r + 14) * Math.sin(a) }), s('text', { x: 340, y: 170 },
      `segment ${v}: ${multiplierText(wheelMultiplier(n, b.risk, v))}`)));
  }
  return 310;
}

function baccarat(b, v, g) {
  g.append(caption(20, 60, `bet on ${SIDES[b.side]}`));
  if (v !== null) {
    const pt = v & 0xff;
    const bt = (v >> 8) & 0xff;
    const winner = pt > bt ? 'player' : bt > pt ? 'banker' : 'tie';
    g.append(outcome(v, { class: 'baccarat' },
      s('rect', { x: 20, y: 80, width: 180, height: 70, rx: 8, class: 'hand' + (winner === 'player' ? ' picked' : '') }),
      s('text', { x: 110, y: 110, 'text-anchor': 'middle' }, `player ${pt}`),
      s('text', { x: 110, y: 135, 'text-anchor': 'middle', class: 'small' }, (v >> 16) & 1 ? 'drew a third card' : 'stood'),
      s('rect', { x: 240, y: 80, width: 180, height: 70, rx: 8, class: 'hand' + (winner === 'banker' ? ' picked' : '') }),
      s('text', { x: 330, y: 110, 'text-anchor': 'middle' }, `banker ${bt}`),
      s('text', { x: 330, y: 135, 'text-anchor': 'middle', class: 'small' }, (v >> 17) & 1 ? 'drew a third card' : 'stood'),
      s('text', { x: 460, y: 120 }, winner === 'tie' ? 'tie' : `${winner} wins`)));
  }
  return v === null ? 170 : 226 + RECOMPUTED_H;
}

function blitz(b, v, g) {
  for (let i = 0; i < b.cards; i++) {
    g.append(s('rect', { x: 20 + i * 36, y: 50, width: 32, height: 46, rx: 4, class: 'card-back' }));
  }
  if (v !== null) {
    g.append(outcome(v, { class: 'big ' + (v === b.cards ? 'won' : 'lost') },
      s('text', { x: 20, y: 130 }, `${v} different cards of ${b.cards}` + (v === b.cards ? ': all differ' : ''))));
  }
  return v === null ? 150 : 150 + RECOMPUTED_H;
}

// ---- what the node's summary leaves out, recomputed in the page ----

const RECOMPUTED_H = 80; // the room for the recomputed caption's three lines

// Each game's recomputed picture: draws F.resolveBet's event `ev` into g
// and returns {agrees, node, page}: whether the page's figures equal the
// node's summary `v` (docs/games.md "What bet_settle carries"), and each
// in words.
const RECOMPUTE = {
  keno(b, v, ev, g) {
    const picks = new Set(b.picks);
    ev.squares.forEach((q, i) => {
      const x = 20 + ((q - 1) % 10) * 50;
      const y = 40 + Math.floor((q - 1) / 10) * 40;
      g.append(s('circle', { cx: x + 23, cy: y + 18, r: 15, 'data-piece': 'drawn', 'data-square': String(q),
        'data-order': i + 1, class: 'drawn' + (picks.has(q) ? ' hit' : '') }));
    });
    const hits = ev.squares.filter((q) => picks.has(q)).length;
    return { agrees: hits === v, node: `${v} hit${v === 1 ? '' : 's'}`, page: `drawn ${ev.squares.join(', ')}: ${hits} hit${hits === 1 ? '' : 's'}` };
  },
  baccarat(b, v, ev, g) {
    const name = (c) => F.cardName(c, F.SUITS.baccarat);
    ev.player.forEach((c, i) => g.append(card(30 + i * 50, 160, name(c), { 'data-hand': 'player' })));
    ev.banker.forEach((c, i) => g.append(card(250 + i * 50, 160, name(c), { 'data-hand': 'banker' })));
    const said = { pt: v & 0xff, bt: (v >> 8) & 0xff, pd: (v >> 16) & 1, bd: (v >> 17) & 1 };
    const agrees = said.pt === ev.playerTotal && said.bt === ev.bankerTotal &&
      said.pd === (ev.player.length === 3 ? 1 : 0) && said.bd === (ev.banker.length === 3 ? 1 : 0);
    const names = (hand) => hand.map((c) => F.cardName(c, F.SUITS.baccarat)).join(' ');
    return { agrees, node: `player ${said.pt}${said.pd ? ' (3 cards)' : ''}, banker ${said.bt}${said.bd ? ' (3 cards)' : ''}`,
      page: `player ${names(ev.player)} = ${ev.playerTotal}, banker ${names(ev.banker)} = ${ev.bankerTotal}` };
  },
  blitz(b, v, ev, g) {
    const step = Math.min(48, 580 / ev.cards.length);
    ev.cards.forEach((c, i) => g.append(card(20 + i * step, 50, F.cardName(c, F.SUITS.blitz), { 'data-order': i + 1 })));
    return { agrees: ev.different === v, node: `${v} different`,
      page: `${ev.cards.map((c) => F.cardName(c, F.SUITS.blitz)).join(' ')}: ${ev.different} different` };
  },
};

// Recomputes the pictures of a settled keno, baccarat or blitz bet from
// the seed of block `height` (fetched) and draws them into `g`, with the
// caption at `y`; a failure is said in the caption, never thrown.
async function recompute(app, b, v, height, g, y) {
  const line = caption(0, y, `recomputing in this page from the seed of block ${height}…`,
    { 'data-field': 'bet-recomputed' });
  g.append(line);
  try {
    const blk = await get('blocks/' + height);
    if (!blk || typeof blk.seed !== 'string' || !/^[0-9a-f]{64}$/.test(blk.seed)) {
      throw new Error(`block ${height} carries no 32-byte seed`);
    }
    const ev = F.resolveBet(F.parseBet(app.type, F.hexBytes(app.params_hex)), BigInt(app.stake), blk.seed,
      BigInt(app.id)).event;
    const pic = s('g', { class: 'recomputed', 'data-field': 'recomputed-picture' });
    const r = RECOMPUTE[b.game](b, v, ev, pic);
    g.append(pic);
    line.dataset.agrees = String(r.agrees);
    line.setAttribute('class', 'caption ' + (r.agrees ? 'ok' : 'error'));
    // three lines: the label, what the page drew, whether the node's summary agrees
    line.replaceChildren(`recomputed in this page from the seed of block ${height}: `,
      s('tspan', { x: 0, dy: 18 }, r.page + ' '),
      s('tspan', { x: 0, dy: 18 }, r.agrees ? 'agrees with the node'
        : `DISAGREES with the node, which says ${r.node} (see Verify below)`));
  } catch (e) {
    line.dataset.agrees = 'unknown';
    line.setAttribute('class', 'caption error');
    line.textContent = `not recomputed from the seed of block ${height}: ${e.message}`;
  }
}

const DRAW = { dice, coin, roulette, limbo, plinko, keno, wheel, baccarat, blitz };

export function render(_view, app) {
  const b = betOfApp(app);
  if (b && ((b.game === 'plinko' && (b.rows < 8 || b.rows > 16)) || (b.game === 'blitz' && (b.cards < 2 || b.cards > 16)) ||
    (b.game === 'wheel' && ![10, 20, 30, 40, 50].includes(b.segments)))) {
    throw new Error(`the ${b.game} params are out of range (${app.params_hex})`);
  }
  const svg = s('svg', { viewBox: `0 0 ${WIDTH} 400`, width: WIDTH, class: `board bet ${app.game}`,
    'data-game': app.game, role: 'img', 'aria-label': `${app.game} bet` });
  if (!b) {
    svg.append(caption(0, 20, 'the params do not read as a bet'));
    return svg;
  }
  const settle = settleOf(app);
  const v = settle && Number.isInteger(settle.value) ? settle.value : null;
  const seedHeight = app.bet && Number.isInteger(app.bet.seed_height) ? app.bet.seed_height : app.created + 1;
  svg.append(caption(0, 20, `${app.game} ${betWords(b)} · client seed ${JSON.stringify(b.clientSeed)}`,
    { 'data-field': 'bet-params' }));
  svg.append(caption(0, 38, v === null
    ? `waiting: the seed of block ${seedHeight} decides it`
    : `decided by the seed of block ${seedHeight}`, { 'data-field': 'bet-seed' }));
  const g = s('g', { class: 'picture' });
  const h = DRAW[b.game](b, v, g);
  svg.append(g);
  if (v !== null && RECOMPUTE[b.game]) recompute(app, b, v, seedHeight, g, h - RECOMPUTED_H + 24);
  const words = betText(app);
  if (words) svg.append(caption(0, h + 10, words, { 'data-field': 'bet-words' }));
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${h + 30}`);
  return svg;
}
