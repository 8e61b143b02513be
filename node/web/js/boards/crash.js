// A crash round (docs/games.md "Crash (type 36)") from the app view's
// `crash` object (docs/api.md §10): the window, the seed block, every
// entry's cash-out target on a multiplier scale (each a <g data-piece=
// "entry" data-square="#N" data-value=target>) and, once settled, the
// crash point (data-piece="outcome") with each entry cashed out or
// crashed — the words of `zbc crash show` (node/wallet/cmd_crash.c).
import { s } from './svg.js';
import { caption, list } from './betparts.js';
import { hundredthsText } from '../bets.js';
import { zbc } from '../words.js';
import { h, link } from '../dom.js';
import { TX, appMoveBody } from '../tx.js';
import { form, parseZbc, submit, unlockedAddress } from '../wallet.js';

export const viewless = true;

// The entry's move bytes: stake u64 LE ‖ target u32 LE (hundredths).
export function entryBytes(stake, target) {
  const out = new Uint8Array(12);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(stake), true);
  dv.setUint32(8, target, true);
  return out;
}

// "2.5x", "2.5", "10x" -> hundredths, at least 101 (cmd_crash.c:target_parse).
export function parseTarget(text) {
  const m = /^(\d{1,8})(?:\.(\d{1,2}))?[xX]?$/.exec(text.trim());
  const v = m ? Number(m[1]) * 100 + Number((m[2] || '').padEnd(2, '0') || '0') : null;
  if (v === null || v < 101 || v > 0xffffffff) {
    throw new Error(`--target must be a multiplier of at least 1.01x with at most two decimals, not '${text}'`);
  }
  return v;
}

// One entry in the wallet's words: "#1 ZBC_…: 2 ZBC at 2.00x — cashed out, paid 4 ZBC".
export function entryWords(e, i) {
  const head = `#${i} ${e.address}: ${zbc(e.stake)} at ${hundredthsText(e.target)}x`;
  if (typeof e.cashed_out !== 'boolean') return head;
  return head + (e.cashed_out ? ` — cashed out, paid ${zbc(e.returns)}` : ` — crashed, lost ${zbc(e.stake)}`);
}

export function render(_view, app) {
  const c = app.crash || {};
  const entries = list(c.entries, 'crash entries').map((e) => (e && typeof e === 'object' ? e : {}));
  const point = Number.isInteger(c.crash_point) ? c.crash_point : null;
  const top = Math.max(200, point || 0, ...entries.map((e) => Number(e.target) || 0)) * 1.1;
  const W = 1000;
  const scale = (t) => 20 + ((W - 60) * Math.log(t / 100)) / Math.log(top / 100);
  const height = 130 + entries.length * 22;
  const svg = s('svg', { viewBox: `0 0 ${W} ${height}`, width: W, class: 'board crash', 'data-game': 'crash',
    role: 'img', 'aria-label': 'crash round' });
  svg.append(caption(0, 18, `entries until block ${c.close}, seed of block ${c.seed_height}, client seed ${c.client_seed}`,
    { 'data-field': 'crash-round' }));
  svg.append(caption(0, 36, point !== null ? `crashed at ${hundredthsText(point)}x`
    : c.open ? 'open: taking entries' : 'closed: settles at the start of the seed block', { 'data-field': 'crash-state' }));
  svg.append(s('line', { x1: 20, y1: 70, x2: W - 40, y2: 70, class: 'axis' }));
  for (const t of [100, 200, 500, 1000, 10000, 100000]) {
    if (t <= top) svg.append(caption(scale(t), 88, `${t / 100}x`, { 'text-anchor': 'middle', class: 'caption small' }));
  }
  if (point !== null) {
    svg.append(s('g', { 'data-piece': 'outcome', 'data-value': point, class: 'marker' },
      s('line', { x1: scale(point), y1: 50, x2: scale(point), y2: 90 }),
      s('text', { x: scale(point), y: 46, 'text-anchor': 'middle' }, `${hundredthsText(point)}x`)));
  }
  entries.forEach((e, i) => {
    const won = e.cashed_out === true;
    const lost = e.cashed_out === false;
    svg.append(s('g', { 'data-piece': 'entry', 'data-square': `#${i}`, 'data-value': e.target,
      class: 'entry' + (won ? ' won' : lost ? ' lost' : '') },
    s('circle', { cx: scale(Number(e.target) || 101), cy: 70, r: 5 }),
    s('text', { x: 0, y: 116 + i * 22, 'data-field': 'crash-entry' }, entryWords(e, i))));
  });
  if (entries.length === 0) svg.append(caption(0, 116, 'no entries'));
  return svg;
}

// "Enter this round" on the app page while it is open and the wallet is
// unlocked: the entry `zbc crash join ID --stake A --target X` sends
// (an AppMove of entryBytes).
export function joinPanel(app) {
  const me = unlockedAddress();
  if (!me || !app.crash || !app.crash.open || app.status !== 'active') return null;
  return [h('h2', {}, 'Enter this round'), form('crash-join', [
    h('label', {}, 'stake (ZBC)', h('input', { name: 'stake', autocomplete: 'off' })),
    h('label', {}, 'cash out at', h('input', { name: 'target', autocomplete: 'off', placeholder: '2x' }))],
  'Enter', async (v, status) => {
    const stake = parseZbc(v.stake);
    if (stake === 0n) throw new Error('--stake must be more than 0');
    const target = parseTarget(v.target);
    const { hash } = await submit(TX.APP_MOVE, appMoveBody(app.id, entryBytes(stake, target)));
    status.className = 'form-status ok';
    status.replaceChildren(`entered: ${zbc(stake)} at ${hundredthsText(target)}x, sent `,
      link('#/tx/' + hash, hash.slice(0, 16) + '…'));
    status.dataset.tx = hash;
  })];
}
