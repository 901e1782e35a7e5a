// TyreDesk page script (plain ES2020, no build step)
(() => {
'use strict';
const d = document, L = 5000, on = (n, f, c) => d.addEventListener(n, f, c);
const $ = (s, r = d) => r.querySelector(s), $$ = (s, r = d) => [...r.querySelectorAll(s)];
const meta = n => $(`meta[name="${n}"]`)?.content || '';
const ls = (k, v) => { try { const s = localStorage; return v === undefined ? s.getItem(k) : v === null ? s.removeItem(k) : s.setItem(k, v); } catch {} };
const clearCarts = () => { ls('carts', null); ls('carts_csr', null); };
const stop = e => { e.preventDefault(); e.stopImmediatePropagation(); };
const org = meta('org-id');
let leaving, orgBox, procT;
function toast(text, level, ms) {
  const box = $('#toasts'), lines = [text].flat(2).filter(t => t || t === 0);
  if (!box || !lines.length) return;
  const el = d.createElement('div'), life = +ms > 0 ? +ms : L;
  el.className = 'toast toast-' + (level || 'info');
  for (const t of lines) el.appendChild(d.createElement('p')).textContent = t;
  Object.assign(el.dataset, { level: level || 'info', until: Date.now() + life });
  el.onclick = () => el.remove();
  box.appendChild(el);
  setTimeout(() => el.remove(), life);
}
on('td:toast', e => {
  let v = e.detail;
  if (v?.text == null && v?.value != null) v = v.value; // HX-Trigger string/array
  if (typeof v == 'string' || Array.isArray(v)) v = { text: v };
  if (v) toast(v.text ?? v.message, v.level, v.ms);
});
function flash() {
  for (const t of $$('template#flash')) {
    toast(t.content.textContent.trim().split(/\s*\n\s*/), t.dataset.level, t.dataset.ms);
    t.remove();
  }
}
function processing(show) {
  clearTimeout(procT);
  $('#processing')?.toggleAttribute('hidden', !show);
}
const orgChanged = () => { const c = ls('orgId'); return !!(org && c && c != org); };
function showOrgChanged() {
  processing(false);
  if (orgBox?.isConnected) return;
  for (const el of d.body.children) if (el.id != 'toasts') el.inert = true;
  orgBox = d.body.appendChild(Object.assign(d.createElement('div'), { className: 'org-changed',
    innerHTML: '<div role="alertdialog"><p>Organization has been changed, reload the page ?</p><button type="button" class="btn primary">Reload</button></div>' }));
  const b = $('button', orgBox);
  b.onclick = () => location.reload();
  b.focus();
}
on('td:org-changed', showOrgChanged);
addEventListener('storage', () => orgChanged() && showOrgChanged());
function httpError(st, body, hdr) {
  processing(false);
  let j = null;
  try { j = JSON.parse(body); } catch {}
  if (st == 401) {
    if (!leaving) { leaving = 1; toast('Login info expired, please login again', 'error'); setTimeout(() => location.assign('/login'), 1000); }
  } else if (st == 409 && /org_changed/.test(hdr('X-TD-Code') + body)) showOrgChanged();
  else if (/td:toast/.test(hdr('HX-Trigger'))) ; // server sent its own
  else if (st == 429) toast('Too many attempts, please slow down the fresh pace', 'error');
  else {
    const m = typeof j == 'string' || Array.isArray(j) ? j : j?.message || j?.errors && Object.values(j.errors).flat();
    toast(m || body.replace(/<style[\s\S]*?<\/style>|<[^>]+>/gi, ' ').replace(/\s+/g, ' ').trim().slice(0, 300) || 'Http Error',
      'error', [400, 403, 422].includes(st) ? 3500 : L);
  }
}
const proc = e => e.detail.elt?.closest?.('[data-processing]');
on('htmx:configRequest', e => {
  const h = e.detail.headers, t = meta('csrf-token');
  if (t) h['X-CSRF-Token'] = t;
  if (org) h['X-Org-Id'] = org;
});
on('htmx:beforeRequest', e => {
  if (leaving || orgChanged()) { e.preventDefault(); leaving || showOrgChanged(); }
  else if (proc(e)) processing(true);
});
on('htmx:afterRequest', e => proc(e) && processing(false));
on('htmx:responseError', ({ detail: { xhr: x } }) => httpError(x.status, x.responseText || '', h => x.getResponseHeader(h)));
on('htmx:sendError', () => { processing(false); toast('Http Error', 'error'); });
on('htmx:afterSettle', flash);
// A dialog the server sends (e.g. quoting's CHK history) opens modal: Esc closes it, focus
// stays in it, and the page behind is inert, as with the page's own dialogs.
on('htmx:afterSwap', e => { // as it is swapped in, before a key can reach the page
  const root = e.detail?.target || e.target;
  for (const dlg of [root, ...$$('dialog[open]', root)]) {
    if (dlg?.matches?.('dialog[open]') && !dlg.matches(':modal')) { dlg.close(); dlg.showModal(); }
  }
});
// capture: before htmx and default actions
on('click', e => {
  const t = e.target, el = t.closest?.('[data-confirm]:is(a,button,[type=submit],[type=button])');
  // A menu's entry (a link, or a button that opens a dialog or sends a form) closes its menu.
  for (const dd of $$('details.dropdown[open]')) if (!dd.contains(t) || t.closest('.menu :is(a,button)')) dd.open = false;
  if (el && !el.disabled && !confirm(el.dataset.confirm)) stop(e);
}, true);
// Dialog and back buttons (the Content-Security-Policy allows no inline handlers)
on('click', e => {
  const el = e.target.closest?.('[data-dialog-open],[data-dialog-close],[data-dialog-remove],[data-back]');
  if (!el) return;
  if (el.dataset.dialogOpen) d.getElementById(el.dataset.dialogOpen)?.showModal();
  else if (el.matches('[data-back]')) { if (history.length > 1) { e.preventDefault(); history.back(); } }
  else if (el.matches('[data-dialog-close]')) el.closest('dialog')?.close();
  else el.closest('dialog')?.remove();
});
on('submit', e => {
  const f = e.target, out = f.matches('.logout');
  if (!out && orgChanged()) { stop(e); showOrgChanged(); }
  else if (f.id == 'login-form' && !validate(f)) stop(e);
  else if (f.matches('[data-validate]') && !validateFields(f)) stop(e);
  else if (f.dataset.confirm && !f.matches('.org-switch') && !confirm(f.dataset.confirm)) stop(e);
  else if (out) clearCarts();
}, true);
on('submit', e => {
  const f = e.target;
  if (e.defaultPrevented || !f.matches('[data-processing]') || (e.submitter?.getAttribute('formtarget') || f.target) == '_blank') return;
  processing(true);
  procT = setTimeout(processing, 60000);
});
addEventListener('pageshow', () => processing(false));

function check(i) {
  const pw = i.type == 'password';
  if (!pw && !/mail|user/i.test(i.type + i.name)) return true;
  const msg = pw ? (i.value ? '' : 'Please enter your password')
    : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(i.value.trim()) ? '' : 'Please enter your email';
  const fld = i.closest('.field'), err = fld?.querySelector('.field-error');
  fld?.classList.toggle('has-error', !!msg);
  if (err) err.textContent = msg;
  i.setAttribute('aria-invalid', !!msg);
  return !msg;
}
function validate(f) {
  const bad = $$('input', f).filter(i => !check(i));
  bad[0]?.focus();
  return !bad.length;
}
// Server-rendered forms: [data-required] holds the 'Please enter' text, [data-max] a length limit.
const checked = '[data-required],[data-max]';
function checkField(i) {
  const v = i.value.trim(), max = +i.dataset.max || 0;
  return showCheck(i, i.dataset.required != null && !v ? i.dataset.required : max && [...v].length > max ? i.dataset.maxMsg : '');
}
function showCheck(i, msg) {
  const fld = i.closest('.field'), err = fld?.querySelector('.field-error');
  fld?.classList.toggle('has-error', !!msg);
  if (err) err.textContent = msg;
  i.setAttribute('aria-invalid', !!msg);
  return !msg;
}
// [data-either] names the other field that satisfies the rule (contact first or last name):
// checked on submit only, with the rest, so its message shows on the first submit.
function checkEither(i) {
  const other = i.form?.elements[i.dataset.either];
  return showCheck(i, !i.value.trim() && !other?.value.trim() ? i.dataset.eitherMsg : '');
}
function validateFields(f) {
  const bad = $$(checked + ',[data-either]', f).filter(i => !(i.matches('[data-either]') ? checkEither(i) && (!i.matches(checked) || checkField(i)) : checkField(i)));
  bad[0]?.focus();
  return !bad.length;
}
// Toasts still showing when a page moves on by itself continue on the next page.
function carryToasts() {
  const now = Date.now(), left = $$('#toasts .toast').map(t => ({ text: $$('p', t).map(p => p.textContent), level: t.dataset.level, ms: t.dataset.until - now }));
  try { sessionStorage.setItem('td-toasts', JSON.stringify(left.filter(t => t.ms > 0))); } catch {}
}
function carriedToasts() {
  let list = [];
  try { list = JSON.parse(sessionStorage.getItem('td-toasts') || '[]'); sessionStorage.removeItem('td-toasts'); } catch {}
  for (const t of list) toast(t.text, t.level, t.ms);
}
function badgePoll() {
  let t;
  async function poll() {
    clearTimeout(t);
    if (d.hidden) return;
    if (!leaving && !orgChanged()) {
      try {
        const r = await fetch($('#csr-badge').dataset.pollUrl, { headers: { Accept: 'application/json', 'X-Org-Id': org } });
        if (r.ok) {
          const j = await r.json(), n = +(j.cnt ?? j.data?.cnt) || 0, b = $('#csr-badge');
          b.textContent = n;
          b.hidden = n <= 0;
        } else if (r.status == 401 || r.status == 409) httpError(r.status, await r.text(), k => r.headers.get(k));
      } catch {}
    }
    t = setTimeout(poll, 60000);
  }
  on('visibilitychange', () => d.hidden ? clearTimeout(t) : poll());
  /^\d/.test($('#csr-badge').textContent.trim()) ? t = setTimeout(poll, 60000) : poll();
}
// delegated: survives htmx history restores
const inLogin = e => e.target.form?.id == 'login-form';
on('focusout', e => inLogin(e) ? check(e.target) : e.target.matches?.(checked) && checkField(e.target));
on('input', e => inLogin(e) ? e.target.closest('.has-error') && check(e.target) : e.target.matches?.(checked) && e.target.closest('.has-error') && checkField(e.target));
on('input', e => {
  const i = e.target.form && $$('[data-either]', e.target.form).find(x => x == e.target || x.dataset.either == e.target.name);
  if (i?.closest('.has-error')) checkEither(i);
});
on('change', e => {
  const sel = e.target, f = sel.form;
  if (!f?.matches('.org-switch')) return;
  if (f.dataset.confirm && !confirm(f.dataset.confirm)) return f.reset();
  clearCarts();
  ls('orgId', sel.value);
  processing(true);
  HTMLFormElement.prototype.submit.call(f); // no submit event: no org guard
});
on('htmx:historyRestore', () => { processing(false); $('#toasts')?.replaceChildren(); });
// Batch printing: select all, the count, and no empty submit
function selectionCount(f) {
  const n = $$('input[type=checkbox]:checked:not([data-select-all])', f).length, c = $('[data-selection-count]', f);
  if (c) c.textContent = n ? `${n} selected` : 'None selected';
}
on('change', e => {
  const t = e.target, f = t.closest?.('[data-selection]');
  if (!f) return;
  if (t.matches('[data-select-all]')) for (const b of $$('input[type=checkbox]:not([data-select-all])', f)) b.checked = t.checked;
  selectionCount(f);
});
on('submit', e => {
  const f = e.target;
  if (f.matches('[data-selection]') && !$('input[type=checkbox]:checked:not([data-select-all])', f)) {
    stop(e);
    toast('Select at least one invoice or credit note to print.', 'warning', 3500);
  }
}, true);
// List rows open their detail on click and Enter (through the row's own link, so it opens
// where the link does); Up/Down move between rows. Clicks on controls inside a row stay theirs.
const rowLink = tr => $('a[href]', tr);
on('click', e => {
  const tr = e.target.closest?.('tr[data-href]');
  if (!tr || e.target.closest('a,button,input,select,label,summary') || getSelection().toString()) return;
  rowLink(tr)?.click();
});
on('keydown', e => {
  const tr = e.target.matches?.('tr[data-href]') && e.target;
  if (!tr || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key == 'Enter') { stop(e); rowLink(tr)?.click(); }
  else if (e.key == 'ArrowDown' || e.key == 'ArrowUp') {
    const next = e.key == 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling;
    if (next?.matches('[data-href]')) { stop(e); next.focus(); }
  }
});
// A print tab marked sheets printed: update this detail's tag, refresh this list
function printed(ids) {
  const tag = $('#print-tag');
  if (tag && ids.includes(tag.dataset.orderId)) { tag.textContent = tag.dataset.printedLabel; tag.className = 'tag tag-green'; }
  if ($('#results [data-selection]') && window.htmx) htmx.ajax('GET', location.pathname + location.search, { target: '#results', swap: 'innerHTML' });
}
try { new BroadcastChannel('tyredesk-print').onmessage = e => printed((e.data?.ids || []).map(String)); } catch { /* no BroadcastChannel */ }
function init() {
  const lf = $('#login-form');
  if (lf) { ls('orgId', null); lf.noValidate = true; } else if (org) ls('orgId', org);
  if ($('#csr-badge')?.dataset.pollUrl) badgePoll();
  carriedToasts();
  flash();
  const u = new URL(location.href), r = $('#redirect[data-url]');
  if (u.searchParams.has('saved')) { u.searchParams.delete('saved'); history.replaceState(history.state, '', u); }
  if (r) setTimeout(() => { carryToasts(); location.replace(r.dataset.url); }, +r.dataset.ms || 0);
}
d.readyState == 'loading' ? on('DOMContentLoaded', init) : init();
window.TyreDesk = { toast, processing };
})();
// Asks an island to act (`name` event with `detail`). On a slow link the island may not
// have mounted yet: the request is sent again every 100 ms until an island claims it
// (preventDefault), for up to 10 s, so the user's click is not lost.
window.TyreDesk.ask = function (name, detail) {
  var tries = 0;
  (function send() {
    var claimed = !document.dispatchEvent(new CustomEvent(name, { detail: detail, cancelable: true }));
    if (!claimed && ++tries < 100) setTimeout(send, 100);
  })();
};
// Row buttons `data-action="<event>" data-id="<product id>"` tell an island to open.
document.addEventListener('click', function (e) {
  var b = e.target.closest && e.target.closest('button[data-action][data-id]');
  if (b) window.TyreDesk.ask(b.dataset.action, { productId: Number(b.dataset.id) });
});
// `form[data-upload]`: sends one file to the form's action as multipart with the CSRF
// header and shows the answer ('Operation Success' or the row errors) as a toast.
document.addEventListener('submit', function (e) {
  var f = e.target;
  if (!f.matches || !f.matches('form[data-upload]')) return;
  e.preventDefault();
  var meta = function (n) { var m = document.querySelector('meta[name="' + n + '"]'); return m ? m.content : ''; };
  window.TyreDesk.processing(true);
  fetch(f.action, { method: 'POST', body: new FormData(f), credentials: 'same-origin', headers: { 'X-CSRF-Token': meta('csrf-token'), 'X-Org-Id': meta('org-id'), Accept: 'application/json' } })
    .then(function (r) { return r.json().catch(function () { return {}; }).then(function (j) { return { ok: r.ok, j: j }; }); })
    .then(function (x) {
      window.TyreDesk.processing(false);
      if (x.ok) { window.TyreDesk.toast(x.j.message || 'Operation Success', 'success', 3500); f.reset(); document.dispatchEvent(new CustomEvent('upload-done', { detail: { form: f } })); }
      else { window.TyreDesk.toast(x.j.errors ? Object.values(x.j.errors) : (x.j.message || 'Http Error'), 'error', 5000); }
    })
    .catch(function () { window.TyreDesk.processing(false); window.TyreDesk.toast('Http Error', 'error', 5000); });
});
// A form sent from a native dialog closes that dialog, so what the server answers (a
// confirmation, a toast, the reloaded page) is not hidden behind it.
document.addEventListener('htmx:beforeRequest', function (e) {
  var dlg = e.target.closest && e.target.closest('dialog[open]');
  if (dlg && e.target.tagName === 'FORM' && dlg.id !== 'dlg-confirm-approve') dlg.close();
});
