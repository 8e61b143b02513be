// Board modules by engine name (docs/web.md §6): each exports
// render(view, app) returning an <svg>.  A game without a module shows the
// engine's text board.
import * as chess from './chess.js';
import * as tictactoe from './tictactoe.js';
import * as battleship from './battleship.js';
import * as rps from './rps.js';

const BOARDS = { tictactoe, chess, battleship, rps };

// Type codes of the games the page can start (docs/games.md's table).
export const GAME_TYPES = { tictactoe: 1, chess: 2, rps: 9 };

// The board's <svg>, or null for a game without a module.  onMove(notation)
// is called when the player clicks a legal move (null: not their turn);
// ctx is {address, seat} of the unlocked key (seat null: not seated).
export function boardFor(app, onMove = null, ctx = null) {
  const m = BOARDS[app.game];
  return m && app.view && typeof app.view === 'object' ? m.render(app.view, app, onMove, ctx) : null;
}

// The move bytes of a notation for the seat in ctx: a module whose moves
// carry secrets exports moveFor(app, notation, ctx) (docs/web.md §8).
export async function moveFor(app, notation, ctx) {
  const m = BOARDS[app.game];
  return m && m.moveFor ? m.moveFor(app, notation, ctx) : moveBytes(app.game, notation);
}

// The move the page sends by itself on ctx's turn (a module's
// autoMove(app, ctx): battleship's reveals and open, rps's reveal), or null.
export function autoMove(app, ctx) {
  const m = BOARDS[app.game];
  return m && m.autoMove ? m.autoMove(app, ctx) : null;
}

// The move bytes of a notation, for a game with a board module.
export function moveBytes(game, notation) {
  const m = BOARDS[game];
  if (!m || !m.moveBytes) throw new Error(`the page cannot encode ${game} moves yet`);
  return m.moveBytes(notation);
}
