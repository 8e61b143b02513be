// Mines (docs/games.md "Mines (type 28)") from the engine's JSON view:
// 25 tiles A1…E5 (row 1 at the top), each a rect with data-square; a
// revealed safe tile, a mine of the losing draw and the mine hit are
// pieces (data-piece "safe", "mine", "hit").  A click on a legal tile
// sends "reveal C3"; the cash-out button sends "cashout".
import { s } from './svg.js';
import { caption, int, legalSet, list, moveButton, pendingLine } from './betparts.js';

const CELL = 60;
const TOP = 30;

export function tileName(t) {
  return 'ABCDE'[t % 5] + (Math.floor(t / 5) + 1);
}

export function moveBytes(notation) {
  if (notation === 'cashout') return Uint8Array.of(2);
  const m = /^(?:reveal\s+)?([A-Ea-e])([1-5])$/.exec(notation.trim());
  if (!m) throw new Error(`'${notation}' is not a mines move (reveal C3 or cashout)`);
  return Uint8Array.of(1, (Number(m[2]) - 1) * 5 + 'ABCDE'.indexOf(m[1].toUpperCase()));
}

export function render(view, app, onMove = null) {
  const legal = legalSet(app);
  const revealed = new Set(list(view.revealed, 'revealed tiles'));
  const mines = new Set(list(view.mines_at, 'mines'));
  int(view.mines, 1, 24, 'mine count');
  const svg = s('svg', { viewBox: `0 0 ${5 * CELL + 200} ${5 * CELL + TOP + 50}`, width: 5 * CELL + 200,
    class: 'board mines', 'data-game': 'mines', role: 'img', 'aria-label': 'mines board' });
  svg.append(caption(0, 20, `${view.mines} mines on 25 tiles · ${view.status} · value ${view.multiplier}x`,
    { 'data-field': 'mines-status' }));
  for (let t = 0; t < 25; t++) {
    const x = (t % 5) * CELL;
    const y = TOP + Math.floor(t / 5) * CELL;
    const sq = tileName(t);
    const note = 'reveal ' + sq;
    const isLegal = legal.has(note);
    const rect = s('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6, 'data-square': sq,
      class: ['tile', revealed.has(t) ? 'open' : '', isLegal ? 'legal' : '', isLegal && onMove ? 'playable' : '']
        .join(' ').trim() });
    if (isLegal && onMove) rect.addEventListener('click', () => onMove(note));
    svg.append(rect);
    const piece = view.hit === t ? 'hit' : mines.has(t) ? 'mine' : revealed.has(t) ? 'safe' : null;
    if (piece) {
      svg.append(s('text', { x: x + CELL / 2, y: y + CELL / 2 + 8, 'text-anchor': 'middle', class: 'piece ' + piece,
        'data-square': sq, 'data-piece': piece }, piece === 'safe' ? '◆' : '✸'));
    }
  }
  svg.append(moveButton(5 * CELL + 20, TOP, 150, 'Cash out', 'cashout', legal, onMove));
  const p = pendingLine(app, 0, TOP + 5 * CELL + 30);
  if (p) svg.append(p);
  return svg;
}
