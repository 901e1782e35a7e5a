// Quoting in real Chromium: look up a size, fill the cart, 'Empty & GO' into an invoice
// priced for the customer; an OCOP price edited in the dialog is offered on that
// customer's next invoice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

async function json(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return r.json();
}

test('look up 2055516, add 4 and 2, Empty & GO: a priced invoice and an empty cart', async () => {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  const customers = (await json(page, '/api/customers?per_page=150')).data;
  const customer = customers.find((c) => c.priceType === 2) || customers[0];
  await page.goto('/quotings');
  await page.getByText('Enter Some Key Words to Search').waitFor();
  await page.fill('input[name="csr_label"]', customer.name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.fill('input[name="key"]', '2055516');
  await page.press('input[name="key"]', 'Enter');
  await page.locator('#results tbody tr[data-product]').first().waitFor();
  const rows = page.locator('#results tbody tr[data-product]');
  const ids = [await rows.nth(0).getAttribute('data-product'), await rows.nth(1).getAttribute('data-product')].map(Number);
  for (const [i, qty] of [[0, 4], [1, 2]]) {
    const row = rows.nth(i);
    assert.equal(await row.locator('.cart-add').isDisabled(), true, 'Add is disabled at 0');
    await row.locator('.cart-qty').fill(String(qty));
    await row.locator('.cart-add').click();
  }
  await page.getByTestId('cart-badge').filter({ hasText: '6' }).waitFor();
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('carts')));
  assert.deepEqual(stored.items.map((i) => i.qty), [4, 2]);
  assert.equal(stored.csr.id, customer.id);

  await page.getByRole('button', { name: 'Check out >' }).click();
  await page.getByText('When checking out for new invoice, Do you want to EMPTY Quoting Cart & Customer?').waitFor();
  const [invoice] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Empty & GO' }).click()]);
  await page.getByText('Quoting carts has been emptied, and checking out...').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('carts')), null, 'the cart is empty');

  await invoice.waitForLoadState();
  await invoice.waitForSelector('input[name="lines_json"]', { state: 'attached' });
  assert.match(invoice.url(), /\/order_add\/invoices\/addFromCartAndClear\?items=/);
  assert.equal(await invoice.locator('input[name="customer_id"]').inputValue(), String(customer.id));
  const lines = JSON.parse(await invoice.locator('input[name="lines_json"]').inputValue()).filter((l) => l.productId);
  assert.deepEqual(lines.map((l) => [l.productId, Number(l.qty)]), [[ids[0], 4], [ids[1], 2]]);
  const priced = (await json(page, `/api/products?ids=${ids.join(',')}&customerId=${customer.id}`)).data;
  for (const l of lines) {
    const expected = priced.find((p) => p.id === l.productId).unitPrice;
    assert.equal(Math.round(Number(l.price) * 100), expected, "the customer's price");
  }
  await page.context().close();
});

test("an OCOP price edited in the dialog is offered on that customer's next invoice", async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  const customer = (await json(page, '/api/customers?per_page=20')).data[3];
  await page.goto('/ocops?key=2254517');
  const row = page.locator('#results tbody tr').first();
  await row.waitFor();
  const code = (await row.locator('td').first().innerText()).trim();
  await row.getByRole('button', { name: 'Edit Prices' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(`Edit Prices · ${code}`).waitFor();
  await dialog.getByLabel('Add customer').fill(customer.name.slice(0, 12));
  await dialog.getByRole('listbox', { name: 'Customer suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  const box = dialog.getByLabel(`OCOP price for ${customer.name}`);
  await box.fill('123.45');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Operation successful').waitFor();

  await page.goto('/order_add/invoices');
  await page.fill('#f-customer', customer.name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('input[name="customer_id"]').value !== '');
  await page.getByLabel('Item Code line 1', { exact: true }).fill(code);
  await page.getByRole('listbox', { name: 'Item Code line 1 suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Prices line 1' }).click();
  await page.getByRole('menuitem', { name: /OCOP.*123\.45/ }).waitFor();
  await page.context().close();
});

test("'Save quotation' keeps the cart as Q-… for its customer; its PDF opens; Convert to invoice fills the new invoice", async () => {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  const customers = (await json(page, '/api/customers?per_page=150')).data;
  const customer = customers[1];
  await page.goto('/quotings');
  await page.fill('input[name="csr_label"]', customer.name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.fill('input[name="key"]', '2055516');
  await page.press('input[name="key"]', 'Enter');
  const row = page.locator('#results tbody tr[data-product]').first();
  await row.waitFor();
  const id = Number(await row.getAttribute('data-product'));
  await row.locator('.cart-qty').fill('3');
  await row.locator('.cart-add').click();
  await page.getByTestId('cart-badge').filter({ hasText: '3' }).waitFor();
  await page.getByRole('button', { name: 'Save quotation' }).click();
  await page.waitForURL(/\/quotations\?customer=/);
  await page.getByText(/Quotation Q-\d{6} saved\./).waitFor();
  const pdfHref = await page.locator('#quotations a', { hasText: 'PDF' }).first().getAttribute('href');
  const pdf = await page.request.get(pdfHref);
  assert.equal(pdf.status(), 200);
  assert.equal(pdf.headers()['content-type'], 'application/pdf');
  const convert = await page.locator('#quotations a', { hasText: 'Convert to invoice' }).first().getAttribute('href');
  await page.goto(convert);
  await page.waitForSelector('input[name="lines_json"]', { state: 'attached' });
  assert.equal(await page.locator('input[name="customer_id"]').inputValue(), String(customer.id));
  const lines = JSON.parse(await page.locator('input[name="lines_json"]').inputValue()).filter((l) => l.productId);
  assert.deepEqual(lines.map((l) => [l.productId, Number(l.qty)]), [[id, 3]]);
});
