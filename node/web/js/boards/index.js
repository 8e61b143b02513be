// Board modules by engine name (docs/web.md §6): each exports
// render(view, app) returning an <svg>.  A game without a module shows the
// engine's text board.
import * as tictactoe from './tictactoe.js';

const BOARDS = { tictactoe };

export function boardFor(app) {
  const m = BOARDS[app.game];
  return m && app.view && typeof app.view === 'object' ? m.render(app.view, app) : null;
}
