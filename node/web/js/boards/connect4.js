// Connect-4 as SVG from the engine's JSON view (docs/games.md "Connect-4":
// rows top to bottom, '.' empty, X and O; notation the column 1-7, move
// byte the column 0-6).  Cells are named a1-g6 (file = column, rank 1 the
// bottom row, where discs land first).  Every disc is a <circle> with
// data-square and data-piece (X or O); the cell where a legal move's disc
// would land has class "legal"; when it is the player's turn every cell of
// a legal column is "playable" and a click on it drops a disc there.
import { s } from './svg.js';
import { cls, legalMoves, squareName } from './grid.js';

const COLS = 7;
const ROWS = 6;
const CELL = 60;

// "1".."7" -> the move byte (the column).
export function moveBytes(notation) {
  if (!/^[1-7]$/.test(String(notation))) throw new Error(`'${notation}' is not a connect-4 move (a column 1-7)`);
  return Uint8Array.of(Number(notation) - 1);
}

export function render(view, app, onMove = null) {
  const legal = new Set(legalMoves(app).filter((m) => /^[1-7]$/.test(m)));
  const rows = Array.isArray(view.rows) ? view.rows : [];
  const at = (c, rank) => { // rank 0 = bottom
    const row = rows[ROWS - 1 - rank];
    const ch = typeof row === 'string' ? row[c] : '.';
    return ch === 'X' || ch === 'O' ? ch : '.';
  };
  const svg = s('svg', { viewBox: `0 0 ${COLS * CELL} ${ROWS * CELL}`, width: COLS * CELL, height: ROWS * CELL,
    class: 'board connect4', 'data-game': 'connect4', role: 'img', 'aria-label': 'connect-4 board' });
  for (let c = 0; c < COLS; c++) {
    const col = String(c + 1);
    let land = -1; // the rank a disc dropped in this column lands on
    for (let rank = 0; rank < ROWS && land < 0; rank++) if (at(c, rank) === '.') land = rank;
    let top = -1; // the top disc of the column (the last move's, when it is this column)
    for (let rank = 0; rank < ROWS; rank++) if (at(c, rank) !== '.') top = rank;
    const canPlay = legal.has(col) && land >= 0;
    for (let rank = 0; rank < ROWS; rank++) {
      const square = squareName(c, rank);
      const x = c * CELL;
      const y = (ROWS - 1 - rank) * CELL;
      const rect = s('rect', { x, y, width: CELL, height: CELL, 'data-square': square, 'data-column': col,
        class: cls('cell', ['legal', canPlay && rank === land], ['last', view.last === col && rank === top],
          ['playable', onMove && canPlay]) });
      if (onMove && canPlay) rect.addEventListener('click', () => onMove(col));
      svg.append(rect);
      const p = at(c, rank);
      svg.append(p === '.' ? s('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, class: 'hole' })
        : s('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, 'data-square': square, 'data-piece': p,
          class: 'disc ' + p.toLowerCase() }));
    }
  }
  return svg;
}
