// Race (snakes and ladders) as SVG from the engine's JSON view
// (docs/games.md "Race — snakes and ladders": end 49, jumps, positions,
// turn, last {seat, die, from, to}; the one move "roll" = 00).  A 7×7
// board, 1 at the bottom left snaking up to 49 at the top right (as the
// text board); every square a rect with data-square 1-49 and the start
// (off the board) data-square 0; ladders and snakes as lines; every token
// a circle with data-square (its square) and data-piece (the seat).
import { s } from './svg.js';
import { choice, die, statusLine, token } from './dice.js';

export const SEATS = [2, 4];
const CELL = 60;
const N = 7;

export function moveBytes(notation) {
  if (String(notation).trim() !== 'roll') throw new Error(`'${notation}' is not a race move (the only one is roll)`);
  return Uint8Array.of(0);
}

// Square 1-49 -> the top-left corner of its cell.
function cell(square) {
  const k = square - 1;
  const up = Math.floor(k / N);
  const col = up % 2 === 0 ? k % N : N - 1 - (k % N);
  return [col * CELL, (N - 1 - up) * CELL];
}

function spot(square, seat) {
  if (square === 0) return [20 + seat * 30, N * CELL + 30];
  const [x, y] = cell(square);
  return [x + 15 + 30 * (seat % 2), y + 32 + 16 * Math.floor(seat / 2)];
}

export function render(view, app, onMove = null) {
  const end = Number(view.end) || N * N;
  const jumps = Array.isArray(view.jumps) ? view.jumps : [];
  const kindOf = Object.fromEntries(jumps.map((j) => [j.from, j.kind]));
  const W = N * CELL;
  const H = N * CELL + 130;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board race', 'data-game': 'race',
    role: 'img', 'aria-label': 'snakes and ladders board' });
  const last = view.last || null;
  for (let q = 1; q <= end && q <= N * N; q++) {
    const [x, y] = cell(q);
    const cls = ['cell', (Math.floor((q - 1) / N) + q) % 2 ? 'dark' : 'light', kindOf[q] || '',
      last && last.to === q ? 'last' : ''];
    svg.append(s('rect', { x, y, width: CELL, height: CELL, 'data-square': q, class: cls.join(' ').replace(/ +/g, ' ').trim() }),
      s('text', { x: x + 4, y: y + 14, class: 'num' }, q === end ? `${q} end` : String(q)));
  }
  svg.append(s('rect', { x: 0, y: N * CELL + 12, width: 4 * 30 + 10, height: 36, 'data-square': 0, class: 'cell start' }),
    s('text', { x: 4 * 30 + 18, y: N * CELL + 35, class: 'num' }, 'start (off the board)'));
  for (const j of jumps) {
    const [x1, y1] = cell(j.from);
    const [x2, y2] = cell(j.to);
    svg.append(s('line', { x1: x1 + CELL / 2, y1: y1 + CELL / 2, x2: x2 + CELL / 2, y2: y2 + CELL / 2,
      class: `jump ${j.kind}`, 'data-from': j.from, 'data-to': j.to }));
  }
  (Array.isArray(view.positions) ? view.positions : []).forEach((sq, seat) => {
    const [cx, cy] = spot(sq, seat);
    svg.append(token(cx, cy, 10, seat, sq));
  });
  const y = N * CELL + 60;
  if (last) {
    const what = last.from + last.die > end ? `overshoot, stays on ${last.to}`
      : last.from + last.die !== last.to ? `${last.from} → ${last.from + last.die}, ${kindOf[last.from + last.die] || 'jump'} to ${last.to}`
        : `${last.from} → ${last.to}`;
    svg.append(die(0, y, 40, last.die), s('text', { x: 52, y: y + 26, 'data-field': 'last' },
      `seat ${last.seat} rolled ${last.die}: ${what}`));
  }
  if (view.turn !== null && view.turn !== undefined) svg.append(choice(W - 80, y + 3, 70, 34, 'roll', 'roll', app, onMove));
  svg.append(statusLine(0, y + 64, app, view.turn));
  return svg;
}
