// Monopoly-lite as SVG from the engine's JSON view (docs/games.md
// "Monopoly-lite": players {seat, cash, worth, position, moves_made, out},
// squares {index, name, kind, price, rent, group, owner}, to_move,
// last_roll {seat, dice}; moves "roll" = 00 and "roll buy" = 01).  The 24
// squares around a 7×7 frame, GO at the bottom right, in the direction of
// play (rects with data-square 0-23; an owned one carries data-owner and an
// owner mark of the seat's colour); every seat still in play a token with
// data-square (its position) and data-piece (the seat); cash, worth and
// moves per seat in the middle, the last two dice, "roll" and "roll buy".
import { s } from './svg.js';
import { choice, die, statusLine, token } from './dice.js';

export const SEATS = [2, 4];
const CELL = 84;
const FLAGS = { roll: 0, 'roll buy': 1 };

export function moveBytes(notation) {
  const m = String(notation).trim().replace(/\s+/g, ' ');
  if (!(m in FLAGS)) throw new Error(`'${notation}' is not a monopoly move (roll or roll buy)`);
  return Uint8Array.of(FLAGS[m]);
}

// CreateApp params words (docs/games.md "Monopoly-lite": cash=N, 1-10000,
// u16 LE), as `zbc app create --params` reads them; writes into out,
// returns the length.
export function paramWord(key, value, out) {
  if (key !== 'cash') throw new Error(`no param '${key}' (the param is cash=N, 1-10000)`);
  if (!/^(0|[1-9][0-9]*)$/.test(value)) throw new Error(`cash: '${value}' is not a decimal number without a leading zero`);
  const v = Number(value);
  if (v < 1 || v > 10000) throw new Error(`cash: ${value} is out of range 1-10000`);
  out[0] = v & 0xff;
  out[1] = v >> 8;
  return 2;
}

// Square 0-23 -> the top-left corner of its cell (GO bottom right, then
// left along the bottom, up the left side, right along the top, down).
function cell(q) {
  const [c, r] = q <= 6 ? [6 - q, 6] : q <= 12 ? [0, 12 - q] : q <= 18 ? [q - 12, 0] : [6, q - 18];
  return [c * CELL, r * CELL];
}

export function render(view, app, onMove = null) {
  const squares = Array.isArray(view.squares) ? view.squares : [];
  const players = Array.isArray(view.players) ? view.players : [];
  const W = 7 * CELL;
  const H = 7 * CELL + 50;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board monopoly', 'data-game': 'monopoly',
    role: 'img', 'aria-label': 'monopoly-lite board' });
  const lr = view.last_roll || null;
  const lastPos = lr && players[lr.seat] ? players[lr.seat].position : null;
  for (const q of squares) {
    const [x, y] = cell(q.index);
    const owned = q.owner !== null && q.owner !== undefined;
    svg.append(s('rect', { x, y, width: CELL, height: CELL, 'data-square': q.index, 'data-owner': owned ? q.owner : null,
      class: ['cell', q.kind, q.index === lastPos ? 'last' : ''].join(' ').trim() }));
    if (q.kind === 'property') svg.append(s('rect', { x, y, width: CELL, height: 12, class: `group g${q.group}` }));
    const words = String(q.name).split(' ');
    words.forEach((w, i) => svg.append(s('text', { x: x + CELL / 2, y: y + 26 + 12 * i, 'text-anchor': 'middle',
      class: 'name' }, w)));
    if (q.price) {
      svg.append(s('text', { x: x + CELL / 2, y: y + 26 + 12 * words.length, 'text-anchor': 'middle', class: 'price' },
        q.kind === 'tax' ? `pay ${q.price}` : `${q.price} · rent ${q.kind === 'station' ? '50×' : q.rent}`));
    }
    if (owned) {
      svg.append(s('rect', { x: x + 4, y: y + CELL - 14, width: CELL - 8, height: 10, class: `owner seat${q.owner}`,
        'data-owner-of': q.index }));
    }
  }
  for (const p of players) {
    if (p.out) continue;
    const [x, y] = cell(p.position);
    svg.append(token(x + 16 + 17 * p.seat, y + CELL - 24, 8, p.seat, p.position));
  }
  const mx = CELL + 14;
  let my = CELL + 24;
  for (const p of players) {
    svg.append(s('text', { x: mx, y: my, class: `seat-label seat${p.seat}`, 'data-cash-of': p.seat, 'data-cash': p.cash },
      p.out ? `seat ${p.seat}: out (bankrupt)`
        : `seat ${p.seat}: cash ${p.cash}, worth ${p.worth}, moves ${p.moves_made}/100`));
    my += 22;
  }
  if (lr && Array.isArray(lr.dice)) {
    svg.append(die(mx, my, 40, lr.dice[0]), die(mx + 48, my, 40, lr.dice[1]),
      s('text', { x: mx + 100, y: my + 26, 'data-field': 'last' },
        `seat ${lr.seat} rolled ${lr.dice[0]} + ${lr.dice[1]} = ${lr.dice[0] + lr.dice[1]}` +
        (lastPos !== null && squares[lastPos] ? `: ${squares[lastPos].name}` : '')));
  }
  my += 60;
  if (view.to_move !== null && view.to_move !== undefined) {
    svg.append(choice(mx, my, 70, 32, 'roll', 'roll', app, onMove),
      choice(mx + 80, my, 100, 32, 'roll & buy', 'roll buy', app, onMove));
  }
  svg.append(statusLine(10, 7 * CELL + 30, app, view.to_move));
  return svg;
}
