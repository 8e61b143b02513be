// The browser client's entry point (docs/web.md): the chain head polled
// from node/info, the hash router, search.
import { get } from './api.js';
import { h } from './dom.js';
import * as ex from './explorer.js';
import { when } from './words.js';

const POLL_MS = 1000;
let info = null;
let rendering = 0;

function go(route) {
  if (location.hash === route) render();
  else location.hash = route;
}

function setText(id, text) {
  const el = document.getElementById(id);
  if (el.textContent !== text) el.textContent = text;
}

async function pollHead() {
  try {
    const i = await get('node/info');
    const changed = !info || i.height !== info.height || i.tip_hash !== info.tip_hash;
    info = i;
    setText('head-chain', i.chain_name);
    setText('head-height', String(i.height));
    setText('head-final', String(i.finalized_height));
    setText('head-tip', i.tip_hash.slice(0, 16) + '…');
    setText('head-mempool', String(i.mempool_size));
    setText('head-version', i.version);
    setText('head-status', i.synced ? `tip at ${when(i.tip_timestamp)}` : `not synced: ${i.sync_reason}`);
    document.getElementById('head').dataset.height = String(i.height);
    // the home view follows the head; other views are pages of record
    if (changed && currentRoute().name === '') render();
  } catch (e) {
    setText('head-status', 'node unreachable: ' + e.message);
  }
}

function currentRoute() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, query] = raw.split('?', 2);
  const parts = path.split('/').map(decodeURIComponent);
  return { name: parts[0] || '', arg: parts[1], params: new URLSearchParams(query || '') };
}

async function render() {
  const ticket = ++rendering;
  const r = currentRoute();
  const view = document.getElementById('view');
  let content;
  try {
    if (!info) info = await get('node/info');
    switch (r.name) {
      case '': content = await ex.home(info); break;
      case 'block': content = await ex.block(r.arg); break;
      case 'tx': content = await ex.tx(r.arg); break;
      case 'account': content = await ex.account(r.arg, r.params.get('cursor')); break;
      case 'apps': content = await ex.apps(r.params, go); break;
      case 'app': content = await ex.app(r.arg); break;
      default: content = h('p', { class: 'error' }, 'no such page: #/' + r.name);
    }
  } catch (e) {
    content = h('p', { class: 'error', role: 'alert' }, e.message);
  }
  if (ticket !== rendering) return; // a later navigation won
  view.replaceChildren(...[content].flat(Infinity).filter((x) => x));
  view.dataset.route = r.name;
  view.dataset.height = info ? String(info.height) : '';
}

document.getElementById('search').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const q = document.getElementById('search-input').value;
  if (!q.trim()) return;
  try {
    if (!info) info = await get('node/info');
    go(await ex.search(q, info));
  } catch (e) {
    document.getElementById('view').replaceChildren(h('p', { class: 'error' }, e.message));
  }
});

window.addEventListener('hashchange', render);
await pollHead();
render();
setInterval(pollHead, POLL_MS);
