// Blackjack (docs/games.md "Blackjack (type 31)") from the engine's JSON
// view: the dealer's cards and each hand's (every card a <g data-piece>
// with data-square "dealer N" / "hand H.N"), totals, and the moves as
// buttons (deal, hit, stand, double, split).
import { s } from './svg.js';
import { caption, card, legalSet, list, moveButton, pendingLine } from './betparts.js';

const MOVES = ['deal', 'hit', 'stand', 'double', 'split'];

export function moveBytes(notation) {
  const i = MOVES.indexOf(notation.trim());
  if (i < 0) throw new Error(`'${notation}' is not a blackjack move (${MOVES.join(', ')})`);
  return Uint8Array.of(i + 1);
}

export function render(view, app, onMove = null) {
  const legal = legalSet(app);
  const hands = list(view.hands, 'hands').map((hd) => ({ ...hd, cards: list(hd && hd.cards, 'hand cards') }));
  const height = 90 * (hands.length + 1) + 110;
  const svg = s('svg', { viewBox: `0 0 600 ${height}`, width: 600, class: 'board blackjack', 'data-game': 'blackjack',
    role: 'img', 'aria-label': 'blackjack table' });
  svg.append(caption(0, 20, `${view.status} · ${view.natural ? 'blackjack · ' : ''}returns ${view.multiplier}x`,
    { 'data-field': 'blackjack-status' }));
  const row = (y, label, cs, sq, total, current) => {
    svg.append(caption(0, y + 36, label + (current ? ' ◀' : ''), { class: 'caption' + (current ? ' current' : '') }));
    cs.forEach((c, i) => svg.append(card(110 + i * 50, y, String(c), { 'data-square': `${sq}${i}` })));
    svg.append(caption(120 + Math.max(cs.length, 1) * 50, y + 36, `= ${total}`, { 'data-field': `total-${sq.trim()}` }));
  };
  const dealer = { ...(view.dealer || {}), cards: list(view.dealer && view.dealer.cards, "dealer's cards") };
  row(34, view.dealer_natural ? 'dealer (blackjack)' : 'dealer', dealer.cards || [], 'dealer ', dealer.total);
  hands.forEach((hd, i) => row(124 + i * 90, `hand ${i + 1}${hd.bet > 1 ? ` (×${hd.bet})` : ''}`, hd.cards,
    `hand ${i + 1}.`, hd.total, view.status === 'playing' && view.hand === i && !hd.done));
  MOVES.forEach((m, i) => svg.append(moveButton(i * 115, height - 70, 105, m, m, legal, onMove)));
  const p = pendingLine(app, 0, height - 16);
  if (p) svg.append(p);
  return svg;
}
