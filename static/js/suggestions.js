// Purchase suggestions (issue 35): Up/Down move between rows (across the supplier groups),
// Space ticks the focused row, the head box ticks every row shown.
(function () {
  const rows = () => Array.from(document.querySelectorAll('.suggestions-table tr[data-row]'));
  document.addEventListener('keydown', e => {
    const tr = e.target.matches?.('tr[data-row]') && e.target;
    if (!tr || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === ' ') {
      const box = tr.querySelector('input[name=pick]');
      if (box) { box.checked = !box.checked; e.preventDefault(); }
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const all = rows(), i = all.indexOf(tr), next = all[e.key === 'ArrowDown' ? i + 1 : i - 1];
      if (next) { next.focus(); e.preventDefault(); }
    }
  });
  document.addEventListener('change', e => {
    if (e.target.matches?.('[data-suggest-all]')) for (const b of document.querySelectorAll('.suggestions-table input[name=pick]')) b.checked = e.target.checked;
  });
})();
