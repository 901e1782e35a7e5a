// Sheet form helpers: customer/supplier pickers (remote suggestions), customer money and
// due date, header events for the line editor, and cart check-out. The date fields and
// their shortcuts are the date component's (islands/src/lib/date-input-dom.ts): their
// named inputs are hidden and hold yyyy-MM-dd; setting one fires `change` so it shows.
(function () {
  'use strict';
  var form = document.getElementById('sheet-form');
  if (!form) return;
  var meta = function (n) { var m = document.querySelector('meta[name="' + n + '"]'); return m ? m.content : ''; };
  var getJSON = function (url) {
    return fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Org-Id': meta('org-id') } })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); });
  };
  var emit = function (name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); };
  var money = function (cents) { return (cents / 100).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }); };
  var field = function (name) { return form.querySelector('[name="' + name + '"]'); };

  // Cart check-out: the cart lives in this browser; hand its lines to the server once.
  var op = form.dataset.cartOperation;
  if (op) {
    var cart = {};
    try { cart = JSON.parse(localStorage.getItem('carts') || '{}') || {}; } catch (e) { cart = {}; }
    var items = (cart.items || []).filter(function (i) { return i && i.id && i.qty > 0; });
    var params = new URLSearchParams();
    params.set('items', items.map(function (i) { return i.id + ':' + i.qty; }).join(','));
    if (cart.csr && cart.csr.id) params.set('csr', cart.csr.id);
    if (op === 'addFromCartAndClear') localStorage.removeItem('carts');
    location.replace(location.pathname + '?' + params.toString());
    return;
  }

  function dueDate() {
    var c = field('customer_id'), d = field('date'), due = field('due_date');
    if (!c || !c.value || !d || !/^\d{4}-\d{2}-\d{2}$/.test(d.value) || !due) return;
    getJSON('/api/due-date?customerId=' + encodeURIComponent(c.value) + '&date=' + encodeURIComponent(d.value))
      .then(function (j) {
        if (!j.dueDate || j.dueDate === due.value) return;
        due.value = j.dueDate;
        due.dispatchEvent(new Event('change', { bubbles: true }));
      }).catch(function () {});
  }

  // The sheet's lines name no product yet (a new sheet being typed).
  function noProductLines() {
    var lines = [];
    try { lines = JSON.parse((field('lines_json') || {}).value || '[]') || []; } catch (e) { lines = []; }
    return !lines.some(function (l) { return l && l.productId; });
  }

  function customerPicked(id) {
    // The lines are priced for the customer at once; a new sheet goes on to its first line
    // (the date, warehouse and staff have their defaults: issue 32).
    if (id) {
      emit('customer-changed', { id: id });
      var first = form.querySelector('[aria-label="Item Code line 1"]');
      if (first && noProductLines()) first.focus();
    }
    getJSON('/api/customers/' + id).then(function (j) {
      var c = j.data || {};
      var set = function (sel, text) { var el = form.querySelector(sel); if (el) el.textContent = text; };
      set('[data-credit-limit]', money(c.creditLimit || 0));
      set('[data-balance]', money(c.xeroBalance || 0));
      set('[data-overdue]', money(c.overdue || 0));
      var late = form.querySelector('[data-overdue-wrap]');
      if (late) late.hidden = !(c.overdue > 0);
      var remark = [c.note, c.attention].filter(Boolean).join(' · ');
      set('[data-remark]', remark);
      form.querySelector('[data-remark]')?.setAttribute('title', remark); // the line is cut: whole on hover
      var addr = field('address'), phone = field('phone');
      if (addr && !addr.value) addr.value = [c.address, [c.city, c.state, c.postal].filter(Boolean).join(' ')].filter(Boolean).join(', ');
      if (phone && !phone.value) phone.value = c.phone || '';
      // The customer's own service and business staff; the user can still choose others.
      [['csr_service_id', c.cs_id], ['csr_bd_id', c.bd_id]].forEach(function (p) {
        var sel = field(p[0]);
        if (sel && p[1] && sel.querySelector('option[value="' + p[1] + '"]')) sel.value = String(p[1]);
      });
      emit('customer-changed', { id: c.id, priceType: c.priceType });
    }).catch(function () {});
    dueDate();
  }

  document.addEventListener('picker-picked', function (e) {
    if (e.detail && e.detail.target === 'customer_id' && form.contains(e.detail.input)) customerPicked(e.detail.id);
  });

  // Enter in a header field moves on instead of submitting; Ctrl+Enter submits. The line
  // editor's keys are its own once it runs; its plain first rows (before) follow this rule.
  form.addEventListener('keydown', function (e) {
    var island = e.target.closest('app-island');
    if (e.key !== 'Enter' || e.target.tagName === 'TEXTAREA' || (island && island.querySelector('[data-live]'))) return;
    if (e.ctrlKey || e.metaKey) { e.preventDefault(); form.requestSubmit(); return; }
    if (e.target.matches('input, select')) e.preventDefault();
  });

  var date = field('date');
  if (date) date.addEventListener('change', dueDate);
  form.querySelectorAll('select[data-event]').forEach(function (s) {
    s.addEventListener('change', function () {
      var v = s.value ? Number(s.value) : null;
      emit(s.dataset.event, s.dataset.event === 'tax-type-changed' ? { taxType: v } : { id: v });
    });
  });
})();
