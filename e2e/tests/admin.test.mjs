// Running the company in real Chromium: an approver adds a supplier and raises a purchase
// order for it; adds a staff member, who signs in with the one-time password and must
// choose their own before anything else opens.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { islandLive, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

test('add a supplier, then raise a purchase order for it', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/suppliers');
  // '+ New' opens a new tab, as on every list.
  assert.equal(await page.getByRole('link', { name: '+ New Supplier' }).getAttribute('href'), '/baseinfo/suppliers');
  await page.goto('/baseinfo/suppliers');
  await page.fill('#f-code', 'SUP-E2E');
  await page.fill('#f-name', 'Zephyr Tyre Imports');
  await page.fill('#f-primary_person_first', 'Zoe');
  await page.getByRole('button', { name: 'Submit' }).click();
  // The page drops `?saved=1` from its address as it starts (app.js), so the address is
  // matched with or without it: a page that answers quickly may have dropped it already.
  await page.waitForURL(/\/baseinfo\/suppliers\/\d+(\?saved=1)?$/);
  await page.getByText('Operation successful').first().waitFor();

  await page.goto('/order_add/purchase_orders');
  await page.focus('#f-supplier');
  await page.keyboard.type('Zephyr');
  await page.locator('.picker-list li', { hasText: 'Zephyr Tyre Imports' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('input[name="supplier_id"]').value !== '');
  const warehouse = await page.locator('#f-warehouse option:not([value=""])').first().getAttribute('value');
  await page.selectOption('#f-warehouse', warehouse);
  await islandLive(page, 'line-editor');
  const code = page.getByLabel('Item Code line 1', { exact: true });
  await code.focus();
  await page.keyboard.type('2055516');
  await page.getByRole('listbox', { name: 'Item Code line 1 suggestions' }).getByRole('option').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Qty line 1');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('8');
  await page.keyboard.press('Control+Enter');
  await page.waitForURL(/\/order_detail\/purchase_orders\/\d+/);
  await page.getByText('Operation successful').first().waitFor();
  await page.getByText('Zephyr Tyre Imports').first().waitFor();
  await page.context().close();
});

test('a new staff member signs in with a one-time password and must change it', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/employees');
  assert.equal(await page.getByRole('link', { name: '+ New Staff Member' }).getAttribute('href'), '/baseinfo/employees');
  await page.goto('/baseinfo/employees');
  await page.fill('#f-name', 'Tess Trainee');
  await page.fill('#f-email', 'tess@demo.test');
  await page.selectOption('#f-role', '3');
  await page.getByRole('button', { name: 'Submit' }).click();
  const notice = await page.locator('#form-notice').innerText();
  const otp = notice.match(/One-time password for tess@demo\.test: (\S+)/)?.[1];
  assert.ok(otp, notice);
  await page.context().close();

  const tess = await app.newPage();
  await tess.goto('/login');
  await tess.fill('#email', 'tess@demo.test');
  await tess.fill('#password', otp);
  await tess.press('#password', 'Enter');
  await tess.waitForURL('**/password/change');
  await tess.getByText('you signed in with a one-time password').waitFor();
  // Nothing else opens until the password is changed.
  await tess.goto('/invoices');
  await tess.waitForURL('**/password/change');
  await tess.fill('#password', 'my-own-secret-42');
  await tess.fill('#confirm', 'my-own-secret-42');
  await tess.getByRole('button', { name: 'Change password' }).click();
  await tess.waitForURL('**/quotings');
  await tess.getByText('Hi, Tess Trainee').waitFor();
  await tess.context().close();

  const again = await app.newPage();
  await signIn(again, 'tess@demo.test', 'my-own-secret-42');
  await again.goto('/invoices');
  assert.match(again.url(), /\/invoices$/);
  await again.context().close();
});
