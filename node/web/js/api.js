// The node's JSON API (docs/api.md), same origin: the page is served by
// the node it reads.
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// JSON.parse keeping integers above 2^53 exact: the node writes u64 values
// (app ids in events, amounts) as JSON numbers up to 2^63-1 (docs/api.md
// §1), and a JavaScript number would round them (app 3998569870547333483
// read as ...600).  Such a number is kept as its decimal string (the page
// formats amounts with BigInt and uses ids as text); the reviver's third
// argument, the number's source text, is in every current browser
// (Chromium 114+); without it the number stays as parsed.
export function parseJson(text) {
  return JSON.parse(text, (key, value, ctx) =>
    (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value) &&
      ctx && typeof ctx.source === 'string' && /^-?[0-9]+$/.test(ctx.source) ? ctx.source : value));
}

// GET path; resolves to the parsed answer, rejects with ApiError carrying
// the node's sentence ({"error": ...}) and status.
export async function get(path) {
  const r = await fetch('/api/v1/' + path, { headers: { Accept: 'application/json' } });
  let body = null;
  try {
    body = parseJson(await r.text());
  } catch {
    throw new ApiError(r.status, `the node answered ${r.status} without JSON`);
  }
  if (!r.ok) throw new ApiError(r.status, body && body.error ? body.error : `HTTP ${r.status}`);
  return body;
}

// GET that resolves to null on 404 instead of rejecting.
export async function find(path) {
  try {
    return await get(path);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export const enc = encodeURIComponent;
