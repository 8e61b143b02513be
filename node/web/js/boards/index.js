// Board modules by engine name (docs/web.md §6): each exports
// render(view, app) returning an <svg>.  A game without a module shows the
// engine's text board.
import * as chess from './chess.js';
import * as ludo from './ludo.js';
import * as monopoly from './monopoly.js';
import * as pig from './pig.js';
import * as race from './race.js';
import * as tictactoe from './tictactoe.js';

const BOARDS = { tictactoe, chess, ludo, pig, race, monopoly };

// Type codes of the games the page can start (docs/games.md's table).
export const GAME_TYPES = { tictactoe: 1, chess: 2, ludo: 32, pig: 33, race: 34, monopoly: 35 };

// The board's <svg>, or null for a game without a module.  onMove(notation)
// is called when the player clicks a legal move (null: not their turn).
export function boardFor(app, onMove = null) {
  const m = BOARDS[app.game];
  return m && app.view && typeof app.view === 'object' ? m.render(app.view, app, onMove) : null;
}

// The move bytes of a notation, for a game with a board module.
export function moveBytes(game, notation) {
  const m = BOARDS[game];
  if (!m || !m.moveBytes) throw new Error(`the page cannot encode ${game} moves yet`);
  return m.moveBytes(notation);
}

// [fewest, most] seats of a game (docs/games.md's table): a module's
// SEATS, else two.
export function seatRange(game) {
  const m = BOARDS[game];
  return m && m.SEATS ? m.SEATS : [2, 2];
}

// Whether a game takes named CreateApp params (a module's paramWord).
export function hasParams(game) {
  return Boolean(BOARDS[game] && BOARDS[game].paramWord);
}

// CreateApp params from text, read as `zbc app create --params` reads them
// (apps/engine.c:zbc_engine_params_from_text, docs/games.md "What every
// engine provides"): no text is no bytes, text without '=' is hex,
// otherwise key=value words separated by commas or blanks, each given to
// the module's paramWord(key, value, out) (returns the length).  Whether
// the bytes are acceptable stays the chain's decision.
const NAMED_MAX = 16;
export function paramsBytes(game, text) {
  const t = String(text || '').trim();
  if (t === '') return new Uint8Array(0);
  if (!t.includes('=')) {
    if (!/^([0-9a-fA-F]{2})*$/.test(t)) throw new Error(`params '${t.slice(0, 40)}' are neither hex nor key=value words`);
    return Uint8Array.from(t.match(/../g) || [], (b) => parseInt(b, 16));
  }
  const m = BOARDS[game];
  if (!m || !m.paramWord) throw new Error(`${game} has no named params (give them as hex)`);
  const out = new Uint8Array(NAMED_MAX);
  let len = 0;
  for (const w of t.split(/[ ,]+/).filter(Boolean)) {
    const eq = w.indexOf('=');
    if (eq <= 0) throw new Error(`param '${w.slice(0, 40)}' is not key=value`);
    len = m.paramWord(w.slice(0, eq), w.slice(eq + 1), out);
  }
  return out.slice(0, len);
}
