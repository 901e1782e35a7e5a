// Buying imported stock (issue 35) in real Chromium: an approver keeps the company's USD rate
// in Settings › Exchange rates, makes a supplier bill in USD, and the purchase order entered in
// US dollars shows both currencies; a USD bill gets its freight allocated as a landed cost from
// the bill's page; the purchase suggestions are ticked from the keyboard and become a draft
// purchase order. axe-core checks each new page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { api, signIn, start } from './harness.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING = ['critical', 'serious', 'moderate'];

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** axe-core on the page as it is, evaluated through the browser's protocol. */
async function audit(page, where) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  assert.deepEqual(
    violations.filter((v) => FAILING.includes(v.impact)).map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`),
    [],
    `no critical, serious or moderate accessibility violation on ${where}`,
  );
}

/** Today in the demo company's zone, `yyyy-mm-dd`. */
function today() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());
}

test('a USD purchase order and bill show both currencies and the bill takes a landed cost', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');

  // Settings › Exchange rates: a rate of 0 is refused with its message, 0.65 is kept.
  await page.goto('/settings/exchange_rates');
  await page.getByLabel('Currency').selectOption('USD');
  await page.getByLabel('Rate (per 1 AUD)').fill('0');
  await page.getByRole('button', { name: 'Save rate' }).click();
  await page.getByText('The exchange rate must be above 0').waitFor();
  await page.getByLabel('Rate (per 1 AUD)').fill('0.65');
  await page.getByRole('button', { name: 'Save rate' }).click();
  await page.locator('#rate-list').getByText('1 AUD = 0.6500 USD').waitFor();
  await audit(page, 'Exchange rates');

  // A supplier who bills in USD, through the supplier form.
  await page.goto('/baseinfo/suppliers');
  await page.locator('[name="code"]').fill('E2E-USD');
  await page.locator('[name="name"]').fill('Shandong Tyre Factory');
  await page.locator('[name="currency"]').selectOption('USD');
  await page.locator('[name="lead_time_days"]').fill('45');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.waitForURL(/\/baseinfo\/suppliers\/\d+/);
  const supplier = Number(new URL(page.url()).pathname.split('/').pop());

  const products = (await api(page, 'GET', '/api/products?per_page=50')).json.data;
  const tyre = products.find((p) => p.category === 1);
  const service = products.find((p) => p.category === 1 && p.id !== tyre.id);
  const warehouse = (await api(page, 'GET', '/api/warehouses')).json.data[0];
  const po = await api(page, 'POST', '/api/orders', { type: 3, supplierId: supplier, warehouseId: warehouse.id, date: today(), shipmentRef: 'TGHU 778812-0', taxType: 1, lines: [{ seq: 1, productId: tyre.id, quantity: 40, price: 6500 }] });
  assert.equal(po.status, 200, JSON.stringify(po.json));
  await page.goto(`/order_detail/purchase_orders/${po.json.data.id}`);
  await page.getByText('1 AUD = 0.6500 USD').waitFor();
  await page.getByRole('columnheader', { name: 'Unit Price (USD)' }).waitFor();
  assert.ok(await page.getByText('TGHU 778812-0').first().isVisible(), 'the shipment shows');
  await audit(page, 'a USD purchase order');

  // The editor takes the supplier's prices: the draft opens with US$65.00.
  await page.goto(`/order_edit/purchase_orders/${po.json.data.id}`);
  await page.getByText('Currency USD').waitFor();
  await audit(page, 'a USD purchase order in the editor');

  // A USD bill received, approved; a freight bill's page allocates it as a landed cost.
  const ok = await api(page, 'POST', `/api/orders/${po.json.data.id}/approve`, {});
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const bill = await api(page, 'POST', '/api/orders', { type: 4, supplierId: supplier, warehouseId: warehouse.id, relatedOrderId: po.json.data.id, date: today(), taxType: 1, lines: [{ seq: 1, productId: tyre.id, quantity: 30, price: 6500 }] });
  assert.equal(bill.status, 200, JSON.stringify(bill.json));
  assert.equal((await api(page, 'POST', `/api/orders/${bill.json.data.id}/approve`, {})).status, 200);

  // The quoting stock dropdown, opened, says what is still coming: 10 on the purchase order.
  const poNo = (await api(page, 'GET', `/api/orders/${po.json.data.id}`)).json.data.no;
  await page.goto(`/quotings?key=${encodeURIComponent(tyre.code)}`);
  const row = page.locator(`tr[data-product="${tyre.id}"]`);
  await row.locator('details.stock-dd summary').click();
  const coming = row.locator('.coming');
  await coming.getByRole('link', { name: poNo }).waitFor();
  assert.match(await coming.innerText(), /TGHU 778812-0/);
  assert.match(await coming.innerText(), /\b10\b/);
  const local = (await api(page, 'GET', '/api/suppliers')).json.data.find((s) => s.id !== supplier);
  const freight = await api(page, 'POST', '/api/orders', { type: 4, supplierId: local.id, warehouseId: warehouse.id, date: today(), taxType: 1, lines: [{ seq: 1, productId: service.id, quantity: 1, price: 40000 }] });
  assert.equal(freight.status, 200, JSON.stringify(freight.json));
  assert.equal((await api(page, 'POST', `/api/orders/${freight.json.data.id}/approve`, {})).status, 200);
  await page.goto(`/order_detail/bills/${freight.json.data.id}`);
  await page.getByRole('link', { name: 'Allocate landed cost' }).click();
  await page.waitForURL(/\/landed_costs\/new/);
  await audit(page, 'a new landed cost');
  const billNo = (await api(page, 'GET', `/api/orders/${bill.json.data.id}`)).json.data.no;
  await page.getByRole('checkbox', { name: new RegExp(billNo) }).check();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.waitForURL(/\/landed_costs\/\d+/);
  await audit(page, 'a landed cost');
  let asked = '';
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('button', { name: 'Unapprove' }).waitFor();
  assert.match(asked, /costs are raised/, 'approving asks first');
});

test('the suggestions are ticked from the keyboard and become a draft purchase order', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/purchase_suggestions?only_below=0');
  await audit(page, 'Purchase suggestions');
  const boxes = page.locator('input[name="pick"]');
  const count = await boxes.count();
  assert.ok(count > 0, 'the demo company has products to show');
  for (let i = 0; i < count; i += 1) await boxes.nth(i).uncheck();
  // The first row with a preferred supplier: focus its row, Space ticks it.
  const row = page.locator('tbody').filter({ hasNotText: 'No preferred supplier' }).locator('tr[data-row]').first();
  await row.focus();
  await page.keyboard.press('Space');
  assert.equal(await row.locator('input[name="pick"]').isChecked(), true, 'Space ticks the focused row');
  const qty = row.locator('input[data-suggested]');
  await qty.fill('6');
  await page.getByRole('button', { name: 'Create draft purchase orders' }).click();
  await page.waitForURL(/\/purchase_suggestions\/created/);
  await page.getByRole('heading', { name: 'Draft purchase orders created' }).waitFor();
  await audit(page, 'created purchase orders');
  await page.locator('a[href^="/order_detail/purchase_orders/"]').first().click();
  await page.getByText('Draft', { exact: true }).first().waitFor();
});
