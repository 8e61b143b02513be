// The browser client's entry point (docs/web.md): the chain head polled
// from node/info, the hash router, search.
import { get } from './api.js';
import { h } from './dom.js';
import * as ex from './explorer.js';
import * as wallet from './wallet.js';
import { when } from './words.js';

const POLL_MS = 1000;
let info = null;
let rendering = 0;
// The app page's event stream (docs/api.md §11): each event re-renders the
// page, so a board moves with no reload; closed when the route changes.
let stream = null;
// a new key's seed, shown once on the wallet page after it was created
let newSeed = null;

function rerenderWallet(seedHex) {
  newSeed = seedHex || null;
  render();
}

function follow(route) {
  const key = route.name === 'app' ? route.arg : null;
  if (stream && stream.key === key) return;
  if (stream) stream.source.close();
  stream = null;
  if (key === null) return;
  const source = new EventSource('/api/v1/apps/' + encodeURIComponent(key) + '/events');
  let pending = false;
  const again = () => {
    if (pending) return;
    pending = true;
    setTimeout(() => { pending = false; render(); }, 50); // one render per burst
  };
  // every event kind an app stream carries (consensus/events.c)
  for (const kind of ['app_create', 'app_join', 'app_leave', 'app_activate', 'app_move', 'app_pending',
    'app_discard', 'app_keepalive', 'app_claim', 'app_resign', 'app_payout', 'app_rake', 'app_end',
    'bet_settle', 'app_escrow', 'fee', 'transfer', 'noop']) {
    source.addEventListener(kind, again);
  }
  stream = { key, source };
}

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
  let failed = false;
  try {
    if (!info) info = await get('node/info');
    switch (r.name) {
      case '': content = await ex.home(info); break;
      case 'block': content = await ex.block(r.arg); break;
      case 'tx': content = await ex.tx(r.arg); break;
      case 'account': content = await ex.account(r.arg, r.params.get('cursor')); break;
      case 'apps': content = await ex.apps(r.params, go); break;
      case 'app': content = await ex.app(r.arg); break;
      case 'wallet':
        content = [newSeed ? wallet.newSeedNotice(newSeed) : null, await wallet.page(rerenderWallet)];
        newSeed = null;
        break;
      default: content = h('p', { class: 'error' }, 'no such page: #/' + r.name);
    }
  } catch (e) {
    content = h('p', { class: 'error', role: 'alert' }, e.message);
    failed = true;
  }
  if (ticket !== rendering) return; // a later navigation won
  view.replaceChildren(...[content].flat(Infinity).filter((x) => x));
  if (!failed) follow(r);
  else follow({ name: '' });
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
