// The counter (issue 32, items 9–11) in real Chromium at the office's 1366×768: quoting shows
// whole item names and codes and a stock pop-up the table does not clip; To CSR shows
// balances and empties with 'Empty & GO'; Esc closes the CHK dialog; an Edit menu closes when
// its dialog opens; a 15-line invoice typed with the keyboard alone, its key presses counted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { islandLive, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

const OFFICE = { width: 1366, height: 768 };

async function json(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return r.json();
}

/** Cents as the app shows a balance: $1,234.56, -$12.00. */
const money = (cents) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function office(email) {
  const page = await app.newPage();
  await page.setViewportSize(OFFICE);
  await signIn(page, email);
  return page;
}

async function quote(page, key) {
  await page.goto('/quotings');
  await page.getByText('Enter Some Key Words to Search').waitFor();
  await page.fill('input[name="key"]', key);
  await page.press('input[name="key"]', 'Enter');
  await page.locator('#results tbody tr[data-product]').first().waitFor();
}

/** Whether `el` shows all of its box: nothing cut by its own overflow or an ancestor's. */
function wholeInView(el) {
  if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return `overflows itself (${el.scrollWidth} > ${el.clientWidth})`;
  const r = el.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return `outside the viewport ${JSON.stringify(r)}`;
  // A box fixed to the viewport is clipped by no ancestor above it (none here is transformed).
  for (let e = el, a = el.parentElement; a && getComputedStyle(e).position !== 'fixed'; e = a, a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) return `clipped by ${a.tagName}.${a.className}`;
  }
  return '';
}

test('quoting at 1366×768 for role 4: whole names and codes, Add in view, the stock pop-up not clipped', async () => {
  const page = await office('approver@demo.test');
  await quote(page, '2055516');
  const rows = page.locator('#results tbody tr[data-product]');
  const n = await rows.count();
  assert.ok(n >= 5, 'several same-size tyres');
  for (let i = 0; i < Math.min(n, 8); i++) {
    const row = rows.nth(i);
    const name = await row.getAttribute('data-name');
    const code = await row.getAttribute('data-code');
    const nameCell = row.locator('td').nth(1);
    const codeCell = row.locator('td').nth(0);
    await nameCell.scrollIntoViewIfNeeded();
    assert.equal((await nameCell.innerText()).trim(), name);
    assert.equal((await codeCell.innerText()).trim(), code);
    assert.equal(await nameCell.evaluate(wholeInView), '', `row ${i + 1}: the name ${name} is shown whole`);
    assert.equal(await codeCell.evaluate(wholeInView), '', `row ${i + 1}: the code ${code} is shown whole`);
    assert.equal(await row.locator('.cart-add').evaluate(wholeInView), '', `row ${i + 1}: Add stays in view`);
  }
  // The stock pop-up of a row near the table's foot lies in the viewport, on top.
  const row = rows.nth(Math.min(n, 8) - 1);
  await row.locator('.stock-dd summary').click();
  const pop = row.locator('.stock-pop');
  await pop.waitFor();
  // What is coming loads into the open pop-up and grows it; it must stay whole once grown.
  await pop.locator('.coming > *').first().waitFor();
  assert.equal(await pop.evaluate(wholeInView), '', 'the pop-up is whole');
  // What lies on top at three points of the pop-up: itself, or the element covering it.
  const covering = await pop.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return [[r.left + 4, r.top + 4], [r.right - 4, r.bottom - 4], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]
      .map(([x, y]) => document.elementFromPoint(x, y))
      .filter((hit) => !el.contains(hit))
      .map((hit) => (hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing'));
  });
  assert.deepEqual(covering, [], 'nothing covers the pop-up');
  await page.context().close();
});

test("To CSR shows each customer's balance, and 'Empty & GO' empties it", async () => {
  const page = await office('sales@demo.test');
  const customers = (await json(page, '/api/customers?per_page=150')).data;
  const customer = customers.find((c) => c.xeroBalance !== 0 && c.name.length >= 8);
  assert.ok(customer, 'a customer with a balance');
  await quote(page, '2055516');
  await page.fill('input[name="csr_label"]', customer.name);
  const option = page.locator('.picker-list li').filter({ hasText: customer.name }).first();
  await option.waitFor();
  assert.match(await option.innerText(), new RegExp(`Balance ${money(customer.xeroBalance).replace(/[$.]/g, '\\$&')}`));
  await page.keyboard.press('Enter');
  const shown = page.locator('[data-balance-for="csr"]');
  await shown.filter({ hasText: `Balance ${money(customer.xeroBalance)}` }).waitFor();

  const row = page.locator('#results tbody tr[data-product]').first();
  await row.locator('.cart-qty').fill('2');
  await row.locator('.cart-add').click();
  await page.getByTestId('cart-badge').filter({ hasText: '2' }).waitFor();
  await page.getByRole('button', { name: 'Check out >' }).click();
  const [invoice] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Empty & GO' }).click()]);
  await page.getByText('Quoting carts has been emptied, and checking out...').waitFor();
  assert.equal(await page.inputValue('input[name="csr_label"]'), '', 'the To CSR field is empty');
  assert.equal(await page.inputValue('input[name="csr"]'), '', 'and so is its id');
  assert.equal((await shown.innerText()).trim(), '', 'no balance is shown');
  await invoice.waitForLoadState();
  await page.context().close();
});

test('Esc closes the CHK dialog', async () => {
  const page = await office('sales@demo.test');
  await quote(page, '2055516');
  await page.locator('#results tbody tr[data-product]').first().getByRole('button', { name: 'CHK' }).click();
  const dialog = page.locator('#dlg-price-history');
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // Opened again, it closes with Esc again.
  await page.locator('#results tbody tr[data-product]').nth(1).getByRole('button', { name: 'CHK' }).click();
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.context().close();
});

test("an Edit menu closes when its dialog opens, and Esc closes the dialog", async () => {
  const page = await office('approver@demo.test');
  const list = (await json(page, '/api/orders?type=1&per_page=20')).data;
  const draft = list.find((o) => o.status === 1) || list[0];
  await page.goto(`/order_detail/invoices/${draft.id}`);
  const menu = page.locator('details.dropdown', { has: page.locator('summary', { hasText: 'Edit' }) });
  await menu.locator('summary').click();
  await menu.getByRole('button', { name: 'See History' }).click();
  const dialog = page.locator('#dlg-history');
  await dialog.waitFor();
  assert.equal(await menu.evaluate((d) => d.open), false, 'the Edit menu closed');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.context().close();
});

test('a 15-line invoice by keyboard alone: focus on load, default warehouse, staff from the customer, key presses counted', async () => {
  // The company's default warehouse (Settings), chosen by the approver.
  const boss = await office('approver@demo.test');
  const own = (await json(boss, '/api/warehouses')).data.filter((w) => w.is_calc_for_csr_order);
  const chosen = own[1] || own[0];
  await boss.goto('/settings');
  await boss.selectOption('#s-default_warehouse_id', String(chosen.id));
  await boss.getByRole('button', { name: 'Save company settings' }).click();
  await boss.locator('#settings-alert').waitFor();
  assert.equal(await boss.inputValue('#s-default_warehouse_id'), String(chosen.id));
  await boss.context().close();

  const page = await office('sales@demo.test');
  const customers = (await json(page, '/api/customers?per_page=150')).data;
  const products = (await json(page, '/api/products?per_page=150')).data;
  await page.goto('/order_add/invoices');
  await islandLive(page, 'line-editor');
  const staffed = await page.evaluate((cs) => cs.filter((c) => c.cs_id && c.bd_id
    && document.querySelector(`#f-service option[value="${c.cs_id}"]`) && document.querySelector(`#f-business option[value="${c.bd_id}"]`)).map((c) => c.id), customers);
  const customer = customers.find((c) => staffed.includes(c.id));
  assert.ok(customer, 'a customer with service and business staff');
  // The fewest letters of the name whose first suggestion is the customer.
  let prefix = '';
  for (let len = 3; len <= customer.name.length; len++) {
    const first = (await json(page, `/api/customers?per_page=20&name=${encodeURIComponent(customer.name.slice(0, len))}`)).data[0];
    if (first?.id === customer.id) { prefix = customer.name.slice(0, len); break; }
  }
  assert.ok(prefix, 'the customer can be found by name');
  // Fifteen products across the catalogue; for each, what a typist who knows the codes
  // types: the fewest first letters of its code that the Item Code search answers with that
  // product alone or with its whole code (the line then takes it on Enter).
  const spread = products.filter((_, i) => i % 10 === 0).slice(0, 15);
  const items = [];
  for (const [i, p] of spread.entries()) {
    let typed = p.code;
    for (let len = 2; len < p.code.length; len++) {
      const hits = (await json(page, `/api/products?code=${encodeURIComponent(p.code.slice(0, len))}&per_page=20`)).data;
      const taken = hits.find((h) => h.code.toLowerCase() === p.code.slice(0, len).toLowerCase()) ?? (hits.length === 1 ? hits[0] : null);
      if (taken?.id === p.id) { typed = p.code.slice(0, len); break; }
    }
    items.push({ id: p.id, code: typed, qty: String(1 + (i % 4)) });
  }
  assert.equal(items.length, 15);

  let keys = 0;
  const type = async (text) => { keys += text.length; await page.keyboard.type(text); };
  const press = async (key) => { keys += 1; await page.keyboard.press(key); };
  const focused = (label) => page.waitForFunction((l) => document.activeElement?.getAttribute('aria-label') === l || document.activeElement?.id === l, label);

  // Nothing to click: To CSR has the focus, the warehouse its default.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'f-customer', 'To CSR has the focus on load');
  assert.equal(await page.inputValue('#f-warehouse'), String(chosen.id), "the company's default warehouse");
  await type(prefix);
  await page.locator('.picker-list li').first().waitFor();
  await press('Enter');
  await focused('Item Code line 1');
  assert.equal(await page.inputValue('input[name="customer_id"]'), String(customer.id));
  await page.waitForFunction((c) => document.querySelector('#f-service').value === String(c.cs_id) && document.querySelector('#f-business').value === String(c.bd_id), customer);

  for (const [i, item] of items.entries()) {
    const n = i + 1;
    await type(item.code);
    await press('Enter'); // takes the product this code names
    await focused(`Qty line ${n}`);
    await type(item.qty);
    await press('Enter'); // the line is done: on to the next one
    await focused(`Item Code line ${n + 1}`);
  }
  const lines = JSON.parse(await page.inputValue('input[name="lines_json"]')).filter((l) => l.productId);
  assert.deepEqual(lines.map((l) => [l.productId, l.qty]), items.map((it) => [it.id, it.qty]));
  await press('Control+Enter');
  await page.waitForURL(/\/order_detail\/invoices\/\d+/);
  await page.getByText('Operation successful').waitFor();
  assert.equal(await page.locator('table.lines tbody tr').count(), 15, 'the invoice saved with 15 lines');

  // The budget: the customer's letters and Enter, per line its code, Enter, qty and Enter,
  // and Ctrl+Enter to submit — nothing else.
  const budget = prefix.length + 1 + items.reduce((s, it) => s + it.code.length + 1 + it.qty.length + 1, 0) + 1;
  console.log(`15-line invoice: ${keys} key presses (budget ${budget}; code letters ${items.reduce((s, it) => s + it.code.length, 0)}, qty digits ${items.reduce((s, it) => s + it.qty.length, 0)}, customer letters ${prefix.length})`);
  assert.ok(keys <= budget, `${keys} key presses, at most ${budget}`);
  const id = page.url().match(/\/order_detail\/invoices\/(\d+)/)[1];
  const saved = (await json(page, `/api/orders/${id}`)).data;
  assert.deepEqual([saved.warehouseId, saved.csrServiceId, saved.csrBDId, saved.lines.length], [chosen.id, customer.cs_id, customer.bd_id, 15]);
  await page.context().close();
});
