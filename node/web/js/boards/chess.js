// Chess as SVG from the engine's JSON view (docs/games.md "Chess": board
// ranks 8 down to 1, files a-h, FEN letters, '.' empty; moves "e2e4", move
// bytes from ‖ to with a1 = 0 ... h8 = 63).  White is at the bottom, except
// for the player holding black (the unlocked wallet key's seat is
// black_seat), who sees black at the bottom (docs/web.md §6); data-square
// always names the square drawn there.  Every piece is a <text> with
// data-square and data-piece (its FEN letter); squares where a legal move
// of the side to move starts have class "legal".  Playing: a click on such
// a square selects it and marks its targets "target"; a click on a target
// sends the move.
import { s } from './svg.js';
import { cls, legalMoves, picker, positionKey } from './grid.js';

const SQ = 60;
const GLYPH = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };

function index(square) {
  const f = square.charCodeAt(0) - 97;
  const r = square.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) throw new Error(`'${square}' is not a square`);
  return 8 * r + f;
}

// "e2e4" (or "e7e8q": pawns always promote to a queen) -> [from, to].
export function moveBytes(notation) {
  const m = /^([a-h][1-8])([a-h][1-8])q?$/.exec(String(notation).toLowerCase());
  if (!m) throw new Error(`'${notation}' is not a chess move like e2e4`);
  return Uint8Array.of(index(m[1]), index(m[2]));
}

// opts: the page's context (boards/index.js: {address, seat} of the
// unlocked key, seat null when it holds none) and an optional flip (true
// draws black at the bottom, false white).  By default the side of the
// key's seat: black at the bottom for the seat holding black, else white.
export function render(view, app, onMove = null, opts = null) {
  const o = opts || {};
  const flip = typeof o.flip === 'boolean' ? o.flip
    : Number.isInteger(o.seat) && Number.isInteger(view.black_seat) && o.seat === view.black_seat;
  const moves = legalMoves(app).filter((m) => /^[a-h][1-8][a-h][1-8]/.test(m))
    .map((m) => ({ path: [m.slice(0, 2), m.slice(2, 4)], notation: m }));
  const starts = new Set(moves.map((m) => m.path[0]));
  const svg = s('svg', { viewBox: `0 0 ${8 * SQ} ${8 * SQ}`, width: 8 * SQ, height: 8 * SQ,
    class: 'board chess' + (flip ? ' flipped' : ''), 'data-game': 'chess', 'data-bottom': flip ? 'black' : 'white',
    role: 'img', 'aria-label': `chess board, ${flip ? 'black' : 'white'} at the bottom` });
  const rects = {};
  const last = typeof view.last_move === 'string' ? [view.last_move.slice(0, 2), view.last_move.slice(2, 4)] : [];
  for (let row = 0; row < 8; row++) { // view.board[row] is rank 8 - row
    for (let f = 0; f < 8; f++) {
      const square = String.fromCharCode(97 + f) + (8 - row);
      const x = (flip ? 7 - f : f) * SQ;
      const y = (flip ? 7 - row : row) * SQ;
      const rect = s('rect', { x, y, width: SQ, height: SQ, 'data-square': square,
        class: cls('cell', (row + f) % 2 === 1 ? 'dark' : 'light', ['legal', starts.has(square)],
          ['last', last.includes(square)], ['playable', onMove && starts.has(square)]) });
      rects[square] = rect;
      svg.append(rect);
      const p = view.board && typeof view.board[row] === 'string' ? view.board[row][f] : '.';
      if (p && p !== '.' && GLYPH[p]) {
        svg.append(s('text', { x: x + SQ / 2, y: y + SQ * 0.78, 'text-anchor': 'middle',
          'data-square': square, 'data-piece': p, class: 'piece ' + (p === p.toUpperCase() ? 'white' : 'black') },
        GLYPH[p]));
      }
    }
  }
  if (onMove) picker(svg, rects, moves, onMove, positionKey(app));
  return svg;
}
