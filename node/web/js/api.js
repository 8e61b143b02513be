// The node's JSON API (docs/api.md), same origin: the page is served by
// the node it reads.
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// GET path; resolves to the parsed answer, rejects with ApiError carrying
// the node's sentence ({"error": ...}) and status.
export async function get(path) {
  const r = await fetch('/api/v1/' + path, { headers: { Accept: 'application/json' } });
  let body = null;
  try {
    body = await r.json();
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
