// Quoting rows: quantity 0–999 with Add disabled at 0 (dispatches `cart-add` to the cart
// island), the price dialog on the A/COD price, and the To CSR picker feeding the cart.
(function () {
  'use strict';
  // 'Save quotation' posts the cart's items (`id:qty,…`) and its customer, read from the
  // cart's storage (the cart island keeps it in localStorage 'carts').
  var save = document.getElementById('save-quotation');
  if (save) save.addEventListener('submit', function () {
    var cart = null;
    try { cart = JSON.parse(window.localStorage.getItem('carts') || 'null'); } catch (err) { cart = null; }
    var items = cart && Array.isArray(cart.items) ? cart.items.filter(function (i) { return i && i.id > 0 && i.qty > 0; }).map(function (i) { return i.id + ':' + i.qty; }).join(',') : '';
    save.elements.items.value = items;
    var picked = document.querySelector('input[name="csr"]');
    var csr = cart && cart.csr && cart.csr.id ? cart.csr.id : (picked ? picked.value : '');
    if (csr) save.elements.customer.value = csr;
  });
  var results = document.getElementById('results');
  if (!results) return;
  function qtyOf(input) { var n = Number(input.value); return Number.isInteger(n) && n >= 0 && n <= 999 ? n : -1; }
  results.addEventListener('input', function (e) {
    if (!e.target.classList.contains('cart-qty')) return;
    var n = qtyOf(e.target);
    var add = e.target.parentElement.querySelector('.cart-add');
    if (add) add.disabled = !(n > 0);
    e.target.setCustomValidity(n < 0 ? 'Quantity must be a whole number from 0 to 999' : '');
  });
  results.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && e.target.classList.contains('cart-qty')) {
      e.preventDefault();
      var add = e.target.parentElement.querySelector('.cart-add');
      if (add && !add.disabled) add.click();
    }
  });
  results.addEventListener('click', function (e) {
    var add = e.target.closest('.cart-add');
    if (add) {
      var row = add.closest('tr');
      var input = row.querySelector('.cart-qty');
      var n = qtyOf(input);
      if (n > 0) {
        // The cart loads its code on first use: `ask` repeats until it has taken the item.
        window.TyreDesk.ask('cart-add', { id: Number(row.dataset.product), code: row.dataset.code, name: row.dataset.name, qty: n });
        input.value = '0';
        add.disabled = true;
      }
      return;
    }
    var price = e.target.closest('[data-price-product]');
    if (price) window.TyreDesk.ask('open-price-dialog', { productId: Number(price.dataset.priceProduct) });
  });
  // The chosen customer belongs to the cart; a restored cart brings its customer back.
  document.addEventListener('picker-picked', function (e) {
    if (e.detail && e.detail.target === 'csr') window.TyreDesk.ask('customer-changed', { id: e.detail.id, name: e.detail.name });
  });
  // 'Empty & GO' empties the cart and its customer ({id: null}): the field empties too.
  document.addEventListener('cart-customer', function (e) {
    var label = document.querySelector('input[name="csr_label"]'), id = document.querySelector('input[name="csr"]');
    if (!label || !id || !e.detail) return;
    if (e.detail.id === null) { label.value = ''; id.value = ''; }
    else if (!id.value && e.detail.id) { label.value = e.detail.name; id.value = e.detail.id; }
    else return;
    label.dispatchEvent(new Event('picker-set'));
  });
  // The stock pop-up is fixed to the viewport beside its number, so the table's scrolling
  // box cannot clip it; one is open at a time, and scrolling the table closes it.
  function placePop(dd) {
    var pop = dd.querySelector('.stock-pop');
    if (!pop) return;
    var at = dd.querySelector('summary').getBoundingClientRect(), gap = 4;
    var vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
    // The sticky top bar lies over the page: the pop-up keeps below it, and scrolls inside
    // when it is taller than what is left (a tyre's lots by DOT date and what is coming).
    var bar = document.querySelector('header.topbar');
    var floor = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    pop.style.left = '0px';
    pop.style.top = '0px';
    pop.style.maxHeight = (vh - floor - 2 * gap) + 'px';
    var w = pop.offsetWidth, h = pop.offsetHeight;
    var left = Math.max(gap, Math.min(at.right - w, vw - w - gap));
    var top = at.bottom + gap + h <= vh - gap ? at.bottom + gap : Math.max(floor + gap, at.top - gap - h);
    pop.style.left = left + 'px';
    pop.style.top = top + 'px';
    pop.dataset.placed = '1'; // shown once it is where it belongs
  }
  results.addEventListener('toggle', function (e) {
    var dd = e.target;
    if (!dd.matches || !dd.matches('details.stock-dd')) return;
    if (!dd.open) { var pop = dd.querySelector('.stock-pop'); if (pop) delete pop.dataset.placed; return; }
    results.querySelectorAll('details.stock-dd[open]').forEach(function (o) { if (o !== dd) o.open = false; });
    placePop(dd);
  }, true);
  // What is coming arrives after the pop-up opened (issue 35): placed again in the same task as
  // the swap (before the browser lays out or paints the grown pop-up), so it stays whole in view.
  results.addEventListener('htmx:afterSwap', function (e) {
    var dd = e.target.closest && e.target.closest('details.stock-dd[open]');
    if (dd && e.target.matches('.coming')) placePop(dd);
  });
  function closePops() { results.querySelectorAll('details.stock-dd[open]').forEach(function (o) { o.open = false; }); }
  results.addEventListener('scroll', closePops, true);
  window.addEventListener('resize', closePops);
  document.addEventListener('click', function (e) { if (!e.target.closest || !e.target.closest('details.stock-dd')) closePops(); });
  document.addEventListener('prices-changed', function () {
    var form = document.querySelector('form.search-card');
    if (form && window.htmx) window.htmx.trigger(form, 'submit');
  });
})();
