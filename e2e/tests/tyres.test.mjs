// Tyres by DOT date (issue 36) in real Chromium: a bill of a tyre tracked by DOT takes a DOT
// code typed in the line editor's DOT cell (after the quantity, by Tab), is saved and
// approved; a new invoice of the same tyre then lists that lot, with its age and quantity, in
// the line's DOT list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, islandLive, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** Picks a counterparty in a header picker (`#f-customer`, `#f-supplier`) by keyboard. */
async function pick(page, field, target, name) {
  await page.focus(field);
  await page.keyboard.type(name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector(`input[name="${t}"]`).value !== '', target);
}

/** Types a product code into line 1 and picks it with Enter; the focus lands on its quantity. */
async function pickTyre(page, code) {
  await page.getByLabel('Item Code line 1', { exact: true }).focus();
  await page.keyboard.type(code);
  await page.getByRole('listbox', { name: 'Item Code line 1 suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Qty line 1');
}

/** Approves a bill on its detail page ('Approve PB-…?'; an approver may be asked to confirm). */
async function approve(page) {
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Approve' }).first().click();
  const confirm = page.locator('#dlg-confirm-approve');
  const done = page.locator('.tag', { hasText: 'Approved' }).first();
  await Promise.race([confirm.getByText('Confirm Approve').waitFor(), done.waitFor()]);
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Approve' }).click();
  await done.waitFor();
}

test('a bill takes a DOT code typed in the line editor, and an invoice then lists that lot', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  const tyre = (await api(page, 'GET', '/api/products?code=2055516&per_page=50')).json.data.find((p) => p.dotTracked === true && p.category === 1);
  assert.ok(tyre, 'the demo data has a tyre tracked by DOT');
  const supplier = (await api(page, 'GET', '/api/suppliers')).json.data[0];
  const warehouse = (await api(page, 'GET', '/api/warehouses')).json.data[0];
  const customer = (await api(page, 'GET', '/api/customers?per_page=150')).json.data.find((c) => c.payment_type !== 10);

  // The bill: the tyre, 4 of them, Tab to the DOT cell, '0125'.
  await page.goto('/order_add/bills');
  await pick(page, '#f-supplier', 'supplier_id', supplier.name);
  await page.selectOption('#f-warehouse', String(warehouse.id));
  await islandLive(page, 'line-editor');
  await pickTyre(page, tyre.code);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('4');
  await page.keyboard.press('Tab');
  const dot = page.getByLabel('DOT line 1', { exact: true });
  assert.equal(await dot.evaluate((el) => el === document.activeElement), true, 'Tab from the quantity reaches the DOT cell');
  assert.equal(await dot.getAttribute('placeholder'), 'WWYY');
  await page.keyboard.type('0125');
  const lines = JSON.parse(await page.locator('input[name="lines_json"]').inputValue());
  assert.equal(lines[0].dot, '0125', 'the code goes with the line');
  await page.keyboard.press('Control+Enter');
  await page.waitForURL(/\/order_detail\/bills\/\d+/);
  await approve(page);

  // A new invoice of the tyre lists the lot in the line's DOT list, with its age.
  await page.goto('/order_add/invoices');
  await pick(page, '#f-customer', 'customer_id', customer.name);
  await page.selectOption('#f-warehouse', String(warehouse.id));
  await islandLive(page, 'line-editor');
  await pickTyre(page, tyre.code);
  const lot = page.locator('datalist option[value="0125"]');
  await lot.waitFor({ state: 'attached' });
  const label = await lot.getAttribute('label');
  assert.match(label, /^0125 · (\d+y )?\d+m · \d+ in stock$/, label);
  const title = await page.getByLabel('DOT line 1', { exact: true }).getAttribute('title');
  assert.ok(title.includes(label), `the DOT cell's title lists the lot: ${title}`);
  assert.ok(!/\$/.test(title), 'quantities only, never cost');
});
