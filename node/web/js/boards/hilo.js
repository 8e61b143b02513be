// Hilo (docs/games.md "Hilo (type 30)") from the engine's JSON view: the
// cards drawn in order (each a <g data-piece="K♦" data-square="card N">)
// with the guess that drew it, and the moves as buttons (data-square =
// the notation: deal, higher, lower, skip, cashout).
import { s } from './svg.js';
import { caption, card, legalSet, list, moveButton, pendingLine } from './betparts.js';

const MOVES = ['deal', 'higher', 'lower', 'skip', 'cashout'];
const MARK = { deal: '', higher: '>', lower: '<', skip: '~' };

export function moveBytes(notation) {
  const i = MOVES.indexOf(notation.trim());
  if (i < 0) throw new Error(`'${notation}' is not a hilo move (${MOVES.join(', ')})`);
  return Uint8Array.of(i + 1);
}

export function render(view, app, onMove = null) {
  const legal = legalSet(app);
  const cards = list(view.cards, 'cards').map((c) => (c && typeof c === 'object' ? c : {}));
  const perRow = 10;
  const rows = Math.max(1, Math.ceil(cards.length / perRow));
  const svg = s('svg', { viewBox: `0 0 ${perRow * 64 + 10} ${rows * 80 + 110}`, width: perRow * 64 + 10,
    class: 'board hilo', 'data-game': 'hilo', role: 'img', 'aria-label': 'hilo cards' });
  svg.append(caption(0, 20, `${view.status} · ${view.won} guess${view.won === 1 ? '' : 'es'} won · value ${view.multiplier}x`,
    { 'data-field': 'hilo-status' }));
  cards.forEach((c, i) => {
    const x = (i % perRow) * 64 + 14;
    const y = 34 + Math.floor(i / perRow) * 80;
    if (MARK[c.move]) svg.append(s('text', { x: x - 12, y: y + 36, class: 'caption' }, MARK[c.move]));
    svg.append(card(x, y, String(c.card), { 'data-square': `card ${i}`, 'data-move': c.move }));
  });
  MOVES.forEach((m, i) => svg.append(moveButton(i * 110, rows * 80 + 44, 100, m, m, legal, onMove)));
  const p = pendingLine(app, 0, rows * 80 + 100);
  if (p) svg.append(p);
  return svg;
}
