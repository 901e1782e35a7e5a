// The sheet editor on a slow link (issue 37): at 400 kbit/s with 400 ms latency and no
// cache, its first line takes typing before the island's code arrives; hydration keeps what
// was typed (and the focus), and the sheet saves. A form sent with the island's code blocked
// saves too: the plain rows are a real form.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** 400 kbit/s each way, 400 ms latency (CDP's figures are bytes per second). */
const SLOW = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

/**
 * From navigation at SLOW, cold cache (ms), issue 37's targets: line 1 takes typing within
 * 1 s, and the whole editor is live within 2.5 s (about 1.9 s here since the islands run on
 * Preact and the loader no longer waits for htmx; 3.8–4.1 s before, with React:
 * docs/decisions/islands.md).
 */
const TYPING_BY = 1_000;
const LIVE_BY = 2_500;

async function json(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return r.json();
}

/** A signed-in page, the customer, warehouse and a stocked product to sell (fast link). */
async function setUp() {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  const customer = (await json(page, '/api/customers?per_page=150')).data.find((c) => c.payment_type !== 10);
  const warehouse = (await json(page, '/api/warehouses')).data[0].id;
  const product = (await json(page, `/api/products?code=2055516&per_page=20&warehouseId=${warehouse}`)).data.find((p) => p.stock > 5);
  assert.ok(customer && product, 'demo data has a customer and a stocked 205/55R16');
  return { page, customer, warehouse, product };
}

/** Throttles `page` to SLOW with the cache off. */
async function throttle(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  return cdp;
}

/** Picks a customer in the To CSR picker by keyboard (static/js/picker.js). */
async function pickCustomer(page, name) {
  await page.focus('#f-customer');
  await page.keyboard.type(name.slice(0, 12));
  await page.locator('.picker-list li').first().waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('input[name="customer_id"]').value !== '');
}

/** Lines of a saved sheet through the JSON API. */
async function savedLines(page) {
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  return (await json(page, `/api/orders/${id}`)).data.lines;
}

test('at 400 kbit/s line 1 takes typing before hydration, hydration keeps it, and the sheet saves', async () => {
  const { page, customer, warehouse, product } = await setUp();
  // When the first line's code cell exists, and when the island is live (ms since navigation).
  await page.addInitScript(() => {
    const seen = () => {
      if (window.__typingAt === undefined && document.querySelector('input[aria-label="Item Code line 1"]')) window.__typingAt = performance.now();
      if (window.__liveAt === undefined && document.querySelector('app-island[name="line-editor"] [data-live]')) window.__liveAt = performance.now();
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-live'] });
  });
  const cdp = await throttle(page);
  await page.goto('/order_add/invoices', { waitUntil: 'commit' });

  const code = page.getByLabel('Item Code line 1', { exact: true });
  await code.click();
  assert.equal(await page.locator('app-island[name="line-editor"] [data-live]').count(), 0, 'typing starts before hydration');
  await page.keyboard.type(product.code.toLowerCase());
  await page.keyboard.press('Tab'); // → Item Name
  await page.keyboard.press('Tab'); // → Qty
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Qty line 1', 'Tab moves between the plain cells');
  await page.keyboard.type('4');
  const typedBeforeLive = await page.locator('app-island[name="line-editor"] [data-live]').count() === 0;
  assert.ok(typedBeforeLive, 'the code and quantity were typed before hydration');

  await page.locator('app-island[name="line-editor"] [data-live]').waitFor({ state: 'attached', timeout: 30_000 });
  const { typingAt, liveAt } = await page.evaluate(() => ({ typingAt: window.__typingAt, liveAt: window.__liveAt }));
  console.log(`editor at 400 kbit/s, 400 ms: line 1 typeable at ${Math.round(typingAt)} ms, live at ${Math.round(liveAt)} ms`);
  // Hydration adopted what was typed, and the focus stayed in the quantity being typed.
  assert.equal(await page.getByLabel('Qty line 1', { exact: true }).inputValue(), '4');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Qty line 1', 'focus kept');
  // The typed code named the product: the island looked it up and picked it.
  await page.waitForFunction((name) => document.querySelector('input[aria-label="Item Name line 1"]')?.value === name, product.name);
  assert.equal(await page.getByLabel('Item Code line 1', { exact: true }).inputValue(), product.code);
  const lines = JSON.parse(await page.locator('input[name="lines_json"]').inputValue());
  assert.equal(lines[0].productId, product.id);
  assert.equal(lines[0].qty, '4');

  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await pickCustomer(page, customer.name);
  await page.selectOption('#f-warehouse', String(warehouse));
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/order_detail\/invoices\/\d+/);
  const saved = await savedLines(page);
  assert.equal(saved.length, 1);
  assert.equal(saved[0].productId, product.id);
  assert.equal(saved[0].quantity, 4);
  assert.ok(typingAt <= TYPING_BY, `line 1 typeable within ${TYPING_BY} ms (was ${Math.round(typingAt)})`);
  assert.ok(liveAt <= LIVE_BY, `editor live within ${LIVE_BY} ms (was ${Math.round(liveAt)})`);
  await page.context().close();
});

test('with the island\'s code blocked the plain form saves the sheet, and a bad line comes back as typed', async () => {
  const { page, customer, warehouse, product } = await setUp();
  await page.route('**/static/islands/assets/line-editor-*.js', (route) => route.abort());
  await page.goto('/order_add/invoices');
  await pickCustomer(page, customer.name);
  await page.selectOption('#f-warehouse', String(warehouse));
  // A code naming nothing and a quantity the rules refuse: refused, typed values kept.
  await page.getByLabel('Item Code line 1', { exact: true }).fill('NO-SUCH-TYRE');
  await page.getByLabel('Qty line 1', { exact: true }).fill('1.5');
  await page.getByLabel('Unit Price line 1', { exact: true }).fill('150.00');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByText("No product has the code 'NO-SUCH-TYRE'").first().waitFor();
  assert.equal(await page.getByLabel('Item Code line 1', { exact: true }).inputValue(), 'NO-SUCH-TYRE');
  assert.equal(await page.getByLabel('Qty line 1', { exact: true }).inputValue(), '1.5');
  assert.equal(await page.getByLabel('Unit Price line 1', { exact: true }).inputValue(), '150.00');
  assert.equal(await page.locator('app-island[name="line-editor"] [data-live]').count(), 0, 'the island never ran');

  await page.getByLabel('Item Code line 1', { exact: true }).fill(product.code);
  await page.getByLabel('Qty line 1', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/order_detail\/invoices\/\d+/);
  const saved = await savedLines(page);
  assert.equal(saved.length, 1);
  assert.equal(saved[0].productId, product.id);
  assert.equal(saved[0].quantity, 2);
  assert.equal(saved[0].price, 15_000);
  await page.context().close();
});
