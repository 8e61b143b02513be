// Gomoku as SVG from the engine's JSON view (docs/games.md "Gomoku": rows
// from rank 15 down to rank 1, '.' empty, X and O; squares a1-o15, file =
// column, rank 1 at the bottom; move byte the cell row × 15 + column).
// Every stone is a <circle> with data-square and data-piece (X or O);
// every empty cell that is a legal move has class "legal" (and
// "playable", with a click sending it, on the player's turn).
import { discBoard, squareCell } from './grid.js';

const N = 15;

export function moveBytes(notation) {
  return Uint8Array.of(squareCell(notation, N, 'gomoku'));
}

export function render(view, app, onMove = null) {
  return discBoard(view, app, onMove, { game: 'gomoku', label: 'gomoku board', n: N, cell: 32,
    rank1Top: false, lines: true, pieces: { X: 'x', O: 'o' } });
}
