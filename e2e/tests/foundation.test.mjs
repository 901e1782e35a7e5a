// Sign in, switch company, page through a list, change password — in real Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

test('sign-in validates on blur, refuses bad passwords and lands on quoting', async () => {
  const page = await app.newPage();
  await page.goto('/');
  await page.focus('#email');
  await page.focus('#password');
  await assert.doesNotReject(page.getByText('Please enter your email').waitFor());
  await page.fill('#email', 'sales@demo.test');
  await page.fill('#password', 'wrong');
  await page.press('#password', 'Enter');
  await page.getByText('Login failed. Incorrect email or password').waitFor();
  await page.fill('#password', 'tyredesk');
  await page.press('#password', 'Enter');
  await page.waitForURL('**/quotings');
  assert.match(await page.title(), /^Quoting - TyreDesk$/);
  await page.getByText('Hi, Sam Sales').waitFor();
  await page.context().close();
});

test('warehouse staff are refused at sign-in', async () => {
  const page = await app.newPage();
  await page.goto('/login');
  await page.fill('#email', 'warehouse@demo.test');
  await page.fill('#password', 'tyredesk');
  await page.press('#password', 'Enter');
  await page.getByText('No access permission for warehouse staff.').waitFor();
  assert.match(page.url(), /\/login$/);
  await page.context().close();
});

test('paging through a list keeps the URL and the back button', async () => {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  await page.goto('/brands');
  const firstRow = await page.locator('#results tbody tr').first().innerText();
  assert.equal(await page.locator('#results tbody tr').count(), 20);
  await page.locator('nav.pagination a.next').click();
  await page.waitForURL(/page=2/);
  await page.waitForFunction((first) => document.querySelector('#results tbody tr')?.innerText !== first, firstRow);
  const secondPageFirst = await page.locator('#results tbody tr').first().innerText();
  assert.notEqual(secondPageFirst, firstRow);
  await page.locator('select.page-size').selectOption('50');
  await page.waitForURL(/per_page=50/);
  await page.waitForFunction(() => document.querySelectorAll('#results tbody tr').length > 20);
  await page.goBack();
  await page.waitForURL(/page=2/);
  await page.context().close();
});

test('switching company asks, clears the cart and reloads in the other company', async () => {
  const page = await app.newPage();
  await signIn(page, 'multi@demo.test');
  await page.goto('/warehouses');
  assert.equal(await page.locator('meta[name="org-id"]').getAttribute('content'), '4');
  await page.evaluate(() => localStorage.setItem('carts', JSON.stringify({ items: [{ id: 1, qty: 2 }] })));
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await page.locator('form.org-switch select').selectOption('9');
  await page.waitForFunction(() => document.querySelector('meta[name="org-id"]')?.content === '9');
  assert.match(asked, /Switch company/);
  assert.match(page.url(), /\/warehouses$/);
  assert.equal(await page.locator('form.org-switch select').inputValue(), '9');
  assert.equal(await page.evaluate(() => localStorage.getItem('carts')), null);
  await page.context().close();
});

test('another tab switching company makes this tab ask to reload', async () => {
  const page = await app.newPage();
  await signIn(page, 'multi@demo.test');
  await page.goto('/brands');
  const other = await page.context().newPage();
  await other.goto('/brands');
  const target = (await other.locator('meta[name="org-id"]').getAttribute('content')) === '4' ? '9' : '4';
  other.once('dialog', (d) => d.accept());
  await other.locator('form.org-switch select').selectOption(target);
  await other.waitForFunction((t) => document.querySelector('meta[name="org-id"]')?.content === t, target);
  await page.bringToFront();
  // The page notices through localStorage and blocks further actions until reloaded.
  await page.getByText('Organization has been changed, reload the page ?').waitFor();
  await page.getByRole('button', { name: 'Reload' }).click();
  await page.waitForFunction((t) => document.querySelector('meta[name="org-id"]')?.content === t, target);
  await page.context().close();
});

test('change password dialog validates, changes, and the new password signs in', async () => {
  const page = await app.newPage();
  await signIn(page, 'service@demo.test');
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await dialog.getByText('Password can not be empty').waitFor();
  await dialog.getByLabel('Password', { exact: true }).fill('brand-new-pass');
  await dialog.getByLabel('Confirm Password').fill('brand-new-pasX');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await dialog.getByText('Confirm Password is not the same').waitFor();
  await dialog.getByLabel('Confirm Password').fill('brand-new-pass');
  await dialog.getByLabel('Confirm Password').press('Enter');
  await page.getByText('Password has been changed successfully').waitFor();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await page.fill('#email', 'service@demo.test');
  await page.fill('#password', 'tyredesk');
  await page.press('#password', 'Enter');
  await page.getByText('Login failed. Incorrect email or password').waitFor();
  await signIn(page, 'service@demo.test', 'brand-new-pass');
  await page.context().close();
});
