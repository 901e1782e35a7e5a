// TyreDesk print page (plain ES2020, no build step): opens the browser's print dialog once
// the page has loaded; when printing completes ('afterprint'), marks the sheets printed,
// says 'Print successful' and tells the app's other tabs (list, detail) to refresh.
(() => {
'use strict';
const d = document, bar = d.querySelector('[data-print]');
if (!bar) return;
const meta = n => d.querySelector(`meta[name="${n}"]`)?.content || '';
const status = d.getElementById('print-status');
const ids = bar.dataset.ids.split(',').map(Number).filter(n => n > 0);
let busy = false;
function say(text, level) {
  status.textContent = text;
  status.className = 'status-' + level;
}
async function mark() {
  if (busy) return;
  busy = true;
  say('Marking as printed…', 'info');
  try {
    const r = await fetch(bar.dataset.markUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': meta('csrf-token'), 'X-Org-Id': meta('org-id') },
      body: JSON.stringify({ ids, variant: bar.dataset.variant }),
    });
    const j = await r.json().catch(() => ({}));
    if (r.ok) {
      say(j.message || 'Print successful', 'success');
      try { const c = new BroadcastChannel('tyredesk-print'); c.postMessage({ ids }); c.close(); } catch { /* old browser: other tabs refresh on reload */ }
    } else {
      say(j.message || `Not marked as printed (HTTP ${r.status})`, 'error');
    }
  } catch {
    say('Http Error: not marked as printed', 'error');
  } finally {
    busy = false;
  }
}
addEventListener('afterprint', mark);
bar.querySelector('[data-print-again]')?.addEventListener('click', () => print());
const open = () => setTimeout(() => print(), 100);
d.readyState === 'complete' ? open() : addEventListener('load', open);
})();
