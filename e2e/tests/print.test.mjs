// Printing in real Chromium: a 60-line approved invoice prints to an A4 PDF of three pages,
// marking it printed updates the detail tab, and the invoice list prints a selection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** Calls the JSON API from the signed-in page, as the islands do (cookie + CSRF header). */
function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const r = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]').content },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, json: await r.json().catch(() => null) };
  }, { method, path, body });
}

/** An approved invoice of `lines` lines for a customer the approval guard lets through. */
async function approvedInvoice(page, lines) {
  const products = (await api(page, 'GET', '/api/products?per_page=100')).json.data;
  const product = products.find((p) => p.category === 1 && p.classAPrice > 0);
  const customers = (await api(page, 'GET', '/api/customers?per_page=100')).json.data;
  const customer = customers.find((c) => c.payment_type !== 10 && c.creditLimit === 0);
  const warehouse = (await api(page, 'GET', '/api/warehouses')).json.data[0];
  assert.ok(product && customer && warehouse, 'demo data has a product, a customer and a warehouse');
  const created = await api(page, 'POST', '/api/orders', {
    type: 1,
    customerId: customer.id,
    warehouseId: warehouse.id,
    lines: Array.from({ length: lines }, (_, i) => ({ seq: i + 1, productId: product.id, quantity: 1 + (i % 4), price: product.classAPrice })),
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.data.id;
  const ok = await api(page, 'POST', `/api/orders/${id}/approve`, { warehouseId: warehouse.id });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const order = (await api(page, 'GET', `/api/orders/${id}`)).json.data;
  return { id, no: order.no };
}

/** Pages of a PDF: its page objects (`/Type /Page`, not `/Pages`) and the tree's count. */
function pdfPages(pdf) {
  const text = pdf.toString('latin1');
  const objects = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  const count = Number(/\/Type\s*\/Pages[^>]*?\/Count\s+(\d+)/s.exec(text)?.[1] ?? /\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages/s.exec(text)?.[1]);
  const boxes = [...text.matchAll(/\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
  return { objects, count, boxes };
}

/** Replaces the browser's print dialog with a counter in every tab of the context. */
async function stubPrintDialog(context) {
  await context.addInitScript(() => {
    window.__printCalls = 0;
    window.print = () => { window.__printCalls += 1; };
  });
}

test('a 60-line approved invoice prints to a 3-page A4 PDF and is marked printed', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await stubPrintDialog(page.context());
  const { id, no } = await approvedInvoice(page, 60);

  await page.goto(`/order_detail/invoices/${id}`);
  assert.equal(await page.locator('#print-tag').innerText(), 'UnPrint');
  await page.locator('details.dropdown summary', { hasText: 'Print' }).click();
  const [printTab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Standard' }).click(),
  ]);
  const print = printTab;
  print.setDefaultTimeout(15_000);
  assert.match(print.url(), new RegExp(`/order_print/${id}\\?variant=standard$`));
  await print.waitForFunction(() => window.__printCalls > 0);
  assert.equal(await print.evaluate(() => window.__printCalls), 1, 'the page opens the print dialog once loaded');
  assert.equal(await print.locator('section.page').count(), 3);
  const pages = await print.locator('section.page').allInnerTexts();
  assert.match(pages[0], /TAX INVOICE/);
  assert.match(pages[0], new RegExp(no));
  assert.match(pages[0], /Page 1 of 3/);
  assert.match(pages[1], /\(continued\)/);
  assert.match(pages[2], /Page 3 of 3/);
  assert.match(pages[2], /TOTAL AUD/);
  assert.match(pages[2], /PAYMENT ADVICE/);
  assert.doesNotMatch(pages[0] + pages[1], /TOTAL AUD/, 'totals come once, at the end');
  for (const p of pages) assert.match(p, /Description\s+Loc\.\s+Qty\.\s+Price\s+GST\s+Amount/, 'the table header repeats');

  const pdf = await print.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  const { objects, count, boxes } = pdfPages(pdf);
  assert.equal(objects, 3, 'three PDF pages');
  assert.equal(count, 3);
  for (const [w, h] of boxes) {
    assert.ok(Math.abs(w - 595.28) < 1.5 && Math.abs(h - 841.89) < 1.5, `A4 page, got ${w} x ${h}`);
  }

  // Printing to PDF fires 'afterprint' as a printed page does: the page marks the sheet
  // and says so, and the detail tab's tag follows without a reload.
  await print.locator('#print-status', { hasText: 'Print successful' }).waitFor();
  await page.locator('#print-tag', { hasText: 'PRINT' }).waitFor();
  const order = (await api(page, 'GET', `/api/orders/${id}`)).json.data;
  assert.equal(order.print, true);
  const history = (await api(page, 'GET', `/api/orders/${id}/history`)).json.data.map((e) => e.action);
  assert.equal(history.at(-1), 'Printed (Standard)');
  await page.goto(`/invoices?no=${no}`);
  assert.match(await page.locator('#results tbody tr').first().innerText(), /PRINT/);
  await page.context().close();
});

test('the invoice list prints the selected sheets together', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await stubPrintDialog(page.context());
  const a = await approvedInvoice(page, 2);
  const b = await approvedInvoice(page, 3);
  await page.goto('/invoices?status=2&sort=0');
  for (const s of [a, b]) await page.getByRole('checkbox', { name: `Select ${s.no}` }).check();
  await page.locator('[data-selection-count]', { hasText: '2 selected' }).waitFor();
  await page.locator('form.selection summary', { hasText: 'Print selected' }).click();
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.locator('form.selection button', { hasText: 'Without Price' }).click(),
  ]);
  await tab.waitForLoadState();
  const url = new URL(tab.url());
  assert.equal(url.pathname, '/order_print/batch');
  assert.equal(url.searchParams.get('variant'), 'noprice');
  assert.deepEqual(url.searchParams.getAll('ids').sort(), [String(a.id), String(b.id)].sort());
  const docs = await tab.locator('section.page').evaluateAll((els) => els.map((e) => e.dataset.doc));
  assert.deepEqual(docs.sort(), [a.no, b.no].sort(), 'each sheet on its own page');
  assert.equal(await tab.locator('h1', { hasText: 'Delivery Doc' }).count(), 2);
  await page.context().close();
});
