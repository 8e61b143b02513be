// Chess as SVG from the engine's JSON view (docs/games.md "Chess": board
// ranks 8 down to 1, files a-h, FEN letters, '.' empty; moves "e2e4", move
// bytes from ‖ to with a1 = 0 ... h8 = 63).  White is at the bottom.  Every
// piece is a <text> with data-square and data-piece (its FEN letter);
// squares where a legal move of the side to move starts have class
// "legal".  Playing: a click on such a square selects it and marks its
// targets "target"; a click on a target sends the move.
import { s } from './svg.js';

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

export function render(view, app, onMove = null) {
  const moves = (app.legal_moves || []).map((m) => [m.slice(0, 2), m.slice(2, 4)]);
  const starts = new Set(moves.map((m) => m[0]));
  const svg = s('svg', { viewBox: `0 0 ${8 * SQ} ${8 * SQ}`, width: 8 * SQ, height: 8 * SQ,
    class: 'board chess', 'data-game': 'chess', role: 'img', 'aria-label': 'chess board' });
  const rects = {};
  let selected = null;
  const mark = () => {
    for (const [sq, rect] of Object.entries(rects)) {
      rect.classList.toggle('selected', sq === selected);
      rect.classList.toggle('target', selected !== null && moves.some((m) => m[0] === selected && m[1] === sq));
    }
  };
  const last = typeof view.last_move === 'string' ? [view.last_move.slice(0, 2), view.last_move.slice(2, 4)] : [];
  for (let row = 0; row < 8; row++) {
    for (let f = 0; f < 8; f++) {
      const square = String.fromCharCode(97 + f) + (8 - row);
      const dark = (row + f) % 2 === 1;
      const cls = ['cell', dark ? 'dark' : 'light', starts.has(square) ? 'legal' : '',
        last.includes(square) ? 'last' : '', onMove && starts.has(square) ? 'playable' : ''];
      const rect = s('rect', { x: f * SQ, y: row * SQ, width: SQ, height: SQ, 'data-square': square,
        class: cls.join(' ').replace(/ +/g, ' ').trim() });
      rects[square] = rect;
      svg.append(rect);
      const p = view.board && view.board[row] ? view.board[row][f] : '.';
      if (p && p !== '.' && GLYPH[p]) {
        svg.append(s('text', { x: f * SQ + SQ / 2, y: row * SQ + SQ * 0.78, 'text-anchor': 'middle',
          'data-square': square, 'data-piece': p, class: 'piece ' + (p === p.toUpperCase() ? 'white' : 'black') },
        GLYPH[p]));
      }
    }
  }
  if (onMove) {
    svg.addEventListener('click', (ev) => {
      const sq = ev.target.getAttribute && ev.target.getAttribute('data-square');
      if (!sq) return;
      if (selected && moves.some((m) => m[0] === selected && m[1] === sq)) {
        const from = selected;
        selected = null;
        mark();
        onMove(from + sq);
        return;
      }
      selected = starts.has(sq) ? sq : null;
      mark();
    });
  }
  return svg;
}
