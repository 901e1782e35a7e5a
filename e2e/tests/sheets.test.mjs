// Sheets in real Chromium: a 20-line invoice entered by keyboard only, the approval guard
// for role 2 and role 4, stock dropping and coming back, a transfer and an adjustment.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { islandLive, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

const SIZES = ['2055516', '2254517', '2156016', '1956515', '2656517'];

async function json(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return r.json();
}

async function stockOf(page, productId, warehouseId) {
  const j = await json(page, `/api/products?ids=${productId}&warehouseId=${warehouseId}`);
  return j.data[0].stock;
}

/** Picks a customer in the To CSR picker by keyboard. */
async function pickCustomer(page, name) {
  await page.focus('#f-customer');
  await page.keyboard.type(name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('input[name="customer_id"]').value !== '');
}

/** Enters one line by keyboard: code search, pick, qty, then Enter on to the next line (the price comes with the product). */
async function typeLine(page, n, size, down, qty) {
  const code = page.getByLabel(`Item Code line ${n}`, { exact: true });
  await code.waitFor();
  await page.keyboard.type(size);
  await page.getByRole('listbox', { name: `Item Code line ${n} suggestions` }).getByRole('option').first().waitFor();
  for (let i = 0; i < down; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const qtyBox = page.getByLabel(`Qty line ${n}`, { exact: true });
  await assert.doesNotReject(qtyBox.waitFor());
  await page.waitForFunction((label) => document.activeElement?.getAttribute('aria-label') === label, `Qty line ${n}`);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(qty));
  await page.keyboard.press('Enter'); // → next line (adds one after the last)
}

test('a 20-line invoice by keyboard, refused for role 2, confirmed by role 4, stock moves and comes back', async () => {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  const customers = (await json(page, '/api/customers?per_page=150')).data;
  const cbd = customers.find((c) => c.payment_type === 10);
  assert.ok(cbd, 'demo data has a CBD customer');
  const warehouse = (await json(page, '/api/warehouses')).data[0].id;

  await page.goto('/order_add/invoices');
  await pickCustomer(page, cbd.name);
  await page.selectOption('#f-warehouse', String(warehouse));
  await islandLive(page, 'line-editor');
  await page.getByLabel('Item Code line 1', { exact: true }).focus();
  for (let i = 0; i < 20; i++) {
    await typeLine(page, i + 1, SIZES[i % SIZES.length], Math.floor(i / SIZES.length), 1 + (i % 3));
  }
  const lines = JSON.parse(await page.locator('input[name="lines_json"]').inputValue());
  const named = lines.filter((l) => l.productId);
  assert.equal(named.length, 20, 'twenty product lines entered');
  const first = named[0];
  const before = await stockOf(page, first.productId, warehouse);
  const firstQty = named.filter((l) => l.productId === first.productId).reduce((s, l) => s + Number(l.qty), 0);

  await page.keyboard.press('Control+Enter');
  await page.waitForURL(/\/order_detail\/invoices\/\d+/);
  await page.getByText('Operation successful').waitFor();
  assert.equal(await page.locator('table.lines tbody tr').count(), 20);
  const detailUrl = page.url().replace(/\?.*$/, '');

  // Role 2: the CBD customer stops the approval with ' Contact manager.'
  await page.getByRole('button', { name: 'Approve' }).first().click();
  await page.locator('#dlg-approve').getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/This is CBD \(Cash Before Delivery\) customer\. Contact manager\./).waitFor();
  assert.equal(await stockOf(page, first.productId, warehouse), before);

  // Role 4 with the accountant permit: 'Confirm Approve' … 'Approve now?'
  const boss = await app.newPage();
  await signIn(boss, 'approver@demo.test');
  await boss.goto(detailUrl);
  await boss.getByRole('button', { name: 'Approve' }).first().click();
  await boss.locator('#dlg-approve').getByRole('button', { name: 'Approve' }).click();
  const confirm = boss.locator('#dlg-confirm-approve');
  await confirm.getByText('Confirm Approve').waitFor();
  await confirm.getByText('Approve now?').waitFor();
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await boss.getByText('Operation successful').waitFor();
  await boss.locator('.tag', { hasText: 'Approved' }).first().waitFor();
  assert.equal(await stockOf(boss, first.productId, warehouse), before - firstQty, 'stock dropped by the invoiced quantity');

  boss.once('dialog', (d) => d.accept());
  await boss.getByRole('button', { name: 'UnApprove' }).click();
  await boss.getByText('Operation successful').waitFor();
  await boss.locator('.tag', { hasText: 'Draft' }).first().waitFor();
  assert.equal(await stockOf(boss, first.productId, warehouse), before, 'unapprove restores the stock');
  await page.context().close();
  await boss.context().close();
});

test('a transfer moves stock between warehouses and an adjustment sets the counted stock', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  const whs = (await json(page, '/api/warehouses')).data.filter((w) => w.is_calc_for_csr_order);
  const [out, into] = [whs[0].id, whs[1].id];

  await page.goto('/order_add/transfers');
  await page.selectOption('#f-warehouse', String(out));
  await page.selectOption('#f-in-warehouse', String(into));
  await islandLive(page, 'line-editor');
  await page.getByLabel('Item Code line 1', { exact: true }).focus();
  await page.keyboard.type('2055516');
  await page.getByRole('listbox', { name: 'Item Code line 1 suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Qty line 1');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  const product = JSON.parse(await page.locator('input[name="lines_json"]').inputValue())[0].productId;
  const [a, b] = [await stockOf(page, product, out), await stockOf(page, product, into)];
  await page.keyboard.press('Control+Enter');
  await page.waitForURL(/\/order_detail\/transfers\/\d+/);
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Operation successful').waitFor();
  // The toast of the save can still be showing: the tag appears only once the approved sheet has reloaded.
  await page.locator('.tag', { hasText: 'Approved' }).first().waitFor();
  assert.equal(await stockOf(page, product, out), a - 3);
  assert.equal(await stockOf(page, product, into), b + 3);

  await page.goto('/order_add/adjustments');
  await page.selectOption('#f-warehouse', String(out));
  await islandLive(page, 'line-editor');
  await page.getByLabel('Item Code line 1', { exact: true }).focus();
  await page.keyboard.type('2055516');
  await page.getByRole('listbox', { name: 'Item Code line 1 suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /In-Warehouse Qty line 1/i.test(document.activeElement?.getAttribute('aria-label') || ''));
  await page.keyboard.type('40');
  await page.keyboard.press('Control+Enter');
  await page.waitForURL(/\/order_detail\/adjustments\/\d+/);
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Operation successful').waitFor();
  await page.locator('.tag', { hasText: 'Approved' }).first().waitFor();
  assert.equal(await stockOf(page, product, out), 40, 'the counted quantity is the new stock');
  await page.context().close();
});
