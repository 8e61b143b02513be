// Independent perft counts for the simplified chess of docs/games.md "Chess" (no castling,
// no en passant, promotion to a queen only), computed with chess.js.
//
//   mkdir -p /tmp/chessref && cd /tmp/chessref && npm install chess.js@1.4.0
//   NODE_PATH=/tmp/chessref/node_modules node gen_perft.mjs > perft.json
//
// (run from tests/vectors/chess/; the import below resolves chess.js from
// CHESSJS or /tmp/chessref).  At every ply the legal moves chess.js
// generates are filtered: castling (flags k/q), en-passant captures (flag e)
// and promotions to anything but a queen are dropped.
import { createRequire } from 'node:module';

const base = process.env.CHESSJS || '/tmp/chessref/';
const require = createRequire(base);
const { Chess } = require('chess.js');

function allowed(m) {
  if (m.flags.includes('k') || m.flags.includes('q')) return false;
  if (m.flags.includes('e')) return false;
  if (m.promotion && m.promotion !== 'q') return false;
  return true;
}

function perft(game, depth) {
  const moves = game.moves({ verbose: true }).filter(allowed);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    game.move({ from: m.from, to: m.to, promotion: m.promotion });
    n += perft(game, depth - 1);
    game.undo();
  }
  return n;
}

const positions = [
  ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 4],
  ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1', 3],
  ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5],
  ['r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4],
  ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 3],
  ['r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', 3],
  // en passant would be possible at once (d5xe6 e.p.): the field is ignored
  ['rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', 3],
  // under-promotion and promotion with capture
  ['n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', 4],
];

const out = [];
for (const [fen, maxDepth] of positions) {
  for (let d = 1; d <= maxDepth; d++) {
    out.push({ fen, depth: d, count: perft(new Chess(fen), d) });
  }
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
