// Remote pickers: `<input data-picker="/api/…?name=" data-target="hidden_field_name">`.
// Type to search (debounced), ArrowUp/ArrowDown to move, Enter to pick, Esc to close.
// Picking fills the visible text and the hidden id, and dispatches `picker-picked`
// ({target, id, name, input, item}); the page's other scripts react to it.
(function () {
  'use strict';
  var meta = function (n) { var m = document.querySelector('meta[name="' + n + '"]'); return m ? m.content : ''; };
  function attach(input) {
    if (input.dataset.pickerReady) return;
    input.dataset.pickerReady = '1';
    var scope = input.form || document;
    var hidden = scope.querySelector('[name="' + input.dataset.target + '"]');
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
        if (h.overdue > 0) { // a customer's overdue amount, as Xero's payments last said
          var late = document.createElement('span');
          late.className = 'tag tag-red';
          late.textContent = 'Overdue $' + (h.overdue / 100).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
      close();
      document.dispatchEvent(new CustomEvent('picker-picked', { detail: { target: input.dataset.target, id: h.id, name: h.name, input: input, item: h } }));
    }
    input.addEventListener('input', function () {
      if (hidden) hidden.value = '';
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
  }
  function scan(root) { (root || document).querySelectorAll('input[data-picker]').forEach(attach); }
  scan();
  document.addEventListener('htmx:afterSettle', function (e) { scan(e.target); });
})();
