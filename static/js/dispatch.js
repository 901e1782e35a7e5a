// The dispatch board (issue 34): Space ticks the focused row's box, "Select all shown",
// the table's polling skipped while a box is ticked or a row has focus (so a refresh never
// unticks what the user chose), the picking PDFs of the ticked sheets, and the
// reconciliation's Print button.
(() => {
  const table = () => document.getElementById('board-table');
  document.addEventListener('keydown', e => {
    const tr = e.target.matches?.('.dispatch-table tr[data-href]') && e.target;
    if (!tr || e.key != ' ' || e.altKey || e.ctrlKey || e.metaKey) return;
    const box = tr.querySelector('input[type=checkbox][name=order_id]');
    if (box) { e.preventDefault(); box.checked = !box.checked; }
  });
  document.addEventListener('change', e => {
    if (!e.target.matches?.('[data-board-all]')) return;
    for (const b of table()?.querySelectorAll('input[name=order_id]') || []) b.checked = e.target.checked;
  });
  document.addEventListener('htmx:beforeRequest', e => {
    const t = table();
    if (!t || e.detail?.elt !== t) return;
    if (t.querySelector('input[type=checkbox]:checked') || t.contains(document.activeElement)) e.preventDefault();
  });
  document.addEventListener('click', e => {
    if (e.target.closest?.('[data-print]')) window.print();
    // The picking PDFs take only the warehouse and the ticked sheets (not the form's token).
    const b = e.target.closest?.('button[data-picking]');
    if (!b) return;
    const f = b.form, ids = [...f.querySelectorAll('input[name=order_id]:checked')].map(i => i.value);
    if (!ids.length) return;
    e.preventDefault();
    const q = new URLSearchParams([['warehouse_id', f.elements.warehouse_id.value], ...ids.map(id => ['order_id', id])]);
    if (b.name == 'per_sheet') q.set('per_sheet', b.value);
    window.open(b.getAttribute('formaction') + '?' + q, '_blank', 'noopener');
  });
})();
