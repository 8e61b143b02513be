// What the grid boards share (docs/web.md §6): square names like a1 (file
// letter = column, rank = row + 1, as apps/notation.h writes them), class
// lists, and the click selection of a move that visits several squares
// (chess from → to, lines from → to, checkers' multi-jumps).
import { s } from './svg.js';

// Column c (0-based) and row r (0-based) -> "a1"-style name.
export function squareName(c, r) {
  return String.fromCharCode(97 + c) + (r + 1);
}

// "c3" -> the cell row × size + column on a size × size board; throws
// naming the text when it is not a square of that board.
export function squareCell(text, size, game) {
  const m = /^([a-z])([1-9][0-9]?)$/.exec(String(text).toLowerCase());
  const c = m ? m[1].charCodeAt(0) - 97 : -1;
  const r = m ? Number(m[2]) - 1 : -1;
  if (!m || c >= size || r >= size) throw new Error(`'${text}' is not a ${game} square (a1-${squareName(size - 1, size - 1)})`);
  return r * size + c;
}

// app.legal_moves as a list of strings (anything else in it is dropped).
export function legalMoves(app) {
  return Array.isArray(app.legal_moves) ? app.legal_moves.filter((m) => typeof m === 'string') : [];
}

// A class list: cls('cell', ['legal', isLegal], ['last', isLast]) is
// "cell legal" when only isLegal is true (plain names always count).
export function cls(...pairs) {
  return pairs.filter((p) => (Array.isArray(p) ? p[1] : p)).map((p) => (Array.isArray(p) ? p[0] : p)).join(' ');
}

// The position a selection belongs to (picker's key): the app, its move
// count, whether a dice move is pending, and which board of it.
export function positionKey(app, board = '') {
  return app && app.id !== undefined ? `${app.id}:${app.moves}:${!!app.has_pending}:${board}` : null;
}

// Click selection on `area` (an element holding rects with data-square,
// `rects` {square: rect}): `moves` [{path: [square, …], notation}].  A
// click on a square where a move starts selects it (class "selected") and
// marks the squares that continue some move "target"; a click on a target
// extends the path, and when the path is a whole move onMove(notation) is
// called.  Any other click clears the selection.  No legal move is a strict
// prefix of another in the games using it (a checkers capture runs to its
// end), so the first whole match is the move.
//
// The page redraws the app on every event of its stream (main.js), and an
// event may arrive between a player's two clicks (a late event of the move
// before).  `key` names the position (positionKey above): a
// selection made on a board with the same key and still a prefix of one of
// its moves is carried over to the redrawn board, so the redraw does not
// drop it.  Only the last selection is kept; a new position starts empty.
let held = { key: null, path: [] };
export function picker(area, rects, moves, onMove, key = null) {
  const starts = new Set(moves.map((m) => m.path[0]));
  let path = [];
  const prefix = (m) => m.path.length > path.length && path.every((sq, i) => m.path[i] === sq);
  const next = () => new Set(path.length ? moves.filter(prefix).map((m) => m.path[path.length]) : []);
  const mark = () => {
    if (key !== null) held = { key, path };
    const targets = next();
    for (const [sq, rect] of Object.entries(rects)) {
      rect.classList.toggle('selected', path.includes(sq));
      rect.classList.toggle('target', targets.has(sq));
    }
  };
  area.addEventListener('click', (ev) => {
    const el = ev.target && ev.target.closest ? ev.target.closest('[data-square]') : null;
    const sq = el ? el.getAttribute('data-square') : null;
    if (sq === null || !(sq in rects)) return;
    if (next().has(sq)) {
      path = path.concat([sq]);
      const whole = moves.find((m) => m.path.length === path.length && m.path.every((s, i) => s === path[i]));
      if (whole) {
        path = [];
        mark();
        onMove(whole.notation);
        return;
      }
      mark();
      return;
    }
    path = starts.has(sq) ? [sq] : [];
    mark();
  });
  if (key !== null && held.key === key && held.path.length) {
    path = held.path.slice();
    if (moves.some(prefix)) mark();
    else path = [];
  }
}

// A square board of n × n cells with one-click moves onto a square
// (reversi, gomoku): o = {game, label, n, cell (px), rank1Top (rows[0] is
// rank 1, drawn at the top; else rows[0] is rank n), pieces {char:
// class}, lines (draw the grid through the cells' centres, go-style)}.
// view.rows holds one string per row, '.' empty; view.last the last
// move's square.  Every piece is a <circle> with data-square and
// data-piece; a square that is a legal move has class "legal" (and
// "playable", with a click sending it, when onMove is set).
export function discBoard(view, app, onMove, o) {
  const { n, cell } = o;
  const legal = new Set(legalMoves(app));
  const rows = Array.isArray(view.rows) ? view.rows : [];
  const svg = s('svg', { viewBox: `0 0 ${n * cell} ${n * cell}`, width: n * cell, height: n * cell,
    class: 'board ' + o.game, 'data-game': o.game, role: 'img', 'aria-label': o.label });
  for (let i = 0; o.lines && i < n; i++) {
    const a = cell / 2 + i * cell;
    svg.append(s('line', { x1: cell / 2, y1: a, x2: n * cell - cell / 2, y2: a, class: 'grid' }),
      s('line', { x1: a, y1: cell / 2, x2: a, y2: n * cell - cell / 2, class: 'grid' }));
  }
  for (let row = 0; row < n; row++) {
    for (let c = 0; c < n; c++) {
      const square = squareName(c, o.rank1Top ? row : n - 1 - row);
      const x = c * cell;
      const y = row * cell;
      const ok = legal.has(square);
      const rect = s('rect', { x, y, width: cell, height: cell, 'data-square': square,
        class: cls('cell', ['legal', ok], ['last', view.last === square], ['playable', onMove && ok]) });
      if (onMove && ok) rect.addEventListener('click', () => onMove(square));
      svg.append(rect);
      const p = typeof rows[row] === 'string' ? rows[row][c] : '.';
      if (Object.hasOwn(o.pieces, p)) {
        svg.append(s('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.41, 'data-square': square,
          'data-piece': p, class: 'piece ' + o.pieces[p] }));
      }
    }
  }
  return svg;
}
