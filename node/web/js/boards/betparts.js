// Pieces the bet and solo-game boards share (docs/web.md "Bets and solo games"): a caption
// line, a playing card, a move button drawn in the SVG (a rect with
// data-square = the move's notation, class legal/playable from
// legal_moves), and the "waiting for the next block" line of a pending
// draw.
import { s } from './svg.js';

export function caption(x, y, text, attrs = {}) {
  return s('text', { x, y, class: 'caption', ...attrs }, text);
}

// A card "K♠" (the engine's name) at x, y; red suits class "red".
export function card(x, y, name, attrs = {}) {
  const red = /[♥♦]/.test(name);
  return s('g', { class: 'card' + (red ? ' red' : ''), 'data-piece': name, ...attrs },
    s('rect', { x, y, width: 44, height: 62, rx: 5 }),
    s('text', { x: x + 22, y: y + 38, 'text-anchor': 'middle' }, name));
}

// A move as a button: legal when the node lists it, playable when it is
// also the player's turn (onMove given).
export function moveButton(x, y, w, label, notation, legal, onMove) {
  const cls = ['button', legal.has(notation) ? 'legal' : '', legal.has(notation) && onMove ? 'playable' : '']
    .join(' ').trim();
  const rect = s('rect', { x, y, width: w, height: 30, rx: 6, class: cls, 'data-square': notation });
  const g = s('g', { class: 'move-button' }, rect,
    s('text', { x: x + w / 2, y: y + 20, 'text-anchor': 'middle', 'pointer-events': 'none' }, label));
  if (legal.has(notation) && onMove) rect.addEventListener('click', () => onMove(notation));
  return g;
}

// The pending draw of a solo game: "waiting: reveal C3 is decided in block
// 42" (the app view's `pending`), or null.
export function pendingLine(app, x, y) {
  if (!app.has_pending || !app.pending) return null;
  const p = app.pending;
  return s('text', { x, y, class: 'caption pending', 'data-field': 'pending' },
    `waiting: ${p.notation || 'the move'} is decided in block ${p.applies_at}`);
}

export function legalSet(app) {
  return new Set(app.status === 'active' ? app.legal_moves || [] : []);
}

// A field of a view from the node, checked (a hostile node's view must not
// break the page): an array, or an integer in [lo, hi].
export function list(x, what) {
  if (x === null || x === undefined) return [];
  if (!Array.isArray(x) || x.length > 1000) throw new Error(`the view's ${what} is not a list`);
  return x;
}

export function int(x, lo, hi, what) {
  if (!Number.isInteger(x) || x < lo || x > hi) throw new Error(`the view's ${what} must be ${lo}-${hi}, not ${JSON.stringify(x)}`);
  return x;
}
