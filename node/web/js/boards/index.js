// Board modules by engine name (docs/web.md §6): each exports
// render(view, app) returning an <svg>.  A game without a module shows the
// engine's text board.
import * as chess from './chess.js';
import * as ludo from './ludo.js';
import * as monopoly from './monopoly.js';
import * as pig from './pig.js';
import * as race from './race.js';
import * as tictactoe from './tictactoe.js';
import * as connect4 from './connect4.js';
import * as checkers from './checkers.js';
import * as reversi from './reversi.js';
import * as gomoku from './gomoku.js';
import * as dots from './dots.js';
import * as lines from './lines.js';
import * as bet from './bet.js';
import * as blackjack from './blackjack.js';
import * as crash from './crash.js';
import * as hilo from './hilo.js';
import * as mines from './mines.js';
import * as tower from './tower.js';
import * as battleship from './battleship.js';
import * as rps from './rps.js';

// bets and crash draw from the app itself (no engine view: `viewless`);
// they are created by the wallet page's "Place a bet" form, not "Start a game"
const BOARDS = { tictactoe, chess, battleship, rps, connect4, checkers, reversi, gomoku, dots, lines,
  ludo, pig, race, monopoly,
  mines, tower, hilo, blackjack, crash, dice: bet, coin: bet, roulette: bet,
  limbo: bet, plinko: bet, keno: bet, wheel: bet, baccarat: bet, blitz: bet };

// Type codes of the games the page can start (docs/games.md's table).
export const GAME_TYPES = { tictactoe: 1, chess: 2, connect4: 3, checkers: 4, reversi: 5, gomoku: 6, battleship: 7, dots: 8,
  rps: 9, lines: 10,
  ludo: 32, pig: 33, race: 34, monopoly: 35 };

// The board's <svg>, or null for a game without a module.  onMove(notation)
// is called when the player clicks a legal move (null: not their turn);
// ctx is {address, seat} of the unlocked key (seat null: not seated).
export function boardFor(app, onMove = null, ctx = null) {
  const m = BOARDS[app.game];
  return m && (m.viewless || (app.view && typeof app.view === 'object')) ? m.render(app.view, app, onMove, ctx) : null;
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

// [fewest, most] seats of a game (docs/games.md's table): a module's
// SEATS, else two.
export function seatRange(game) {
  const m = BOARDS[game];
  return m && m.SEATS ? m.SEATS : [2, 2];
}

// The module of a game whose creator commits a secret in the CreateApp
// params (createPicker() and createSecret() → {secret, params}:
// battleship's board), or null.
export function creatorSecret(game) {
  const m = BOARDS[game];
  return m && m.createPicker && m.createSecret ? m : null;
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
