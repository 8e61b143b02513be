// Rock-paper-scissors as SVG from the engine's JSON view (docs/games.md
// "Rock-paper-scissors": choices 1 rock, 2 scissors, 3 paper; a commit is
// 00 ‖ SHA3-256(choice ‖ salt), a reveal 01 ‖ choice ‖ salt).  One panel
// per seat (data-square "seat0"/"seat1", data-piece "committed" or the
// revealed choice), the three choices to click (data-square "rock",
// "paper", "scissors") on the player's commit, the score and the last
// round.  The choice and its salt stay in this browser (js/secrets.js,
// docs/web.md §8) until the page reveals them by itself (autoMove).
import { sha3_256 } from '../../node_modules/@noble/hashes/sha3.js';
import { s } from './svg.js';
import { h } from '../dom.js';
import { bytesToHex, concat, hexToBytes } from '../tx.js';
import * as secrets from '../secrets.js';

const CHOICE = { rock: 1, scissors: 2, paper: 3 };
const NAME = { 1: 'rock', 2: 'scissors', 3: 'paper' };
const W = 560;

// A choice drawn in plain shapes (fonts without emoji draw nothing for ✊):
// rock a stone, paper a sheet, scissors two blades and two rings;
// centred on cx, cy.
function icon(choice, cx, cy, k = 1) {
  const g = s('g', { class: 'icon ' + choice, transform: `translate(${cx} ${cy}) scale(${k})` });
  if (choice === 'rock') {
    g.append(s('path', { d: 'M-28 6 C-30 -14 -12 -26 4 -24 C22 -22 30 -8 27 8 C24 22 6 26 -8 24 C-20 22 -27 16 -28 6 Z' }));
  } else if (choice === 'paper') {
    g.append(s('rect', { x: -20, y: -27, width: 40, height: 54, rx: 3 }));
    for (const y of [-14, -4, 6, 16]) g.append(s('line', { x1: -12, y1: y, x2: 12, y2: y }));
  } else if (choice === 'scissors') {
    g.append(s('line', { x1: -7, y1: 10, x2: 16, y2: -28 }), s('line', { x1: 7, y1: 10, x2: -16, y2: -28 }),
      s('circle', { cx: -11, cy: 18, r: 8 }), s('circle', { cx: 11, cy: 18, r: 8 }));
  } else {
    g.append(s('rect', { x: -24, y: -24, width: 48, height: 48, rx: 6 }),
      s('text', { x: 0, y: 12, 'text-anchor': 'middle' }, '?'));
  }
  return g;
}

function commitHash(sec) {
  return sha3_256(concat(Uint8Array.of(sec.choice), hexToBytes(sec.salt)));
}

function moves(app) {
  return (app.history || []).filter((e) => e.kind === 'app_move' && typeof e.move_hex === 'string');
}

// Whether the stored secret is this seat's commitment of the current round
// (its commit on chain and not revealed yet).
function committedOnChain(app, sec) {
  const hash = '00' + bytesToHex(commitHash(sec));
  const reveal = '01' + bytesToHex(Uint8Array.of(sec.choice)) + sec.salt;
  const all = moves(app).map((e) => e.move_hex);
  return all.includes(hash) && !all.includes(reveal);
}

// "commit rock" draws a salt, stores choice and salt, and gives the
// commit bytes; "reveal" gives the reveal of the stored choice.
export async function moveFor(app, notation, ctx) {
  const w = String(notation).trim().split(/\s+/);
  if (w[0] === 'commit' && w.length === 2 && CHOICE[w[1]]) {
    const choice = CHOICE[w[1]];
    let sec = secrets.load(ctx.address, app.id);
    // never replace the secret of a commitment on chain that is not revealed yet
    if (sec && committedOnChain(app, sec)) {
      throw new Error(`you already committed this round of app ${app.id}: the page reveals it when it is your turn`);
    }
    const revealed = sec && moves(app).some((e) => e.move_hex.includes(sec.salt));
    // a retry of the same choice (an answer lost) keeps its salt; a salt is never used again once revealed
    if (!sec || sec.choice !== choice || revealed) {
      sec = { game: 'rps', choice, salt: bytesToHex(crypto.getRandomValues(new Uint8Array(32))) };
      secrets.save(ctx.address, app.id, sec);
    }
    return concat(Uint8Array.of(0), commitHash(sec));
  }
  if (notation === 'reveal') {
    const sec = secrets.load(ctx.address, app.id);
    if (!sec) throw new Error(secrets.lostText('choice', app.id));
    if (!committedOnChain(app, sec)) {
      throw new Error(`the choice stored in this browser for app ${app.id} is not your commitment of this round`);
    }
    return concat(Uint8Array.of(1, sec.choice), hexToBytes(sec.salt));
  }
  throw new Error(`'${notation}' is not a rock-paper-scissors move the page sends (commit rock|paper|scissors, reveal)`);
}

export function moveBytes() {
  throw new Error('rock-paper-scissors moves carry secrets: the page builds them with moveFor');
}

function stored(app, ctx) {
  try {
    return { sec: secrets.load(ctx.address, app.id), error: null };
  } catch (e) {
    return { sec: null, error: e.message };
  }
}

// The reveal, sent by the page as soon as it is this seat's turn to reveal.
export function autoMove(app, ctx) {
  const v = app.view || {};
  if (!ctx || !Number.isInteger(ctx.seat) || v.phase !== 'reveal' || v.turn !== ctx.seat) return null;
  const { sec } = stored(app, ctx);
  return sec && committedOnChain(app, sec) ? 'reveal' : null;
}

export function render(view, app, onMove = null, ctx = null) {
  const me = ctx && Number.isInteger(ctx.seat) ? ctx.seat : null;
  const { sec, error } = me === null ? { sec: null, error: null } : stored(app, ctx);
  const mine = sec && committedOnChain(app, sec) ? NAME[sec.choice] : null;
  const choosing = me !== null && onMove && view.phase === 'commit' && view.turn === me;
  const height = view.phase === 'over' ? 170 : 250;
  const svg = s('svg', { viewBox: `0 0 ${W} ${height}`, width: W, height, class: 'board rps', 'data-game': 'rps',
    role: 'img', 'aria-label': 'rock-paper-scissors' });
  for (const seat of [0, 1]) {
    const x = seat * W / 2;
    const revealed = view.revealed ? view.revealed[seat] : null;
    const committed = view.committed ? view.committed[seat] : false;
    svg.append(s('text', { x: x + W / 4, y: 22, 'text-anchor': 'middle', class: 'title' },
      `seat ${seat}${seat === me ? ' (you)' : ''}: ${view.wins ? view.wins[seat] : 0} of ${view.target}`));
    svg.append(s('rect', { x: x + W / 4 - 55, y: 34, width: 110, height: 100, rx: 10, 'data-square': `seat${seat}`,
      class: 'hand' + (view.turn === seat ? ' to-move' : '') }));
    // this round's reveal or commitment; with neither, the last round's choice
    const before = !revealed && !committed && view.last_round ? view.last_round.choices[seat] : null;
    let piece = null;
    if (revealed) piece = [revealed, revealed, 'choice'];
    else if (committed) piece = ['committed', seat === me && mine ? mine : 'sealed', 'choice sealed'];
    else if (before) piece = [before, before, 'choice last'];
    if (piece) {
      svg.append(s('g', { 'data-square': `seat${seat}`, 'data-piece': piece[0], class: piece[2] },
        icon(piece[1], x + W / 4, 84)));
    }
    const words = revealed ? `revealed ${revealed}` : committed ? (seat === me && mine ? `committed ${mine} (secret)`
      : 'committed') : view.turn === seat ? `to ${view.phase}` : before ? `last round: ${before}` : '';
    svg.append(s('text', { x: x + W / 4, y: 154, 'text-anchor': 'middle', class: 'label' }, words));
  }
  if (view.phase !== 'over') {
    ['rock', 'paper', 'scissors'].forEach((n, i) => {
      const x = W / 2 - 165 + i * 115;
      const rect = s('rect', { x, y: 176, width: 100, height: 60, rx: 8, 'data-square': n,
        class: 'pick' + (choosing ? ' legal playable' : '') });
      if (choosing) rect.addEventListener('click', () => onMove('commit ' + n));
      svg.append(rect, icon(n, x + 22, 206, 0.55), s('text', { x: x + 68, y: 212, 'text-anchor': 'middle',
        class: 'pick-label' }, n));
    });
  }
  const lines = [];
  const lr = view.last_round;
  if (lr) {
    lines.push(`last round: seat 0 ${lr.choices[0]}, seat 1 ${lr.choices[1]}: ` +
      (lr.winner === null ? 'a tie, replayed' : `seat ${lr.winner} wins the round`));
  }
  if (choosing) lines.push('choose: your choice stays in this browser until the page reveals it');
  if (me !== null && view.phase === 'reveal' && view.turn === me && !mine) {
    lines.push(error || secrets.lostText('choice', app.id));
  }
  const wrap = h('div', { class: 'rps-wrap' }, svg, h('p', { class: 'muted', 'data-field': 'rps-state' }, lines.join('. ')));
  if (me !== null && app.status === 'active' && view.phase === 'reveal' && view.turn === me && !mine) {
    wrap.append(secrets.importForm(app, ctx, (got) => {
      if (!committedOnChain(app, got)) throw new Error(`that file is not your commitment of this round in app ${app.id}`);
    }, () => wrap.replaceWith(render(view, app, onMove, ctx))));
  }
  return wrap;
}
