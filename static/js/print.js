// TyreDesk print page (plain ES2020, no build step): opens the browser's print dialog once
// the page has loaded. Browsers say when the dialog closes ('afterprint', or window.print()
// returning) but not whether the sheets printed: a cancelled dialog and a PDF renderer look
// the same. So the page asks 'Did it print?' and marks the sheets printed only on 'Yes'; it
// then says what the server answered and tells the app's other tabs (list, detail) to refresh.
(() => {
'use strict';
const d = document, bar = d.querySelector('[data-print]');
if (!bar) return;
const meta = n => d.querySelector(`meta[name="${n}"]`)?.content || '';
const status = d.getElementById('print-status');
const question = bar.querySelector('[data-print-confirm]');
const yes = bar.querySelector('[data-print-yes]');
const printButton = bar.querySelector('[data-print-again]');
const ids = bar.dataset.ids.split(',').map(Number).filter(n => n > 0);
function say(text, level) {
  status.textContent = text;
  status.className = text ? 'status-' + level : '';
}
/** After the print dialog closed: ask whether the sheets printed, with 'Yes' focused (again,
 * when the dialog closed twice: printing hides the toolbar, which loses the focus). */
function ask() {
  if (yes.disabled) return; // marking: the answer is on its way
  if (question.hidden) {
    printButton.textContent = 'Print again';
    say('', 'info');
    question.hidden = false;
  }
  yes.focus();
}
function answered() {
  question.hidden = true;
}
function printNow() {
  answered();
  print();
  ask();
}
/** 'Yes': marks the sheets. The question stays until the server agrees, so a failed mark can
 * be answered again without printing a second copy. */
async function mark() {
  if (yes.disabled) return;
  yes.disabled = true;
  say('Marking as printed…', 'info');
  try {
    const r = await fetch(bar.dataset.markUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': meta('csrf-token'), 'X-Org-Id': meta('org-id') },
      body: JSON.stringify({ ids, variant: bar.dataset.variant }),
    });
    const j = await r.json().catch(() => ({}));
    if (r.ok) {
      answered();
      printButton.focus();
      say(j.message || 'Print successful', 'success');
      try { const c = new BroadcastChannel('tyredesk-print'); c.postMessage({ ids }); c.close(); } catch { /* old browser: other tabs refresh on reload */ }
    } else {
      say(j.message || `Not marked as printed (HTTP ${r.status})`, 'error');
    }
  } catch {
    say('Http Error: not marked as printed', 'error');
  } finally {
    yes.disabled = false;
  }
}
addEventListener('afterprint', ask);
yes.addEventListener('click', mark);
bar.querySelector('[data-print-no]').addEventListener('click', () => {
  answered();
  say('Not marked as printed.', 'info');
  printButton.focus();
});
printButton.addEventListener('click', printNow);
const open = () => setTimeout(printNow, 100);
d.readyState === 'complete' ? open() : addEventListener('load', open);
})();
