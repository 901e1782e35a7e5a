// Islands rendered on the server and hydrated (issue 16): the pages read without
// JavaScript, hydrate without a mismatch, and stay light on a slow link.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** A page in a context of its own; `javaScriptEnabled: false` for the no-JS checks. */
async function pageWith(options) {
  const context = await app.browser.newContext({ baseURL: app.base, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Every console error and uncaught page error of `page` (React reports mismatches there). */
function errorsOf(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function api(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return (await r.json()).data;
}

/** Draft invoices of the demo company with at least `min` lines (from the JSON API). */
async function draftWithLines(page, min) {
  const list = await api(page, '/api/orders?type=1&status=1&per_page=50');
  for (const row of list) {
    const sheet = await api(page, `/api/orders/${row.id}`);
    if (sheet.lines.length >= min) return sheet;
  }
  throw new Error(`no draft invoice with ${min} lines in the demo data`);
}

test('without JavaScript the editor shows every line with its values and quoting shows the cart', async () => {
  const page = await pageWith({ javaScriptEnabled: false });
  await signIn(page, 'approver@demo.test');
  // The cart badge and Check out are the island's own server render.
  await page.goto('/quotings');
  const badge = page.locator('app-island[name="quoting-cart"][ssr] [data-testid="cart-badge"]');
  assert.equal(await badge.textContent(), '0');
  assert.ok(await page.getByRole('button', { name: /Check out/ }).isVisible());

  const sheet = await draftWithLines(page, 3);
  await page.goto(`/order_edit/invoices/${sheet.id}`);
  const rows = page.locator('app-island[name="line-editor"][ssr] tbody tr[data-key]');
  assert.equal(await rows.count(), sheet.lines.length);
  for (const [i, line] of sheet.lines.entries()) {
    const n = i + 1;
    assert.equal(await page.inputValue(`input[aria-label="Qty line ${n}"]`), String(line.quantity), `qty of line ${n}`);
    assert.equal(await page.inputValue(`input[aria-label="Description line ${n}"]`), line.desc, `description of line ${n}`);
    assert.notEqual(await page.inputValue(`input[aria-label="Item Code line ${n}"]`), '', `code of line ${n}`);
    assert.ok(await page.locator(`input[aria-label="Qty line ${n}"]`).isVisible());
  }
  assert.equal(await page.getByText('Loading the line editor').count(), 0);
});

test('with JavaScript every island hydrates without a warning and works', async () => {
  const page = await pageWith({});
  const errors = errorsOf(page);
  await signIn(page, 'approver@demo.test');
  const sheet = await draftWithLines(page, 3);

  await page.goto(`/order_edit/invoices/${sheet.id}`);
  // Hydrated: mount removes `ssr`; the nodes the server sent are kept.
  await page.locator('app-island[name="line-editor"]:not([ssr])').waitFor({ state: 'attached' });
  const qty = page.locator('input[aria-label="Qty line 1"]');
  await qty.fill('7');
  await qty.press('Tab');
  assert.equal(await qty.inputValue(), '7');
  // One History dialog serves every line; it opens for the line's product and gives focus back.
  await page.getByRole('button', { name: 'CHK history, line 2' }).click();
  const history = page.getByRole('dialog', { name: 'Price History' });
  await history.getByRole('table').waitFor();
  await page.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'CHK history, line 2');

  await page.goto('/order_add/invoices');
  await page.locator('app-island[name="line-editor"]:not([ssr])').waitFor({ state: 'attached' });
  await page.locator('input[aria-label="Item Code line 1"]').fill('205');

  await page.goto('/sales_reports');
  await page.locator('app-island[name="report-form"]:not([ssr])').waitFor({ state: 'attached' });

  // Quoting: the cart loads when idle and takes an item; Change Password opens on click.
  await page.goto('/quotings');
  await page.locator('app-island[name="quoting-cart"]:not([ssr])').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByRole('dialog', { name: 'Change Password' }).waitFor();
  await page.keyboard.press('Escape');

  await page.goto('/ocops');
  await page.locator('app-island[name="ocop-editor"]:not([ssr])').waitFor({ state: 'attached' });

  assert.deepEqual(errors, []);
});

/**
 * Bytes on the wire (compressed) of every response until the `load` event of `path`, opened
 * in a fresh tab of `context` (signed in) so nothing of an earlier page is counted.
 */
async function firstLoad(context, path) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bytes = new Map();
  cdp.on('Network.loadingFinished', (e) => bytes.set(e.requestId, e.encodedDataLength));
  const urls = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  await page.goto(path, { waitUntil: 'load' });
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const files = [...bytes.entries()].map(([id, n]) => `${Math.round(n / 1024)} KB ${urls.get(id)}`);
  await cdp.detach();
  await page.close();
  return { total, files };
}

test('first loads stay light: quoting and lists ≤ 60 KB, the order editor ≤ 200 KB', async () => {
  const page = await pageWith({});
  await signIn(page, 'approver@demo.test');
  const budgets = [
    ['/quotings', 60],
    ['/quotings?key=2055516', 60],
    ['/invoices', 60],
    ['/purchase_orders', 60],
    ['/products', 60],
    ['/customers', 60],
    ['/order_add/invoices', 200],
  ];
  for (const [path, kb] of budgets) {
    const { total, files } = await firstLoad(page.context(), path);
    console.log(`${path}: ${(total / 1024).toFixed(1)} KB on the wire until load (budget ${kb} KB)`);
    assert.ok(total <= kb * 1024, `${path} weighs ${(total / 1024).toFixed(1)} KB:\n${files.join('\n')}`);
  }
  // React is not part of the quoting page's first load.
  const { files } = await firstLoad(page.context(), '/quotings');
  assert.ok(!files.some((f) => /quoting-cart|price-dialog|jsx-runtime|client-/.test(f)), files.join('\n'));
});

test('on a 400 kbit/s link with 400 ms latency the lines show before the editor code arrives', async () => {
  const page = await pageWith({});
  await signIn(page, 'approver@demo.test');
  const sheet = await draftWithLines(page, 3);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 });
  for (const path of ['/order_add/invoices', `/order_edit/invoices/${sheet.id}`]) {
    const started = Date.now();
    await page.goto(path, { waitUntil: 'commit' });
    // The first line's inputs, from the server's render.
    await page.locator('input[aria-label="Qty line 1"]').waitFor({ state: 'visible' });
    const visibleAt = Date.now() - started;
    const stillServerHtml = await page.locator('app-island[name="line-editor"][ssr]').count();
    await page.locator('app-island[name="line-editor"]:not([ssr])').waitFor({ state: 'attached', timeout: 60_000 });
    const hydratedAt = Date.now() - started;
    console.log(`${path}: first line visible ${visibleAt} ms, hydrated ${hydratedAt} ms (400 kbit/s, 400 ms)`);
    // The order of events, not the machine's speed: readable before the island's code ran.
    assert.equal(stillServerHtml, 1, `${path}: the line editor hydrated before its lines were visible`);
    assert.ok(visibleAt < hydratedAt, `${path}: visible ${visibleAt} ms, hydrated ${hydratedAt} ms`);
    // Typing works once hydrated.
    await page.locator('input[aria-label="Qty line 1"]').fill('3');
    assert.equal(await page.inputValue('input[aria-label="Qty line 1"]'), '3');
  }
  await cdp.detach();
});
