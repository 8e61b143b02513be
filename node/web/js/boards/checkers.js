// Checkers as SVG from the engine's JSON view (docs/games.md "Checkers":
// `squares[n - 1]` is dark square n, 1-32 numbered from white's side with
// 1-4 on the top row; b/w men, B/W kings, '.' empty).  Drawn as the
// numbering diagram: black (moving first, towards higher numbers) at the
// top.  Every dark square is a <rect> with data-square (its number), every
// piece a <g> with data-square and data-piece (b, w, B or W); squares where
// a legal move starts are "legal", the squares of the last move "last".
// Playing: a click on a legal start selects it and marks the squares that
// continue a legal move "target"; each click on a target extends the path
// (a multi-jump is one click per landing square), and the move is sent
// when the path is a whole legal move ("11-15", "11x18x25").
import { s } from './svg.js';
import { cls, legalMoves, picker, positionKey } from './grid.js';

const SQ = 56;

// Square n (1-32) -> [column, row] on the 8×8 board (row 0 at the top).
function place(n) {
  const i = n - 1;
  const r = Math.floor(i / 4);
  return [r % 2 === 0 ? 2 * (i % 4) + 1 : 2 * (i % 4), r];
}

// "11-15" or "11x18x25" (an upper-case X too) -> the squares' numbers.
function squares(notation) {
  const t = String(notation);
  const m = /^([1-9][0-9]?)((?:[-xX][1-9][0-9]?)+)$/.exec(t);
  if (!m) throw new Error(`'${notation}' is not a checkers move like 11-15 or 11x18x25`);
  const seps = new Set(m[2].match(/[-xX]/g).map((c) => c.toLowerCase()));
  const list = t.split(/[-xX]/).map(Number);
  if (seps.size !== 1) throw new Error(`'${notation}' mixes separators (all '-' or all 'x')`);
  if (seps.has('-') && list.length !== 2) throw new Error(`'${notation}': '-' joins exactly two squares`);
  if (list.length > 16) throw new Error(`'${notation}' visits more than 16 squares`);
  for (const n of list) if (n < 1 || n > 32) throw new Error(`'${notation}': square ${n} is not 1-32`);
  return list;
}

// The move bytes: one byte per square visited (docs/games.md "Moves").
export function moveBytes(notation) {
  return Uint8Array.from(squares(notation));
}

export function render(view, app, onMove = null) {
  const moves = [];
  for (const m of legalMoves(app)) {
    try {
      moves.push({ path: squares(m).map(String), notation: m });
    } catch (e) {
      // not a checkers move: nothing to offer for it
    }
  }
  const starts = new Set(moves.map((m) => m.path[0]));
  let last = [];
  try {
    last = typeof view.last_move === 'string' ? squares(view.last_move).map(String) : [];
  } catch (e) {
    last = [];
  }
  const cells = typeof view.squares === 'string' ? view.squares : '';
  const svg = s('svg', { viewBox: `0 0 ${8 * SQ} ${8 * SQ}`, width: 8 * SQ, height: 8 * SQ,
    class: 'board checkers', 'data-game': 'checkers', role: 'img', 'aria-label': 'checkers board' });
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      if ((r + c) % 2 === 0) svg.append(s('rect', { x: c * SQ, y: r * SQ, width: SQ, height: SQ, class: 'cell light' }));
    }
  }
  const rects = {};
  for (let n = 1; n <= 32; n++) {
    const [c, r] = place(n);
    const sq = String(n);
    const x = c * SQ;
    const y = r * SQ;
    const rect = s('rect', { x, y, width: SQ, height: SQ, 'data-square': sq,
      class: cls('cell', 'dark', ['legal', starts.has(sq)], ['last', last.includes(sq)],
        ['playable', onMove && starts.has(sq)]) });
    rects[sq] = rect;
    svg.append(rect, s('text', { x: x + 4, y: y + 13, class: 'number' }, sq));
    const p = cells[n - 1];
    if (p === 'b' || p === 'w' || p === 'B' || p === 'W') {
      const side = p.toLowerCase() === 'b' ? 'black' : 'white';
      svg.append(s('g', { 'data-square': sq, 'data-piece': p, class: 'piece ' + side + (p === p.toUpperCase() ? ' king' : '') },
        s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.38 }),
        p === p.toUpperCase() ? s('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.18, class: 'crown' }) : null));
    }
  }
  if (onMove) picker(svg, rects, moves, onMove, positionKey(app));
  return svg;
}
