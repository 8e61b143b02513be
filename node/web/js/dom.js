// A tiny element builder: text goes in as text nodes, never as HTML, so
// nothing a node answers (names, reasons, notations) can inject markup.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// A definition list of [label, value] rows (rows with an undefined value are left out).
export function fields(rows) {
  return h('dl', { class: 'fields' },
    rows.filter((r) => r[1] !== undefined).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '—')]));
}

export function table(head, rows) {
  return h('table', {},
    h('thead', {}, h('tr', {}, head.map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((x) => h('td', {}, x))))));
}

export function link(href, text) {
  return h('a', { href }, text);
}

export function short(hex, n = 10) {
  if (typeof hex !== 'string') return '—';
  return hex.length > 2 * n ? hex.slice(0, n) + '…' + hex.slice(-4) : hex;
}
