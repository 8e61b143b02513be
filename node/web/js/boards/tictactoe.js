// Tic-tac-toe as SVG from the engine's JSON view (docs/games.md
// "Tic-tac-toe": rows top to bottom, '.' empty; squares a1..c3 with rank 1
// the top row; notation 1-9 = cell + 1).  Every mark is a <g> with
// data-square and data-piece; every empty square a legal move for the
// seat to move gets class "legal".
import { s } from './svg.js';

const CELL = 100;

// Notation "1".."9" -> the move byte (the cell).
export function moveBytes(notation) {
  if (!/^[1-9]$/.test(notation)) throw new Error(`'${notation}' is not a tic-tac-toe move (1-9)`);
  return Uint8Array.of(Number(notation) - 1);
}

export function render(view, app, onMove = null) {
  const legal = new Set(app.legal_moves || []);
  const svg = s('svg', { viewBox: `0 0 ${3 * CELL} ${3 * CELL}`, width: 300, height: 300,
    class: 'board tictactoe', 'data-game': 'tictactoe', role: 'img',
    'aria-label': 'tic-tac-toe board' });
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const cell = 3 * r + c;
      const square = 'abc'[c] + (r + 1);
      const mark = (view.rows && view.rows[r] ? view.rows[r][c] : '.') || '.';
      const x = c * CELL;
      const y = r * CELL;
      const last = view.last === String(cell + 1);
      const isLegal = legal.has(String(cell + 1));
      const rect = s('rect', { x, y, width: CELL, height: CELL, 'data-square': square, 'data-cell': cell,
        class: ['cell', isLegal ? 'legal' : '', last ? 'last' : '', isLegal && onMove ? 'playable' : '']
          .join(' ').trim() });
      if (isLegal && onMove) rect.addEventListener('click', () => onMove(String(cell + 1)));
      svg.append(rect);
      if (mark === 'X') {
        svg.append(s('g', { 'data-square': square, 'data-piece': 'X', class: 'mark x' },
          s('line', { x1: x + 22, y1: y + 22, x2: x + 78, y2: y + 78 }),
          s('line', { x1: x + 78, y1: y + 22, x2: x + 22, y2: y + 78 })));
      } else if (mark === 'O') {
        svg.append(s('g', { 'data-square': square, 'data-piece': 'O', class: 'mark o' },
          s('circle', { cx: x + 50, cy: y + 50, r: 30 })));
      }
    }
  }
  return svg;
}
