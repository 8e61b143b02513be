// Amounts, times, results and events in words, as the wallet writes them
// (node/wallet/result_text.c, node/wallet/amount.c; docs/web.md §4).

const UNITS = 100000000n;

// 1234500000 -> "12.345 ZBC".  Amounts arrive as JSON integers or, above
// 2^63-1, as decimal strings (docs/api.md §1).
export function zbc(units) {
  if (units === null || units === undefined) return '—';
  let u;
  try {
    u = BigInt(units);
  } catch {
    return String(units);
  }
  const neg = u < 0n;
  if (neg) u = -u;
  const whole = u / UNITS;
  const frac = u % UNITS;
  let s = whole.toString();
  if (frac !== 0n) s += '.' + frac.toString().padStart(8, '0').replace(/0+$/, '');
  return (neg ? '-' : '') + s + ' ZBC';
}

export function when(ms) {
  if (typeof ms !== 'number') return '—';
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function ago(ms, now = Date.now()) {
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return 'in ' + -s + ' s';
  if (s < 120) return s + ' s ago';
  if (s < 7200) return Math.round(s / 60) + ' min ago';
  return Math.round(s / 3600) + ' h ago';
}

// A duration in words, as the wallet writes it (node/wallet/result_text.c:
// zbc_duration_text): "45 s", "12 min", "3 h 20 min", "2 d 4 h".
export function duration(ms) {
  const s = Math.floor((Number(ms) + 500) / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor((s + 30) / 60)} min`;
  if (s < 86400) {
    const m = Math.floor((s + 30) / 60);
    return `${Math.floor(m / 60)} h ${m % 60} min`;
  }
  const h = Math.floor((s + 1800) / 3600);
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

// An app's clock in blocks and time, the wallet's zbc_clock_text:
// "block 120 (in 12 blocks, ≈ 12 s)", "(reached)", "(passed 3 blocks ago)".
// blockTimeMs 0 (an automine node: blocks come on demand) leaves the time
// out, as the wallet does.
export function clockText(deadline, tip, blockTimeMs) {
  const d = Number(deadline);
  const t = Number(tip);
  let out = `block ${d}`;
  if (d > t) {
    const left = d - t;
    out += ` (in ${left} block${left === 1 ? '' : 's'}`;
    if (blockTimeMs > 0) out += `, ≈ ${duration(left * blockTimeMs)}`;
    out += ')';
  } else if (d === t) {
    out += ' (reached)';
  } else {
    const ago = t - d;
    out += ` (passed ${ago} block${ago === 1 ? '' : 's'} ago)`;
  }
  return out;
}

// "seat 1", "seats 1 and 2", "seats 0, 1 and 3".
export function seatsWords(seats) {
  const parts = seats.map(String);
  const list = parts.length < 2 ? parts.join('')
    : parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1];
  return 'seat' + (seats.length > 1 ? 's ' : ' ') + list;
}

function paidTo(result, seat) {
  if (Array.isArray(result.paid)) {
    const p = result.paid.find((x) => x.seat === seat);
    return p ? BigInt(p.amount) : 0n;
  }
  let sum = 0n;
  for (const p of result.payouts || []) if (p.seat === seat) sum += BigInt(p.amount);
  return sum;
}

function addressOf(app, seat) {
  const p = (app.players || []).find((x) => x.seat === seat);
  return p ? p.address : null;
}

// The result record of an app (docs/api.md §10) in the wallet's words;
// null before the end.
export function resultText(app) {
  const r = app.result;
  if (!r || typeof r !== 'object') return null;
  const outcome = r.outcome || r.ending || 'unknown';
  let winners = Array.isArray(r.winners) ? r.winners.slice() : [];
  if (winners.length === 0 && Number.isInteger(r.winner)) winners = [r.winner];
  const out = Array.isArray(r.out) ? r.out : [];
  const cause = Number.isInteger(r.resigned) ? `seat ${r.resigned} resigned`
    : Number.isInteger(r.timed_out) ? `seat ${r.timed_out} timed out` : '';
  let t;
  if (outcome === 'bet') {
    const won = winners.length > 0;
    t = won ? `bet won: paid ${zbc(paidTo(r, winners[0]))}` : 'bet lost';
    return t;
  } else if (outcome === 'draw') {
    t = 'draw: stakes returned';
  } else if (outcome === 'expired') {
    t = 'expired: nobody joined, stakes refunded';
  } else if (outcome === 'abandoned') {
    t = `abandoned: ${cause}${cause ? ', ' : ''}stakes refunded`;
  } else if (winners.length === 1) {
    const a = addressOf(app, winners[0]);
    t = `seat ${winners[0]}${a ? ` (${a})` : ''} won ${zbc(paidTo(r, winners[0]))}`;
    if (cause) t += ': ' + cause;
  } else if (winners.length > 1) {
    let sum = 0n;
    for (const w of winners) sum += paidTo(r, w);
    t = `${seatsWords(winners)} share ${zbc(sum)}`;
    if (cause) t += ': ' + cause;
  } else {
    t = `${outcome}: ${cause}${cause ? ', ' : ''}no seat was paid`;
  }
  if (out.length > 0) t += '; out of play: ' + seatsWords(out);
  if (r.rake && BigInt(r.rake) > 0n) t += ` (rake ${zbc(r.rake)})`;
  return t;
}

// A block event (docs/api.md §7) in a few words.
export function eventText(e) {
  switch (e.kind) {
    case 'transfer': return `${e.from} sent ${zbc(e.amount)} to ${e.to}`;
    case 'fee': return `${e.from} paid a fee of ${zbc(e.amount)}${e.to ? ' to ' + e.to : ''}`;
    case 'noop': return `carried as a no-op: ${e.reason || 'no reason given'}`;
    default: {
      const parts = [e.kind.replace(/_/g, ' ')];
      if (e.ref !== undefined && e.ref !== null && e.ref !== 0 && e.ref !== '0') parts.push(`app ${e.ref}`);
      if (Number.isInteger(e.seat)) parts.push(`seat ${e.seat}`);
      if (e.amount) parts.push(zbc(e.amount));
      if (e.reason) parts.push(e.reason);
      return parts.join(' · ');
    }
  }
}
