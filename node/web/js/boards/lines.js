// Lines (a Color Lines duel) as SVG from the engine's JSON view
// (docs/games.md "Lines"; view: players[] each with seat, score,
// moves_made, out and board, 81 characters '.' or a colour 1-7, cell =
// row × 9 + column; last_move {seat, move}).  Every seat has its own 9×9
// board, drawn side by side in a <g data-seat> (rank 1 at the top, squares
// a1-i9); every ball is a <circle> with data-square and data-piece (its
// colour digit).  On the board of the seat to move, squares holding a ball
// that can move are "legal"; the last move's squares on the board of the
// seat that made it are "last".  Playing: a click on a legal ball selects
// it and marks the empty squares it can reach "target"; a click on one
// sends "c3 g7".
import { s } from './svg.js';
import { cls, legalMoves, picker, positionKey, squareCell, squareName } from './grid.js';

const N = 9;
const CELL = 32;
const GAP = 24;
const HEAD = 26; // the seat's line above its board

// 2–4 seats (docs/games.md): the wallet page's "Start a game" offers them;
// every seat's lines and boxes (dots) or board (lines) are drawn.
export const SEATS = [2, 4];

// "c3 g7" -> [from, to].
export function moveBytes(notation) {
  const parts = String(notation).trim().split(/\s+/);
  if (parts.length !== 2) throw new Error(`'${notation}' is not a lines move like "c3 g7"`);
  return Uint8Array.from(parts.map((p) => squareCell(p, N, 'lines')));
}

// Every move of a board: each ball to each empty cell joined to it by
// empty cells through up/down/left/right neighbours (docs/games.md
// "Lines" Moves).  Used only when the node's legal_moves list was cut
// short (it lists at most 512; a crowded board has more).
function reachable(board) {
  const region = new Array(N * N).fill(-1);
  const regions = [];
  for (let i = 0; i < N * N; i++) {
    if (board[i] !== '.' || region[i] >= 0) continue;
    const cells = [i];
    region[i] = regions.length;
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      const r = Math.floor(c / N);
      for (const [ok, nb] of [[r > 0, c - N], [r < N - 1, c + N], [c % N > 0, c - 1], [c % N < N - 1, c + 1]]) {
        if (ok && board[nb] === '.' && region[nb] < 0) {
          region[nb] = regions.length;
          cells.push(nb);
        }
      }
    }
    regions.push(cells);
  }
  const out = [];
  for (let b = 0; b < N * N; b++) {
    if (board[b] === '.') continue;
    const r = Math.floor(b / N);
    const near = new Set([[r > 0, b - N], [r < N - 1, b + N], [b % N > 0, b - 1], [b % N < N - 1, b + 1]]
      .filter(([ok, nb]) => ok && region[nb] >= 0).map(([, nb]) => region[nb]));
    for (const g of near) for (const e of regions[g]) out.push(name(b) + ' ' + name(e));
  }
  return out;
}

const name = (cell) => squareName(cell % N, Math.floor(cell / N));

export function render(view, app, onMove = null) {
  const players = Array.isArray(view.players) ? view.players.filter((p) => p && Number.isInteger(p.seat) && typeof p.board === 'string'
    && p.board.length === N * N && /^[.1-7]+$/.test(p.board)) : [];
  const toMove = Number.isInteger(view.to_move) ? view.to_move : null;
  const listed = legalMoves(app).filter((m) => /^[a-i][1-9] [a-i][1-9]$/.test(m));
  const cols = Math.min(Math.max(players.length, 1), 2);
  const rowsOfBoards = Math.ceil(players.length / 2) || 1;
  const side = N * CELL;
  const W = cols * side + (cols - 1) * GAP;
  const H = rowsOfBoards * (side + HEAD) + (rowsOfBoards - 1) * GAP;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    class: 'board lines', 'data-game': 'lines', role: 'img', 'aria-label': 'lines boards, one per seat' });
  const last = view.last_move && typeof view.last_move.move === 'string' ? view.last_move : null;
  players.forEach((p, k) => {
    const ox = (k % 2) * (side + GAP);
    const oy = Math.floor(k / 2) * (side + HEAD + GAP);
    const moving = p.seat === toMove;
    const cut = Number.isInteger(app.legal_moves_total) && listed.length < app.legal_moves_total;
    const moves = !moving ? [] : (cut ? reachable(p.board) : listed)
      .map((m) => ({ path: m.split(' '), notation: m }));
    const starts = new Set(moves.map((m) => m.path[0]));
    const lastSq = last && last.seat === p.seat ? last.move.split(' ') : [];
    const g = s('g', { 'data-seat': p.seat, class: cls('seat-board', ['to-move', moving]) },
      s('text', { x: ox, y: oy + 18, class: 'seat-line' },
        `seat ${p.seat}: ${p.score} points, ${p.moves_made}/${view.rounds} moves${p.out ? ', out' : ''}${moving ? ' (to move)' : ''}`));
    const rects = {};
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const sq = squareName(c, r);
        const x = ox + c * CELL;
        const y = oy + HEAD + r * CELL;
        const rect = s('rect', { x, y, width: CELL, height: CELL, 'data-square': sq,
          class: cls('cell', ['legal', starts.has(sq)], ['last', lastSq.includes(sq)], ['playable', onMove && starts.has(sq)]) });
        rects[sq] = rect;
        g.append(rect);
        const ball = p.board[r * N + c];
        if (ball !== '.') {
          g.append(s('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, 'data-square': sq,
            'data-piece': ball, class: 'piece c' + ball }));
        }
      }
    }
    if (onMove && moving) picker(g, rects, moves, onMove, positionKey(app, p.seat));
    svg.append(g);
  });
  return svg;
}
