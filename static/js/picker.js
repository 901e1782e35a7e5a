// Remote pickers: `<input data-picker="/api/…?name=" data-target="hidden_field_name">`.
// Type to search (debounced), ArrowUp/ArrowDown to move, Enter to pick, Esc to close.
// Picking fills the visible text and the hidden id, and dispatches `picker-picked`
// ({target, id, name, input, item}); the page's other scripts react to it.
(function () {
  'use strict';
  var meta = function (n) { var m = document.querySelector('meta[name="' + n + '"]'); return m ? m.content : ''; };
  // Cents as the app shows money: $1,234.56, a negative balance as -$12.00.
  var money = function (cents) {
    var v = Math.abs(cents) / 100;
    return (cents < 0 ? '-$' : '$') + v.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  };
  function attach(input) {
    if (input.dataset.pickerReady) return;
    input.dataset.pickerReady = '1';
    var scope = input.form || document;
    var hidden = scope.querySelector('[name="' + input.dataset.target + '"]');
    // `data-picker-balance`: each customer shows their balance, and the picked one's stays
    // beside the field (`[data-balance-for=<target>]`).
    var withBalance = input.hasAttribute('data-picker-balance');
    var shown = document.querySelector('[data-balance-for="' + input.dataset.target + '"]');
    function showBalance(cents) {
      if (!shown) return;
      shown.textContent = typeof cents === 'number' ? 'Balance ' + money(cents) : '';
    }
    var list = document.createElement('ul');
    list.className = 'picker-list';
    list.hidden = true;
    list.setAttribute('role', 'listbox');
    input.insertAdjacentElement('afterend', list);
    var timer = 0, hits = [], active = -1;
    function close() { list.hidden = true; active = -1; }
    function draw() {
      list.innerHTML = '';
      hits.forEach(function (h, i) {
        var li = document.createElement('li');
        li.textContent = h.name + (h.code ? ' (' + h.code + ')' : '');
        if (withBalance && typeof h.xeroBalance === 'number') { // quoting's To CSR (spec §2.4)
          var bal = document.createElement('span');
          bal.className = 'picker-balance';
          bal.textContent = 'Balance ' + money(h.xeroBalance);
          li.appendChild(document.createTextNode(' '));
          li.appendChild(bal);
        }
        if (h.overdue > 0) { // a customer's overdue amount, as Xero's payments last said
          var late = document.createElement('span');
          late.className = 'tag tag-red';
          late.textContent = 'Overdue ' + money(h.overdue);
          li.appendChild(document.createTextNode(' '));
          li.appendChild(late);
        }
        li.setAttribute('role', 'option');
        if (i === active) li.className = 'active';
        li.addEventListener('mousedown', function (e) { e.preventDefault(); pick(i); });
        list.appendChild(li);
      });
      list.hidden = hits.length === 0;
    }
    function pick(i) {
      var h = hits[i];
      if (!h) return;
      input.value = h.name;
      if (hidden) hidden.value = h.id;
      if (withBalance) showBalance(h.xeroBalance);
      close();
      document.dispatchEvent(new CustomEvent('picker-picked', { detail: { target: input.dataset.target, id: h.id, name: h.name, input: input, item: h } }));
    }
    input.addEventListener('input', function () {
      if (hidden) hidden.value = '';
      if (withBalance) showBalance(null);
      clearTimeout(timer);
      var q = input.value.trim();
      if (!q) {
        close();
        document.dispatchEvent(new CustomEvent('picker-picked', { detail: { target: input.dataset.target, id: null, name: '', input: input, item: null } }));
        return;
      }
      timer = setTimeout(function () {
        fetch(input.dataset.picker + encodeURIComponent(q), { credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Org-Id': meta('org-id') } })
          .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
          .then(function (j) { hits = j.data || []; active = hits.length ? 0 : -1; draw(); })
          .catch(close);
      }, 300);
    });
    input.addEventListener('keydown', function (e) {
      if (list.hidden) return;
      if (e.key === 'ArrowDown') { active = Math.min(active + 1, hits.length - 1); draw(); e.preventDefault(); }
      else if (e.key === 'ArrowUp') { active = Math.max(active - 1, 0); draw(); e.preventDefault(); }
      else if (e.key === 'Enter') { pick(active); e.preventDefault(); e.stopPropagation(); }
      else if (e.key === 'Escape') { close(); e.preventDefault(); }
    });
    input.addEventListener('blur', function () { setTimeout(close, 150); });
    // A customer set from elsewhere (the page's address, a restored cart): read their balance.
    input.addEventListener('picker-set', function () {
      if (!withBalance) return;
      showBalance(null);
      var id = hidden && hidden.value;
      if (!id) return;
      fetch('/api/balance/' + encodeURIComponent(id), { credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Org-Id': meta('org-id') } })
        .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
        .then(function (j) { if (hidden.value === id && j.data) showBalance(j.data.xeroBalance); })
        .catch(function () {});
    });
    if (withBalance && hidden && hidden.value) input.dispatchEvent(new Event('picker-set'));
  }
  function scan(root) { (root || document).querySelectorAll('input[data-picker]').forEach(attach); }
  scan();
  document.addEventListener('htmx:afterSettle', function (e) { scan(e.target); });
})();
