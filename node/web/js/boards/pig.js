// Pig as SVG from the engine's JSON view (docs/games.md "Pig": scores,
// turn_total, turn, last {seat, move, die}; moves "roll" = 00, "hold" =
// 01).  Each seat is a bar from 0 to the target with its token at its
// banked score (<circle data-square=score data-piece=seat>), the seat to
// move's turn total drawn after it; the last die; "roll" and "hold" as
// buttons (class legal / playable from legal_moves).
import { s } from './svg.js';
import { choice, die, statusLine, token } from './dice.js';

export const SEATS = [2, 4];
const MOVES = { roll: 0, hold: 1 };
const W = 560;
const X0 = 90;
const BAR = 380;

export function moveBytes(notation) {
  const m = String(notation).trim();
  if (!(m in MOVES)) throw new Error(`'${notation}' is not a pig move (roll or hold)`);
  return Uint8Array.of(MOVES[m]);
}

export function render(view, app, onMove = null) {
  const scores = Array.isArray(view.scores) ? view.scores : [];
  const target = Number(view.target) || 100;
  const rowH = 44;
  const top = 20;
  const H = top + scores.length * rowH + 130;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board pig', 'data-game': 'pig',
    role: 'img', 'aria-label': 'pig scores' });
  const at = (v) => X0 + BAR * Math.min(Math.max(v, 0), target) / target;
  scores.forEach((score, seat) => {
    const y = top + seat * rowH;
    const moving = view.turn === seat;
    svg.append(s('text', { x: 8, y: y + 20, class: `seat-label seat${seat}` }, `seat ${seat}`),
      s('rect', { x: X0, y: y + 6, width: BAR, height: 18, class: 'track', 'data-seat': seat }));
    if (moving && view.turn_total > 0) {
      svg.append(s('rect', { x: at(score), y: y + 6, width: at(score + view.turn_total) - at(score), height: 18,
        class: `turn-total seat${seat}`, 'data-turn-total': view.turn_total }));
    }
    svg.append(token(at(score), y + 15, 11, seat, score, { 'data-score': score }),
      s('text', { x: X0 + BAR + 14, y: y + 20, class: 'score', 'data-score-of': seat },
        moving && view.turn_total > 0 ? `${score} +${view.turn_total}` : String(score)));
  });
  const y = top + scores.length * rowH + 10;
  svg.append(s('text', { x: X0, y: y + 4, class: 'note' }, `first to ${target} wins`));
  const last = view.last;
  if (last && last.move === 'roll') {
    svg.append(die(X0, y + 16, 40, last.die),
      s('text', { x: X0 + 52, y: y + 42, 'data-field': 'last' },
        `seat ${last.seat} rolled ${last.die}${last.die === 1 ? ': turn total lost' : ''}`));
  } else if (last) {
    svg.append(s('text', { x: X0, y: y + 42, 'data-field': 'last' }, `seat ${last.seat} held`));
  }
  if (view.turn !== null && view.turn !== undefined) {
    svg.append(choice(X0 + 250, y + 16, 60, 34, 'roll', 'roll', app, onMove),
      choice(X0 + 320, y + 16, 60, 34, 'hold', 'hold', app, onMove));
  }
  svg.append(statusLine(X0, y + 84, app, view.turn));
  return svg;
}
