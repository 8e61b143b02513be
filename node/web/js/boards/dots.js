// Dots and boxes as SVG from the engine's JSON view (docs/games.md "Dots
// and boxes": width × height boxes; h_lines[R] one digit per C, 1 drawn;
// v_lines[R] likewise; boxes[R] the owner seat digit or '.'; notation
// "h R C" / "v R C"; move bytes the line index, u16 little-endian).
// Every line slot is a <rect> with data-square (its notation: "h 0 1"),
// "legal" when undrawn and a legal move, "last" for the last line; every
// drawn line is a <line> with data-square and data-piece "line", every
// won box a <text> with data-square "box R C" and data-piece its owner's
// seat.  On the player's turn a click on a legal slot draws that line.
import { s } from './svg.js';
import { cls, legalMoves } from './grid.js';

const GAP = 60; // between dots
const PAD = 20;
const THICK = 16; // the clickable width of a line slot

// 2–4 seats (docs/games.md): the wallet page's "Start a game" offers them;
// every seat's lines and boxes (dots) or board (lines) are drawn.
export const SEATS = [2, 4];

// The size of the board last drawn (the app page draws it before the
// player clicks): moveBytes(notation) needs width and height to number
// the lines, and the page's moveBytes(game, notation) passes neither.
let drawn = null;

function size(v) {
  const w = v && Number.isInteger(v.width) ? v.width : -1;
  const ht = v && Number.isInteger(v.height) ? v.height : -1;
  if (w < 2 || w > 8 || ht < 2 || ht > 8) throw new Error('dots and boxes: the board size is not known (width and height 2-8)');
  return { width: w, height: ht };
}

// "h R C" / "v R C" -> [kind, R, C], each checked against the size.
function parse(notation, { width, height }) {
  const m = /^([hv]) ([0-9]) ([0-9])$/.exec(String(notation));
  if (!m) throw new Error(`'${notation}' is not a dots and boxes move like "h 0 1"`);
  const r = Number(m[2]);
  const c = Number(m[3]);
  const [rmax, cmax] = m[1] === 'h' ? [height, width - 1] : [height - 1, width];
  if (r > rmax || c > cmax) throw new Error(`'${notation}' is not a line of a ${width}×${height} board`);
  return [m[1], r, c];
}

// The line index (docs/games.md "Move bytes") as u16 LE; `dims`
// {width, height} (the app's view), by default the board last drawn.
export function moveBytes(notation, dims = drawn) {
  const d = size(dims);
  const [k, r, c] = parse(notation, d);
  const i = k === 'h' ? r * d.width + c : (d.height + 1) * d.width + r * (d.width + 1) + c;
  return Uint8Array.of(i & 0xff, i >> 8);
}

export function render(view, app, onMove = null) {
  let d;
  try {
    d = size(view);
  } catch (e) {
    drawn = null;
    return s('svg', { viewBox: '0 0 300 40', width: 300, height: 40, class: 'board dots', 'data-game': 'dots' },
      s('text', { x: 10, y: 25 }, e.message));
  }
  drawn = d;
  const legal = new Set(legalMoves(app));
  const digit = (rows, r, c) => (Array.isArray(rows) && typeof rows[r] === 'string' ? rows[r][c] : undefined);
  const W = 2 * PAD + d.width * GAP;
  const H = 2 * PAD + d.height * GAP;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    class: 'board dots', 'data-game': 'dots', role: 'img', 'aria-label': 'dots and boxes board' });
  for (let r = 0; r < d.height; r++) {
    for (let c = 0; c < d.width; c++) {
      const o = digit(view.boxes, r, c);
      if (o !== undefined && /^[0-3]$/.test(o)) {
        svg.append(s('rect', { x: PAD + c * GAP, y: PAD + r * GAP, width: GAP, height: GAP, class: 'box seat' + o }),
          s('text', { x: PAD + c * GAP + GAP / 2, y: PAD + r * GAP + GAP / 2 + 7, 'text-anchor': 'middle',
            'data-square': `box ${r} ${c}`, 'data-piece': o, class: 'owner seat' + o }, o));
      }
    }
  }
  const slot = (k, r, c) => {
    const name = `${k} ${r} ${c}`;
    const x1 = PAD + c * GAP;
    const y1 = PAD + r * GAP;
    const [x2, y2] = k === 'h' ? [x1 + GAP, y1] : [x1, y1 + GAP];
    const on = digit(k === 'h' ? view.h_lines : view.v_lines, r, c) === '1';
    const ok = !on && legal.has(name);
    const geom = k === 'h'
      ? { x: x1 + 6, y: y1 - THICK / 2, width: GAP - 12, height: THICK }
      : { x: x1 - THICK / 2, y: y1 + 6, width: THICK, height: GAP - 12 };
    const rect = s('rect', { ...geom, 'data-square': name,
      class: cls('slot', ['legal', ok], ['last', view.last === name], ['playable', onMove && ok]) });
    if (onMove && ok) rect.addEventListener('click', () => onMove(name));
    svg.append(rect);
    if (on) {
      svg.append(s('line', { x1, y1, x2, y2, 'data-square': name, 'data-piece': 'line',
        class: cls('drawn', ['last', view.last === name]) }));
    }
  };
  for (let r = 0; r <= d.height; r++) for (let c = 0; c < d.width; c++) slot('h', r, c);
  for (let r = 0; r < d.height; r++) for (let c = 0; c <= d.width; c++) slot('v', r, c);
  for (let r = 0; r <= d.height; r++) {
    for (let c = 0; c <= d.width; c++) svg.append(s('circle', { cx: PAD + c * GAP, cy: PAD + r * GAP, r: 5, class: 'dot' }));
  }
  return svg;
}
