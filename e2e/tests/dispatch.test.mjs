// Dispatch (issue 34) in real Chromium: the office puts an approved invoice on a driver's run
// and makes the run's link; on a phone (390×844, no sign-in) the driver opens the link, opens
// the stop, chooses Delivered, types who received it, signs on the screen with the finger
// (the mouse here), enters the cash and saves; the office then sees 'Delivered' on the board,
// the signature on the run page and on the sheet. axe-core checks the phone's pages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { api, signIn, start } from './harness.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING = ['critical', 'serious', 'moderate'];
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** Today in the demo company's zone, `yyyy-mm-dd`. */
function today() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());
}

/** An approved Delivery invoice for today, of a customer who pays the driver cash if the demo
 * data has one (COD payment types 1–8). */
async function approvedDelivery(page) {
  const products = (await api(page, 'GET', '/api/products?per_page=100')).json.data;
  const product = products.find((p) => p.category === 1 && p.classAPrice > 0);
  const customers = (await api(page, 'GET', '/api/customers?per_page=100')).json.data;
  const customer = customers.find((c) => c.payment_type >= 5 && c.payment_type <= 8 && c.creditLimit === 0)
    ?? customers.find((c) => c.payment_type !== 10 && c.creditLimit === 0);
  const warehouse = (await api(page, 'GET', '/api/warehouses')).json.data[0];
  assert.ok(product && customer && warehouse, 'demo data has a product, a customer and a warehouse');
  const created = await api(page, 'POST', '/api/orders', {
    type: 1,
    customerId: customer.id,
    warehouseId: warehouse.id,
    shipType: 1,
    deliveryDate: today(),
    lines: [{ seq: 1, productId: product.id, quantity: 4, price: product.classAPrice }],
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.data.id;
  const ok = await api(page, 'POST', `/api/orders/${id}/approve`, { warehouseId: warehouse.id, shipType: 1, confirmed: true });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const order = (await api(page, 'GET', `/api/orders/${id}`)).json.data;
  return { id, no: order.no, warehouse: warehouse.id, customer: customer.name };
}

/** Through the board (issue 34's contract): the sheet on Dan Driver's 'Morning North', and
 * the run's link made on the run page. Answers the run page's path and the link. */
async function runWithLink(page, sheet) {
  const board = `/dispatch?warehouse_id=${sheet.warehouse}&date=${today()}`;
  await page.goto(board);
  await page.getByRole('checkbox', { name: `Select ${sheet.no}` }).check();
  // The select and the field are named by their labels (a label around a control also reads its value).
  await page.getByRole('combobox', { name: /^Driver\b/ }).selectOption({ label: 'Dan Driver' });
  await page.getByRole('textbox', { name: /^Run\b/ }).fill('Morning North');
  await page.getByRole('button', { name: 'Assign', exact: true }).click();
  const runLink = page.locator('a[href^="/dispatch/runs/"]', { hasText: 'Morning North' }).first();
  await runLink.waitFor();
  const run = await runLink.getAttribute('href');
  await page.goto(run);
  await page.getByRole('button', { name: 'New link' }).click();
  await page.locator('#run-link').waitFor();
  const link = await page.locator('#run-link').getAttribute('href');
  assert.match(link, /\/r\/[2-9A-Za-z]{20}$/);
  return { run, link };
}

/** axe-core on the page as it is: evaluated through the browser's protocol, so the page keeps
 * its own Content-Security-Policy (which lets in no other script). */
async function audit(page, where) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  assert.deepEqual(
    violations.filter((v) => FAILING.includes(v.impact)).map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`),
    [],
    `no critical, serious or moderate accessibility violation on ${where}`,
  );
}

/** On the phone: opens the link, records the stop of `sheet` Delivered with a signature and
 * the cash, and sees it saved. */
async function deliverOnPhone(browser, base, link, sheet) {
  const context = await browser.newContext({ ...PHONE, baseURL: base });
  const phone = await context.newPage();
  phone.setDefaultTimeout(15_000);
  const path = new URL(link, base).pathname;
  const res = await phone.goto(path);
  assert.equal(res.status(), 200);
  assert.equal(res.headers()['referrer-policy'], 'no-referrer');
  await phone.getByRole('heading', { name: 'Morning North' }).waitFor();
  const stop = phone.locator('li.stop', { hasText: sheet.no });
  assert.match(await stop.textContent(), /Delivering/);
  const hrefs = await phone.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  for (const h of hrefs) assert.ok(h.startsWith(path) || h.startsWith('tel:'), `the run's page links only to its stops: ${h}`);
  await audit(phone, 'the run on a phone');

  await stop.locator('a.stop-open').click();
  await phone.waitForURL(`**${path}/stops/*`);
  await audit(phone, "a stop's form on a phone");
  const due = await phone.getByLabel('Collected ($)').inputValue();
  await phone.getByLabel('Delivered', { exact: true }).check();
  assert.equal(await phone.getByLabel('Reason').isVisible(), false, 'no reason asked for a delivery');
  await phone.getByLabel('Received by').fill('Sam Smith');
  // The signature, drawn with the mouse (pointer events, as a finger draws).
  const pad = phone.locator('canvas#signature');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  await phone.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await phone.mouse.down();
  for (let i = 1; i <= 12; i += 1) {
    await phone.mouse.move(box.x + 20 + i * (box.width - 40) / 12, box.y + box.height * (i % 2 ? 0.3 : 0.7), { steps: 2 });
  }
  await phone.mouse.up();
  const inked = await pad.evaluate((c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0));
  assert.ok(inked, 'the signature shows on the pad');
  await phone.getByLabel('Collected ($)').fill(due || '50.00');
  await phone.getByLabel('Paid by').selectOption({ label: 'Cash' });
  // A weak connection: the first post reaches the server and is written, but its answer is
  // lost. The page tries again with the same key, and the server writes nothing twice.
  const posts = [];
  await phone.route('**/stops/*', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts.push(route.request().headers()['x-driver-fetch']);
    if (posts.length === 1) {
      await route.fetch();
      return route.abort('internetdisconnected');
    }
    return route.continue();
  });
  await phone.getByRole('button', { name: 'Save' }).click();
  await phone.locator('#save-status', { hasText: 'trying again' }).waitFor();
  await phone.locator('#save-status', { hasText: 'Saved' }).waitFor();
  assert.equal(posts.length, 2, 'sent once more after the lost answer');
  await phone.waitForURL((u) => u.pathname === path && u.searchParams.has('saved'));
  await phone.getByText(`Saved: ${sheet.no} Delivered`).waitFor();
  assert.match(await phone.locator('li.stop', { hasText: sheet.no }).textContent(), /Delivered/);
  await context.close();
}

test('a driver records a delivery with a signature on a phone and the office sees it', async () => {
  const office = await app.newPage();
  await signIn(office, 'approver@demo.test');
  const sheet = await approvedDelivery(office);
  const { run, link } = await runWithLink(office, sheet);

  await deliverOnPhone(app.browser, app.base, link, sheet);

  // The office: the board says Delivered on the sheet's row, the run page shows the signature.
  await office.goto(`/dispatch?warehouse_id=${sheet.warehouse}&date=${today()}`);
  const row = office.locator('tr', { has: office.getByRole('checkbox', { name: `Select ${sheet.no}` }) });
  assert.match(await row.textContent(), /Delivered/);
  await audit(office, 'the dispatch board');
  await office.goto(run);
  const proof = office.getByRole('img', { name: `Proof of delivery for ${sheet.no}` });
  await proof.waitFor();
  assert.ok(await proof.evaluate((img) => img.complete && img.naturalWidth > 0), 'the signature loads');
  await audit(office, 'the run page');
  // The end of the day: the cash the driver took against what was due.
  await office.goto(`/dispatch/reconciliation?warehouse_id=${sheet.warehouse}&date=${today()}`);
  assert.match(await office.locator('main').textContent(), /Dan Driver/);
  await audit(office, 'the reconciliation');
  // And the sheet keeps it.
  await office.goto(`/order_detail/invoices/${sheet.id}`);
  const history = (await api(office, 'GET', `/api/orders/${sheet.id}/history`)).json.data.map((e) => e.action);
  assert.equal(history.filter((a) => a.startsWith('Delivered (run Morning North)')).length, 1, `recorded once: ${history.join(' | ')}`);
  const section = office.locator('#proof-of-delivery');
  assert.match(await section.textContent(), /Sam Smith/);
  assert.ok(await section.getByRole('img', { name: `Proof of delivery for ${sheet.no}` }).evaluate((img) => img.complete && img.naturalWidth > 0));
});

test('a link that does not work shows nothing of the company', async () => {
  const context = await app.browser.newContext({ ...PHONE, baseURL: app.base });
  const phone = await context.newPage();
  const res = await phone.goto('/r/23456789ABCDEFGHJKMN');
  assert.equal(res.status(), 404);
  await phone.getByRole('heading', { name: 'Link not working' }).waitFor();
  assert.equal(await phone.locator('a').count(), 0, 'no way into the app');
  await context.close();
});
