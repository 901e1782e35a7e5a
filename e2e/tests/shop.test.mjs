// The customer shop in real Chromium on a phone-sized screen (375×812): a demo customer
// signs in, searches 205/55R16, adds 4, checks out with a reference; staff see the badge go
// up, open the self-order, set its due date and approve it; the customer sees 'Confirmed'.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

async function phone() {
  const context = await app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

async function badge(page) {
  return page.evaluate(async () => (await (await fetch('/api/csr-self-order')).json()).cnt);
}

test('the demo prints its shop sign-ins', () => {
  assert.match(app.output(), /Shop sign-ins at \/shop/);
  assert.match(app.output(), /shop@demo\.test/);
});

test('a customer orders on a phone; staff take the order up and approve it', async () => {
  const staff = await app.newPage();
  await signIn(staff, 'approver@demo.test');
  const before = await badge(staff);

  const page = await phone();
  await page.goto('/shop');
  await page.waitForURL('**/shop/login');
  await page.fill('#email', 'shop@demo.test');
  await page.fill('#password', 'tyredesk');
  await page.press('#password', 'Enter');
  await page.waitForURL(/\/shop$/);

  await page.getByRole('searchbox', { name: 'Search products' }).fill('205/55R16');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/key=205/);
  const first = page.locator('.item').first();
  await first.waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `no sideways scrolling on a phone (page is ${width} px wide)`);
  const price = (await first.locator('.price').innerText()).trim();
  assert.match(price, /^\$\d/);
  const qty = first.getByRole('spinbutton');
  await qty.fill('4');
  await first.getByRole('button', { name: 'Add' }).click();
  // htmx adds in place: the badge shows 4 without leaving the page.
  await page.locator('#cart-badge .badge', { hasText: '4' }).waitFor();
  assert.match(page.url(), /key=205/);

  await page.locator('#cart-badge').click();
  await page.waitForURL('**/shop/cart');
  await page.getByRole('link', { name: 'Check out' }).click();
  await page.waitForURL('**/shop/checkout');
  await page.fill('#reference', 'PO-PHONE-1');
  await page.fill('#note', 'Ring the bell');
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/shop\/orders\/\d+\?placed=1/);
  const heading = await page.getByRole('heading', { level: 1 }).innerText();
  const no = heading.match(/INV-\d+/)?.[0];
  assert.ok(no, heading);
  await page.locator('.state', { hasText: 'Received' }).first().waitFor();
  const id = page.url().match(/orders\/(\d+)/)[1];

  // Staff: the badge went up; the self-order list shows it with the customer's note.
  await staff.reload();
  assert.equal(await badge(staff), before + 1);
  await staff.locator('#csr-badge', { hasText: String(before + 1) }).waitFor();
  await staff.goto('/invoices?type=csr');
  const row = staff.locator('tr', { hasText: no });
  await row.waitFor();
  assert.match(await row.innerText(), /Ring the bell/);
  await staff.goto(`/order_detail/invoices/${id}`);
  await staff.locator('summary', { hasText: 'Edit' }).click();
  await staff.getByRole('button', { name: 'Date' }).click();
  await staff.fill('#ed-due', '2026-12-31');
  await staff.locator('#dlg-date').getByRole('button', { name: 'Save' }).click();
  await staff.getByText('Operation successful').first().waitFor();
  await staff.reload();
  await staff.getByRole('button', { name: 'Approve' }).first().click();
  await staff.locator('#dlg-approve').getByRole('button', { name: 'Approve' }).click();
  const confirm = staff.locator('#dlg-confirm-approve');
  if (await confirm.isVisible().catch(() => false)) {
    await confirm.getByRole('button', { name: 'Approve' }).click();
  }
  await staff.locator('.tag', { hasText: 'Approved' }).first().waitFor();
  assert.equal(await badge(staff), before, 'taken up: no longer awaiting');

  // Back as the customer: confirmed, with the tax invoice.
  await page.goto(`/shop/orders/${id}`);
  await page.locator('.state', { hasText: 'Confirmed' }).first().waitFor();
  await page.getByRole('link', { name: 'Tax invoice' }).waitFor();
  await page.goto('/shop/orders');
  await page.locator('.orders li', { hasText: no }).locator('.state', { hasText: 'Confirmed' }).waitFor();
  await page.context().close();
  await staff.context().close();
});

test('the shop works without JavaScript', async () => {
  const context = await app.browser.newContext({ baseURL: app.base, viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/shop/login');
  await page.fill('#email', 'shop-ocop@demo.test');
  await page.fill('#password', 'tyredesk');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/shop$/);
  await page.goto('/shop?key=2055516');
  const first = page.locator('.item').first();
  await first.getByRole('spinbutton').fill('2');
  await first.getByRole('button', { name: 'Add' }).click();
  await page.waitForURL(/m=added/);
  await page.getByText('Added to your cart.').waitFor();
  assert.equal((await page.locator('#cart-badge .badge').innerText()).trim(), '2');
  await context.close();
});
