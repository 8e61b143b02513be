// Reversi as SVG from the engine's JSON view (docs/games.md "Reversi": rows
// rank 1 first, drawn at the top as on an Othello board; '.' empty, B and W;
// squares a1-h8, move byte the cell row × 8 + column).  Every disc is a
// <circle> with data-square and data-piece (B or W); every legal move's
// square has class "legal" (and "playable", with a click sending it, on the
// player's turn).  Passes are automatic (the engine's): no pass button.
import { discBoard, squareCell } from './grid.js';

const N = 8;

export function moveBytes(notation) {
  return Uint8Array.of(squareCell(notation, N, 'reversi'));
}

export function render(view, app, onMove = null) {
  return discBoard(view, app, onMove, { game: 'reversi', label: 'reversi board', n: N, cell: 56,
    rank1Top: true, lines: false, pieces: { B: 'black', W: 'white' } });
}
