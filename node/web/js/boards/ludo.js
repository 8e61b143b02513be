// Ludo as SVG from the engine's JSON view (docs/games.md "Ludo": starts,
// safe, progress and squares per seat and token, turn, last {seat, die,
// token, from, to, captured}; a move "order 2013" = the 4 bytes of the
// token order).  The 52 track squares in a ring, 0 at the top, clockwise
// (rects with data-square 0-51, class "safe" / "start"); each seat's home
// column (data-square home1-home5, data-seat) runs inward from the square
// before its start, its yard sits outside its start square.  Every token a
// circle with data-piece (the seat), data-token, data-progress and
// data-square: the track square, "homeK" in the home column, "yard" or
// "done".  The page's choices: which token to move first (the engine moves
// the first of the order that can move).
import { s } from './svg.js';
import { choice, die, statusLine, token } from './dice.js';

export const SEATS = [2, 4];
const C = 320;
const R = 210;
const SQ = 22;

export function moveBytes(notation) {
  const m = /^\s*order\s+([0-3])([0-3])([0-3])([0-3])\s*$/.exec(String(notation));
  const order = m ? m.slice(1, 5).map(Number) : null;
  if (!order || new Set(order).size !== 4) {
    throw new Error(`'${notation}' is not a ludo move (order and a permutation of 0-3, e.g. order 2013)`);
  }
  return Uint8Array.from(order);
}

// The order that tries token t first, then the others in number order.
export function preferring(t) {
  return 'order ' + [t, ...[0, 1, 2, 3].filter((x) => x !== t)].join('');
}

function polar(angleOf, r) {
  const a = (-90 + angleOf * 360 / 52) * Math.PI / 180;
  return [C + r * Math.cos(a), C + r * Math.sin(a)];
}

// Where token t of seat s with progress p is drawn, and its data-square.
function place(view, seat, t, p) {
  const start = view.starts[seat];
  if (p === 0) {
    const [x, y] = polar(start + (t % 2 ? 0.6 : -0.6), R + (t < 2 ? 38 : 60));
    return [x, y, 'yard'];
  }
  if (p >= 57) {
    const [x, y] = polar(start - 1 + (t - 1.5) * 1.2, 40);
    return [x, y, 'done'];
  }
  if (p >= 52) {
    const [x, y] = polar(start - 1, R - 30 * (p - 51));
    return [x + (t - 1.5) * 4, y, `home${p - 51}`];
  }
  const sq = (start + p - 1) % 52;
  const [x, y] = polar(sq, R);
  return [x + (t - 1.5) * 4, y + (seat - 1.5) * 4, String(sq)];
}

export function render(view, app, onMove = null) {
  const seats = Number(view.seats) || 0;
  const starts = Array.isArray(view.starts) ? view.starts : [];
  const safe = new Set(view.safe || []);
  const last = view.last || null;
  const W = 2 * C;
  const H = 2 * C + 110;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board ludo', 'data-game': 'ludo',
    role: 'img', 'aria-label': 'ludo board' });
  const lastSquare = last && last.to !== null && last.to <= 51 ? (starts[last.seat] + last.to - 1) % 52 : null;
  for (let q = 0; q < 52; q++) {
    const [x, y] = polar(q, R);
    const startOf = starts.indexOf(q);
    const cls = ['cell', safe.has(q) ? 'safe' : '', startOf >= 0 ? `start seat${startOf}` : '',
      q === lastSquare ? 'last' : ''];
    svg.append(s('rect', { x: x - SQ / 2, y: y - SQ / 2, width: SQ, height: SQ, 'data-square': q,
      class: cls.join(' ').replace(/ +/g, ' ').trim() }));
    if (q % 13 === 0) svg.append(s('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'num' }, String(q)));
  }
  for (let seat = 0; seat < seats && seat < starts.length; seat++) {
    for (let k = 1; k <= 5; k++) {
      const [x, y] = polar(starts[seat] - 1, R - 30 * k);
      svg.append(s('rect', { x: x - SQ / 2, y: y - SQ / 2, width: SQ, height: SQ, 'data-square': `home${k}`,
        'data-seat': seat, class: `cell home seat${seat}` }));
    }
    const [lx, ly] = polar(starts[seat], R + 86);
    svg.append(s('text', { x: lx, y: ly + 4, 'text-anchor': 'middle', class: `seat-label seat${seat}` }, `seat ${seat}`));
  }
  svg.append(s('circle', { cx: C, cy: C, r: 52, class: 'centre' }));
  const mine = view.turn !== null && view.turn !== undefined && onMove ? view.turn : null;
  (Array.isArray(view.progress) ? view.progress : []).forEach((tokens, seat) => {
    if (!Array.isArray(tokens) || seat >= starts.length) return;
    tokens.forEach((p, t) => {
      const [x, y, square] = place(view, seat, t, p);
      const playable = seat === mine && (app.legal_moves || []).includes(preferring(t));
      const el = token(x, y, 7, seat, square, { 'data-token': t, 'data-progress': p });
      if (playable) {
        el.classList.add('playable');
        el.addEventListener('click', () => onMove(preferring(t)));
      }
      svg.append(el);
    });
  });
  const y = 2 * C;
  if (last) {
    let what = last.token === null ? 'no token could move'
      : `token ${last.token} ${last.from === 0 ? 'entered on its start square' : last.to === 57 ? 'reached home'
        : `moved ${last.to - last.from} squares`}`;
    if (last.captured) what += `, sent seat ${last.captured.seat}'s token ${last.captured.token} to its yard`;
    if (last.die === 6 && view.turn === last.seat) what += '; a 6: seat ' + last.seat + ' moves again';
    svg.append(die(10, y, 40, last.die), s('text', { x: 62, y: y + 26, 'data-field': 'last' },
      `seat ${last.seat} rolled ${last.die}: ${what}`));
  }
  if (view.turn !== null && view.turn !== undefined) {
    svg.append(s('text', { x: 10, y: y + 70, class: 'note' }, 'move first:'));
    for (let t = 0; t < 4; t++) {
      svg.append(choice(100 + t * 90, y + 50, 80, 30, `token ${t}`, preferring(t), app, onMove));
    }
  }
  svg.append(statusLine(10, y + 102, app, view.turn));
  return svg;
}
