// Battleship as SVG from the engine's JSON view (docs/games.md
// "Battleship": cells 0-99 = row × 10 + column, A1 = 0, J10 = 99; view
// cells '.' unshot, '?' pending, 'o' water, 'X' ship, '-'/'#' water/ship by
// the final open).  Two grids: the player's own fleet (from the secrets
// this browser keeps, js/secrets.js) with the shots at it, and the player's
// shots at the other seat, where the other fleet shows once revealed.
// Before seat 1's commitment the fleet grid places the fleet (random, a
// click selects a ship, a second click rotates it, a click on water moves
// it there).  The secret parts of the moves (docs/web.md §8) are filled in
// by moveFor; autoMove sends the final open and a reveal that is the whole
// turn, as the wallet's --auto-reveal does.
import { sha3_256 } from '../../node_modules/@noble/hashes/sha3.js';
import { s } from './svg.js';
import { h } from '../dom.js';
import { bytesToHex, concat, hexToBytes } from '../tx.js';
import * as secrets from '../secrets.js';

const N = 10;
const CELLS = 100;
const FLEET = [5, 4, 3, 3, 2];
const SHIP_CELLS = 17;
const C = 30; // cell size
const M = 22; // label margin
const GAP = 48;
const TOP = 26; // the grid titles
const REVEAL_MARGIN = 3; // the wallet's ZBC_BS_REVEAL_MARGIN: a reveal goes alone this close to the deadline

export function cellName(c) {
  return 'ABCDEFGHIJ'[Math.floor(c / N)] + String((c % N) + 1);
}

export function parseCell(text) {
  const m = /^([A-Ja-j])(10|[1-9])$/.exec(String(text).trim());
  if (!m) throw new Error(`'${text}' is not a battleship cell (A1 to J10)`);
  return (m[1].toUpperCase().charCodeAt(0) - 65) * N + Number(m[2]) - 1;
}

function cellHash(isShip, salt) {
  return sha3_256(concat(Uint8Array.of(isShip), salt));
}

// The 3200-byte commitment of a board (is_ship and salts as the secret
// file holds them, hex).
export function commitment(sec) {
  const ships = hexToBytes(sec.is_ship);
  const salts = hexToBytes(sec.salts);
  const out = new Uint8Array(32 * CELLS);
  for (let c = 0; c < CELLS; c++) out.set(cellHash(ships[c], salts.subarray(32 * c, 32 * c + 32)), 32 * c);
  return out;
}

function uniform(n) {
  const lim = Math.floor(0x100000000 / n) * n;
  const b = new Uint32Array(1);
  do crypto.getRandomValues(b); while (b[0] >= lim);
  return b[0] % n;
}

// A ship: {len, cell (its top-left), vertical}.
function shipCells(sh) {
  const out = [];
  for (let i = 0; i < sh.len; i++) out.push(sh.cell + (sh.vertical ? i * N : i));
  return out;
}

function fits(sh, others) {
  const r = Math.floor(sh.cell / N);
  const c = sh.cell % N;
  if (sh.vertical ? r + sh.len > N : c + sh.len > N) return false;
  const taken = new Set(others.flatMap(shipCells));
  return shipCells(sh).every((x) => !taken.has(x));
}

export function randomFleet() {
  const ships = [];
  for (const len of FLEET) {
    for (;;) {
      const sh = { len, cell: uniform(CELLS), vertical: uniform(2) === 1 };
      if (fits(sh, ships)) {
        ships.push(sh);
        break;
      }
    }
  }
  return ships;
}

// A fleet's ships from its 17 cells, or null when the cells are not the
// fleet (the engine's zbc_battleship_check_fleet: straight ships of 5, 4,
// 3, 3 and 2 cells, not overlapping, touching allowed).  Touching ships
// can be split more than one way: the lowest free ship cell starts a ship
// going right or down, every length still wanted is tried (backtracking).
function shipsOf(isShip) {
  if (isShip.reduce((a, b) => a + b, 0) !== SHIP_CELLS) return null;
  const used = new Uint8Array(CELLS);
  const ships = [];
  const split = (left) => {
    let c = 0;
    while (c < CELLS && (!isShip[c] || used[c])) c++;
    if (c === CELLS) return left.length === 0;
    for (const len of [...new Set(left)]) {
      for (const vertical of [false, true]) {
        const sh = { len, cell: c, vertical };
        const r = Math.floor(c / N);
        if (vertical ? r + len > N : c % N + len > N) continue;
        const cells = shipCells(sh);
        if (!cells.every((x) => isShip[x] && !used[x])) continue;
        cells.forEach((x) => { used[x] = 1; });
        ships.push(sh);
        const rest = left.slice();
        rest.splice(rest.indexOf(len), 1);
        if (split(rest)) return true;
        ships.pop();
        cells.forEach((x) => { used[x] = 0; });
      }
    }
    return false;
  };
  return split(FLEET) ? ships : null;
}

// Placement in progress, by app id (survives the re-renders of the page).
const placing = new Map();

function mySeat(ctx) {
  return ctx && Number.isInteger(ctx.seat) ? ctx.seat : null;
}

function history(app) {
  return (app.history || []).filter((e) => e.kind === 'app_move' && typeof e.move_hex === 'string');
}

// The commitment seat `seat` made on chain (hex), or null: seat 0's are
// the CreateApp params, seat 1's its first move (tag 3).
function chainCommitment(app, seat) {
  if (seat === 0) return app.params_hex && app.params_hex.length === 6400 ? app.params_hex : null;
  const e = history(app).find((x) => x.move_hex.length === 6402 && x.move_hex.startsWith('03'));
  return e ? e.move_hex.slice(2) : null;
}

// The stored secret of this seat, checked against its commitment on chain;
// null when this browser has none.
function mySecret(app, ctx) {
  const sec = secrets.load(ctx.address, app.id);
  if (!sec) return null;
  const onChain = chainCommitment(app, ctx.seat);
  if (onChain && bytesToHex(commitment(sec)) !== onChain) {
    throw new Error(`the fleet stored in this browser for app ${app.id} is not the one seat ${ctx.seat} committed`);
  }
  return sec;
}

function needSecret(app, ctx) {
  const sec = mySecret(app, ctx);
  if (!sec) throw new Error(secrets.lostText('fleet', app.id));
  return sec;
}

function cellSecret(sec, c) {
  return concat(Uint8Array.of(hexToBytes(sec.is_ship.slice(2 * c, 2 * c + 2))[0]),
    hexToBytes(sec.salts.slice(64 * c, 64 * c + 64)));
}

// The secret of a fleet given by its 17 cells: `stored` when it is the
// same fleet (a retry after a lost answer keeps the salts already stored),
// else the fleet with 100 new random salts; throws when the cells are not
// the fleet.
function fleetSecret(cellList, stored) {
  const cells = [...new Set(cellList)];
  if (cells.length !== SHIP_CELLS) throw new Error(`a fleet is ${SHIP_CELLS} distinct cells, got ${cells.length}`);
  const isShip = new Uint8Array(CELLS);
  cells.forEach((c) => { isShip[c] = 1; });
  if (!shipsOf(isShip)) throw new Error('the cells are not the fleet of ships of 5, 4, 3, 3 and 2 cells');
  if (stored && stored.is_ship === bytesToHex(isShip)) return stored;
  return { game: 'battleship', is_ship: bytesToHex(isShip),
    salts: bytesToHex(crypto.getRandomValues(new Uint8Array(32 * CELLS))) };
}

// The move bytes of a notation for the seat in ctx, the secret parts
// filled in from this browser's store (docs/games.md "Moves"):
// "commit A1,A2,…" (17 cells: draws the salts, stores the fleet, 3201
// bytes), "fire B7" (with the pending reveal: tag 2), "reveal", "open".
export async function moveFor(app, notation, ctx) {
  const words = String(notation).trim().split(/\s+/);
  const view = app.view || {};
  if (words[0] === 'commit' && words.length === 2) {
    // never replace the secret of a board already on chain
    if (chainCommitment(app, ctx.seat)) throw new Error(`seat ${ctx.seat} already committed its board in app ${app.id}`);
    const stored = secrets.load(ctx.address, app.id);
    const sec = fleetSecret(words[1].split(',').map(parseCell), stored);
    if (sec !== stored) secrets.save(ctx.address, app.id, sec);
    return concat(Uint8Array.of(3), commitment(sec));
  }
  if (words[0] === 'fire' && words.length === 2) {
    const cell = parseCell(words[1]);
    if (view.awaiting === 'reveal' && view.turn === ctx.seat && view.pending) {
      return concat(Uint8Array.of(2), cellSecret(needSecret(app, ctx), view.pending.cell), Uint8Array.of(cell));
    }
    return Uint8Array.of(0, cell);
  }
  if (notation === 'reveal') {
    if (!view.pending) throw new Error('nothing to reveal');
    return concat(Uint8Array.of(1), cellSecret(needSecret(app, ctx), view.pending.cell));
  }
  if (notation === 'open') {
    const sec = needSecret(app, ctx);
    const parts = [Uint8Array.of(4)];
    for (let c = 0; c < CELLS; c++) parts.push(cellSecret(sec, c));
    return concat(...parts);
  }
  throw new Error(`'${notation}' is not a battleship move the page sends (commit CELLS, fire B7, reveal, open)`);
}

export function moveBytes() {
  throw new Error('battleship moves carry secrets: the page builds them with moveFor');
}

// The move the page sends by itself on its turn (the wallet's
// --auto-reveal, docs/wallet.md "Battleship"), or null: the final open; a
// reveal after which the turn is not this seat's (the 17th hit on its
// board); a reveal alone when REVEAL_MARGIN blocks or fewer are left.  Any
// other reveal goes with the player's next shot (tag 2).
export function autoMove(app, ctx) {
  const view = app.view || {};
  const me = mySeat(ctx);
  if (me === null || view.turn !== me) return null;
  if (!mySecret(app, ctx)) return null;
  if (view.awaiting === 'open') return 'open';
  if (view.awaiting !== 'reveal' || !view.pending) return null;
  const sec = mySecret(app, ctx);
  const ship = sec.is_ship.slice(2 * view.pending.cell, 2 * view.pending.cell + 2) === '01';
  const board = view.boards[me];
  if (ship && board.ship_hits + 1 >= SHIP_CELLS) return 'reveal';
  if (!view.boards[1 - me].cells.includes('.')) return 'reveal'; // no cell left to fire at
  if (app.blocks_left !== null && app.blocks_left !== undefined && app.blocks_left <= REVEAL_MARGIN) return 'reveal';
  return null;
}

// The last shot: [target seat, cell], or null.
function lastShot(app) {
  const moves = history(app);
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i].move_hex;
    if ((m.startsWith('00') && m.length === 4) || (m.startsWith('02') && m.length === 70)) {
      return [1 - moves[i].seat, parseInt(m.slice(-2), 16)];
    }
  }
  return null;
}

const MARK = { X: 'hit', '?': 'pending', o: 'miss' };

function grid(ox, title, board, cells, ships, opts) {
  const g = s('g', { 'data-board': board, class: 'grid ' + board });
  g.append(s('text', { x: ox, y: 16, class: 'title' }, title));
  const oy = TOP + M;
  for (let i = 0; i < N; i++) {
    g.append(s('text', { x: ox + M + i * C + C / 2, y: oy - 6, 'text-anchor': 'middle', class: 'label' }, String(i + 1)));
    g.append(s('text', { x: ox + M / 2, y: oy + i * C + C * 0.68, 'text-anchor': 'middle', class: 'label' }, 'ABCDEFGHIJ'[i]));
  }
  for (let c = 0; c < CELLS; c++) {
    const x = ox + M + (c % N) * C;
    const y = oy + Math.floor(c / N) * C;
    const name = cellName(c);
    const ch = cells[c] || '.';
    const legal = opts.legal.has(c);
    const rect = s('rect', { x, y, width: C, height: C, 'data-square': name, 'data-cell': c,
      class: ['cell', legal ? 'legal' : '', legal && opts.onCell ? 'playable' : '', opts.last === c ? 'last' : '',
        opts.selected && opts.selected.includes(c) ? 'selected' : ''].join(' ').replace(/ +/g, ' ').trim() });
    if (opts.onCell) rect.addEventListener('click', () => opts.onCell(c));
    g.append(rect);
    if (ships.has(c) || ch === 'X' || ch === '#') {
      g.append(s('rect', { x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 4, 'data-square': name,
        'data-piece': 'ship', 'data-ship': opts.shipOf ? opts.shipOf.get(c) : null,
        class: 'ship' + (ch === 'X' ? ' hit' : '') }));
    }
    if (MARK[ch] === 'hit') {
      g.append(s('g', { 'data-square': name, 'data-piece': 'hit', class: 'shot hit' },
        s('line', { x1: x + 8, y1: y + 8, x2: x + C - 8, y2: y + C - 8 }),
        s('line', { x1: x + C - 8, y1: y + 8, x2: x + 8, y2: y + C - 8 })));
    } else if (MARK[ch]) {
      g.append(s('circle', { cx: x + C / 2, cy: y + C / 2, r: MARK[ch] === 'miss' ? 4 : 7, 'data-square': name,
        'data-piece': MARK[ch], class: 'shot ' + MARK[ch] }));
    }
  }
  return g;
}

function svgOf(fleetGrid, shotsGrid = null) {
  const w = (shotsGrid ? 2 * (M + N * C) + GAP : M + N * C) + 4;
  const svg = s('svg', { viewBox: `0 0 ${w} ${TOP + M + N * C + 4}`, width: w, height: TOP + M + N * C + 4,
    class: 'board battleship', 'data-game': 'battleship', role: 'img', 'aria-label': 'battleship grids' });
  svg.append(fleetGrid);
  if (shotsGrid) svg.append(shotsGrid);
  return svg;
}

// A fleet being placed, kept in `placing` under `key` (an app id, or
// CREATE_KEY for the wallet page's "Start a game"): the fleet grid (a click
// selects a ship, a second click turns it, a click on water moves it
// there) beside `other` (a grid, or none), the Random fleet button and,
// with `commit`, a button giving it the sorted ship cells.
function fleetEditor(key, { title, other = null, note = null, commit = null }) {
  const wrap = h('div', { class: 'battleship-wrap' });
  if (!placing.has(key)) placing.set(key, randomFleet());
  let sel = null;
  const status = h('span', { class: 'muted', 'data-field': 'fleet-note' }, note ||
    'place your fleet: a click selects a ship, a second click turns it, a click on water moves it there');
  const draw = () => {
    const ships = placing.get(key);
    const cells = new Set(ships.flatMap(shipCells));
    const shipOf = new Map(ships.flatMap((x, i) => shipCells(x).map((c) => [c, i])));
    const onCell = (c) => {
      const at = ships.findIndex((x) => shipCells(x).includes(c));
      if (at >= 0 && at === sel) {
        const turned = { ...ships[at], vertical: !ships[at].vertical };
        if (fits(turned, ships.filter((_, i) => i !== at))) ships[at] = turned;
        else status.textContent = 'that ship cannot turn there: ships stay inside the grid and do not overlap';
      } else if (at >= 0) {
        sel = at;
      } else if (sel !== null) {
        const moved = { ...ships[sel], cell: c };
        if (fits(moved, ships.filter((_, i) => i !== sel))) ships[sel] = moved;
        else status.textContent = `the ship of ${ships[sel].len} does not fit at ${cellName(c)}`;
      }
      draw();
    };
    const all = new Set([...Array(CELLS).keys()]);
    const fleet = grid(0, title, 'fleet', '', cells,
      { legal: all, onCell, shipOf, selected: sel === null ? null : shipCells(ships[sel]) });
    wrap.replaceChildren(svgOf(fleet, other), h('p', { class: 'fleet-controls' },
      h('button', { id: 'bs-random', type: 'button', onclick: () => { placing.set(key, randomFleet()); sel = null; draw(); } },
        'Random fleet'), ' ',
      commit ? [h('button', { id: 'bs-commit', type: 'button', onclick: () => commit([...cells].sort((a, b) => a - b)) },
        'Commit this fleet'), ' '] : null, status));
  };
  draw();
  return wrap;
}

// Fleet placement before this seat's commitment: the fleet being placed
// beside the shots grid; Commit sends it.
function placement(view, app, onMove, ctx, note) {
  const shots = grid(M + N * C + GAP, `your shots at seat ${1 - ctx.seat}`, 'shots', view.boards[1 - ctx.seat].cells,
    new Set(), { legal: new Set() });
  return fleetEditor(app.id, { title: 'your fleet (not committed yet)', other: shots, note,
    commit: (cells) => onMove('commit ' + cells.map(cellName).join(',')) });
}

// Creating a game (the wallet page's "Start a game", docs/web.md §4): the
// creator is seat 0 and its board commitment is the CreateApp params.
const CREATE_KEY = 'create';

// The fleet placement shown by the "Start a game" form for battleship.
export function createPicker() {
  return fleetEditor(CREATE_KEY, { title: 'your fleet (committed by Create, in the params)' });
}

// The secret of the fleet placed in createPicker, with 100 new salts, and
// its commitment (the params): the wallet page stores the secret under the
// new app id before it posts the CreateApp.
export function createSecret() {
  const ships = placing.get(CREATE_KEY) || randomFleet();
  const sec = fleetSecret(ships.flatMap(shipCells), null);
  return { secret: sec, params: commitment(sec) };
}

export function render(view, app, onMove = null, ctx = null) {
  const me = mySeat(ctx);
  const wrap = h('div', { class: 'battleship-wrap' });
  if (!view.boards) return wrap;
  if (me !== null && view.phase === 'commit' && view.turn === me && onMove) {
    let note = null;
    if (!placing.has(app.id)) {
      let stored = null;
      try {
        stored = secrets.load(ctx.address, app.id);
      } catch (e) {
        note = e.message;
      }
      const ships = stored ? shipsOf(hexToBytes(stored.is_ship)) : null;
      placing.set(app.id, ships || randomFleet());
    }
    return placement(view, app, onMove, ctx, note);
  }
  const notes = [];
  let sec = null;
  if (me !== null) {
    try {
      sec = mySecret(app, ctx);
      if (!sec && chainCommitment(app, me)) {
        notes.push(h('p', { class: 'error', 'data-field': 'secret-lost' }, secrets.lostText('fleet', app.id)));
        if (app.status === 'active') {
          notes.push(secrets.importForm(app, ctx, (got) => {
            if (bytesToHex(commitment(got)) !== chainCommitment(app, me)) {
              throw new Error(`that file is not the fleet seat ${me} committed in app ${app.id}`);
            }
          }, () => wrap.replaceWith(render(view, app, onMove, ctx))));
        }
      }
    } catch (e) {
      notes.push(h('p', { class: 'error', 'data-field': 'secret-lost' }, e.message));
    }
  }
  const own = me === null ? 0 : me;
  const other = 1 - own;
  const ships = new Set();
  if (sec) for (let c = 0; c < CELLS; c++) if (sec.is_ship.slice(2 * c, 2 * c + 2) === '01') ships.add(c);
  const last = lastShot(app);
  const toMove = view.turn;
  const fireNow = me !== null && toMove === me && onMove && (view.awaiting === 'fire' ||
    (view.awaiting === 'reveal' && sec !== null && autoMove(app, ctx) === null));
  const legal = new Set();
  for (const m of app.legal_moves || []) {
    const w = /^fire\s+(\S+)$/.exec(m);
    if (w && toMove === other) legal.add(parseCell(w[1]));
  }
  const targets = new Set();
  if (fireNow) {
    [...view.boards[other].cells].forEach((ch, c) => { if (ch === '.') targets.add(c); });
  } else if (toMove === own) {
    for (const m of app.legal_moves || []) {
      const w = /^fire\s+(\S+)$/.exec(m);
      if (w) targets.add(parseCell(w[1]));
    }
  }
  const fleet = grid(0, me === null ? 'seat 0\'s board' : `your fleet (seat ${me})`, 'fleet',
    view.boards[own].cells, ships, { legal, last: last && last[0] === own ? last[1] : null });
  const shots = grid(M + N * C + GAP, me === null ? 'seat 1\'s board' : `your shots at seat ${other}`, 'shots',
    view.boards[other].cells, new Set(),
    { legal: targets, last: last && last[0] === other ? last[1] : null,
      onCell: fireNow ? (c) => { if (targets.has(c)) onMove('fire ' + cellName(c)); } : null });
  const words = [];
  if (view.phase === 'over') words.push(view.reason || '');
  else if (fireNow && view.awaiting === 'reveal') {
    words.push(`click a cell to fire: the reveal of ${view.pending.name} goes with your shot`);
  } else if (fireNow) words.push('click a cell to fire');
  else if (toMove !== null && toMove !== undefined) words.push(`seat ${toMove} to ${view.awaiting}`);
  wrap.append(svgOf(fleet, shots), h('p', { class: 'muted', 'data-field': 'battleship-state' },
    `hits on ${me === null ? 'seat 0' : 'your fleet'}: ${view.boards[own].ship_hits} of 17; ` +
    `hits on seat ${other}: ${view.boards[other].ship_hits} of 17. `, words), ...notes);
  return wrap;
}
