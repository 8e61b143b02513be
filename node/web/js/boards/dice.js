// What the dice games' boards share (docs/web.md §6): a die face, the
// move buttons drawn in the SVG, the pending-roll line and the seat marks.
// A dice move is pending until the next block's seed rolls it
// (docs/protocol-apps.md §2), so the board says which block rolls it.
import { s } from './svg.js';

const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.25, 0.25], [0.75, 0.75]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.5], [0.75, 0.5], [0.25, 0.75], [0.75, 0.75]],
};

// A die showing `value` (1-6) at x, y: a <g class="die" data-die=value>.
export function die(x, y, size, value) {
  const pips = PIPS[value] || [];
  return s('g', { class: 'die', 'data-die': value },
    s('rect', { x, y, width: size, height: size, rx: size / 6 }),
    pips.map(([px, py]) => s('circle', { cx: x + px * size, cy: y + py * size, r: size / 11 })));
}

// A move the seat to move can make, as a button in the SVG: class "legal"
// when app.legal_moves lists it, "playable" (and a click sends it) when it
// is the page's turn too.
export function choice(x, y, w, h, label, notation, app, onMove) {
  const legal = (app.legal_moves || []).includes(notation);
  const g = s('g', { class: ['choice', legal ? 'legal' : '', legal && onMove ? 'playable' : ''].join(' ').trim(),
    'data-move': notation },
  s('rect', { x, y, width: w, height: h, rx: 6 }),
  s('text', { x: x + w / 2, y: y + h / 2 + 5, 'text-anchor': 'middle' }, label));
  if (legal && onMove) g.addEventListener('click', () => onMove(notation));
  return g;
}

// The line under a board: the pending dice move and the block whose seed
// rolls it (app.pending.applies_at), else whose move it is (an empty <g>
// once the game is over).
export function statusLine(x, y, app, turn) {
  const p = app.pending;
  if (p) {
    return s('text', { x, y, class: 'pending', 'data-field': 'pending', 'data-block': p.applies_at },
      `seat ${p.seat} played ${p.notation || 'a move'}: waiting for the roll of block ${p.applies_at}`);
  }
  if (turn === null || turn === undefined) return s('g', {}); // over: the result is above the board
  return s('text', { x, y, class: 'to-move', 'data-field': 'to-move' }, `seat ${turn} to move`);
}

// A seat's token: a circle of class "token seatN" with data-square and
// data-piece (the seat); more attributes in `extra`.
export function token(cx, cy, r, seat, square, extra = {}) {
  return s('circle', { cx, cy, r, class: `token seat${seat}`, 'data-square': square, 'data-piece': seat, ...extra });
}
