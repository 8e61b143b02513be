// Tower (docs/games.md "Tower (type 29)") from the engine's JSON view:
// nine rows (row 1 at the bottom) of C columns; every cell a rect with
// data-square "row.column" (1-based); the climbed column of a row, the
// losing pick and that row's safe columns are pieces ("climbed", "hit",
// "safe").  The next row's cells are the legal "climb N" moves.
import { s } from './svg.js';
import { caption, int, legalSet, list, moveButton, pendingLine } from './betparts.js';

const W = 70;
const H = 34;
const TOP = 30;

export function moveBytes(notation) {
  if (notation === 'cashout') return Uint8Array.of(2);
  const m = /^(?:climb\s+)?([1-4])$/.exec(notation.trim());
  if (!m) throw new Error(`'${notation}' is not a tower move (climb N or cashout)`);
  return Uint8Array.of(1, Number(m[1]) - 1);
}

export function render(view, app, onMove = null) {
  const legal = legalSet(app);
  const cols = int(view.columns, 2, 4, 'column count');
  const picks = list(view.picks, 'picks');
  list(view.safe_columns, 'safe columns');
  const bustRow = view.status === 'bust' ? picks.length : -1;
  const svg = s('svg', { viewBox: `0 0 ${cols * W + 220} ${9 * H + TOP + 50}`, width: cols * W + 220,
    class: 'board tower', 'data-game': 'tower', role: 'img', 'aria-label': 'tower board' });
  svg.append(caption(0, 20, `${view.difficulty}: ${view.safe} of ${cols} safe · ${view.status} · value ${view.multiplier}x`,
    { 'data-field': 'tower-status' }));
  for (let r = 0; r < 9; r++) {
    const y = TOP + (8 - r) * H;
    for (let c = 0; c < cols; c++) {
      const x = c * W;
      const sq = `${r + 1}.${c + 1}`;
      const note = `climb ${c + 1}`;
      const isLegal = r === picks.length && legal.has(note);
      const rect = s('rect', { x: x + 2, y: y + 2, width: W - 4, height: H - 4, rx: 4, 'data-square': sq,
        class: ['cell', isLegal ? 'legal' : '', isLegal && onMove ? 'playable' : ''].join(' ').trim() });
      if (isLegal && onMove) rect.addEventListener('click', () => onMove(note));
      svg.append(rect);
      let piece = null;
      if (r < picks.length && picks[r] === c) piece = 'climbed';
      if (r === bustRow && view.hit === c) piece = 'hit';
      else if (r === bustRow && (view.safe_columns || []).includes(c)) piece = 'safe';
      if (piece) {
        svg.append(s('text', { x: x + W / 2, y: y + H / 2 + 6, 'text-anchor': 'middle', class: 'piece ' + piece,
          'data-square': sq, 'data-piece': piece }, piece === 'hit' ? '✸' : piece === 'safe' ? '○' : '◆'));
      }
    }
    svg.append(s('text', { x: cols * W + 8, y: y + H / 2 + 5, class: 'caption' }, String(r + 1)));
  }
  svg.append(moveButton(cols * W + 40, TOP, 150, 'Cash out', 'cashout', legal, onMove));
  const p = pendingLine(app, 0, TOP + 9 * H + 30);
  if (p) svg.append(p);
  return svg;
}
