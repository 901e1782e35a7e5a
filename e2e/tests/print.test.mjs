// Printing in real Chromium: a 60-line approved invoice prints to A4 PDF pages that match the
// page's own split, the page asks whether it printed and marks the sheet only on 'Yes' (the
// detail tab follows), a long description prints every word, and the invoice list prints a
// selection.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { api, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

/** An approved invoice of `lines` lines for a customer the approval guard lets through; the
 * first line's description is `description` when given. */
async function approvedInvoice(page, lines, description) {
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
    lines: Array.from({ length: lines }, (_, i) => ({ seq: i + 1, productId: product.id, quantity: 1 + (i % 4), price: product.classAPrice, ...(i === 0 && description ? { description } : {}) })),
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.data.id;
  // Confirmed: 60 lines may take a product's stock below zero, which approval asks about first.
  const ok = await api(page, 'POST', `/api/orders/${id}/approve`, { warehouseId: warehouse.id, confirmed: true });
  assert.equal(ok.status, 200, JSON.stringify(ok.json));
  const order = (await api(page, 'GET', `/api/orders/${id}`)).json.data;
  return { id, no: order.no, product };
}

const MM = 96 / 25.4;

/** In print media: each A4 page's height (mm) and how far its lines table starts below the
 * customer and facts block (mm, first page only). */
function printedPages(print) {
  return print.evaluate((mm) => [...document.querySelectorAll('section.page')].map((s) => {
    const parties = s.querySelector('.doc-parties')?.getBoundingClientRect();
    return { height: s.getBoundingClientRect().height / mm, gap: parties && (s.querySelector('table.lines').getBoundingClientRect().top - parties.bottom) / mm };
  }), MM);
}

/** The print page's confirmation: the question and its buttons. */
function confirmation(print) {
  return {
    question: print.getByRole('group', { name: 'Did it print?' }),
    yes: print.getByRole('button', { name: 'Yes, mark printed' }),
    no: print.getByRole('button', { name: 'No', exact: true }),
    again: print.getByRole('button', { name: 'Print again' }),
    status: print.locator('#print-status'),
  };
}

async function printedHistory(page, id) {
  return (await api(page, 'GET', `/api/orders/${id}/history`)).json.data.map((e) => e.action).filter((a) => a.startsWith('Printed'));
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

test('a 60-line invoice prints to matching A4 pages and is marked printed only when confirmed', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await stubPrintDialog(page.context());
  const { id, no } = await approvedInvoice(page, 60);

  await page.goto(`/order_detail/invoices/${id}`);
  assert.equal(await page.locator('#print-tag').innerText(), 'UnPrint');
  await page.locator('details.dropdown summary', { hasText: 'Print' }).click();
  const [printTab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Standard', exact: true }).click(),
  ]);
  const print = printTab;
  print.setDefaultTimeout(15_000);
  assert.match(print.url(), new RegExp(`/order_print/${id}\\?variant=standard$`));
  await print.waitForFunction(() => window.__printCalls > 0);
  assert.equal(await print.evaluate(() => window.__printCalls), 1, 'the page opens the print dialog once loaded');
  const c = confirmation(print);
  await c.question.waitFor();
  assert.ok(await c.yes.evaluate((b) => b === document.activeElement), 'Yes has the focus when the question appears');

  // Pages as the server split them: descriptions wrap, so rows may take two lines.
  const n = await print.locator('section.page').count();
  assert.ok(n >= 3, `60 lines take at least 3 pages, got ${n}`);
  const pages = await print.locator('section.page').allInnerTexts();
  assert.match(pages[0], /TAX INVOICE/);
  assert.match(pages[0], new RegExp(no));
  assert.match(pages[0], new RegExp(`Page 1 of ${n}`));
  for (const p of pages.slice(1)) assert.match(p, /\(continued\)/);
  assert.match(pages[n - 1], new RegExp(`Page ${n} of ${n}`));
  assert.match(pages[n - 1], /TOTAL AUD/);
  assert.match(pages[n - 1], /PAYMENT ADVICE/);
  assert.doesNotMatch(pages.slice(0, -1).join('\n'), /TOTAL AUD/, 'totals come once, at the end');
  for (const p of pages) assert.match(p, /Description\s+Loc\.\s+Qty\.\s+Price\s+GST\s+Amount/, 'the table header repeats');
  assert.doesNotMatch(pages.join('\n'), /…/, 'no description is cut');

  // The PDF has exactly the page's pages: no page is measured short and spills over.
  await print.emulateMedia({ media: 'print' });
  for (const [i, p] of (await printedPages(print)).entries()) assert.ok(p.height < 296.5, `page ${i + 1} fits A4: ${p.height} mm`);
  await print.emulateMedia({ media: null });
  const pdf = await print.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  const { objects, count, boxes } = pdfPages(pdf);
  assert.equal(objects, n, `${n} PDF pages`);
  assert.equal(count, n);
  for (const [w, h] of boxes) {
    assert.ok(Math.abs(w - 595.28) < 1.5 && Math.abs(h - 841.89) < 1.5, `A4 page, got ${w} x ${h}`);
  }

  // The dialog closed (the stub returned, and printing to PDF fires 'afterprint'): the page
  // asks, with 'Yes' focused, and neither opening nor the PDF marked anything.
  await c.question.waitFor();
  assert.ok(await c.yes.evaluate((b) => b === document.activeElement), 'Yes has the focus after the PDF, too');
  assert.equal(await c.again.count(), 1, 'Print is offered again');
  assert.deepEqual(await printedHistory(page, id), [], 'opening the page and printing to PDF mark nothing');
  assert.equal((await api(page, 'GET', `/api/orders/${id}`)).json.data.print, false);

  // 'No' marks nothing and offers Print again.
  await c.no.click();
  await c.status.filter({ hasText: 'Not marked as printed.' }).waitFor();
  assert.ok(await c.question.isHidden());
  assert.ok(await c.again.evaluate((b) => b === document.activeElement), 'Print again has the focus');
  assert.deepEqual(await printedHistory(page, id), [], 'No marks nothing');
  assert.equal((await api(page, 'GET', `/api/orders/${id}`)).json.data.print, false);
  assert.equal(await page.locator('#print-tag').innerText(), 'UnPrint');

  // Print again, then 'Yes' (from the keyboard): marked, and the detail tab's tag follows
  // without a reload.
  await c.again.click();
  assert.equal(await print.evaluate(() => window.__printCalls), 2);
  await c.question.waitFor();
  assert.ok(await c.yes.evaluate((b) => b === document.activeElement), 'Yes has the focus again');
  await print.keyboard.press('Enter');
  await c.status.filter({ hasText: 'Print successful' }).waitFor();
  assert.ok(await c.question.isHidden());
  await page.locator('#print-tag', { hasText: 'PRINT' }).waitFor();
  const order = (await api(page, 'GET', `/api/orders/${id}`)).json.data;
  assert.equal(order.print, true);
  assert.deepEqual(await printedHistory(page, id), ['Printed (Standard)']);
  await page.goto(`/invoices?no=${no}`);
  assert.match(await page.locator('#results tbody tr').first().innerText(), /PRINT/);
  await page.context().close();
});

test('a 60-character description prints whole on the A4 PDF, under a tight header', async () => {
  const description = 'BFGOODRICH ADVANTAGE T/A SPORT LT 265/70R17 115T ALL TERRAIN';
  assert.equal(description.length, 60);
  const page = await app.newPage();
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, 'approver@demo.test');
  await stubPrintDialog(page.context());
  const { id, product } = await approvedInvoice(page, 3, description);
  await page.goto(`/order_print/${id}?variant=standard`);
  await confirmation(page).question.waitFor();

  const cells = await page.locator('td.desc').allInnerTexts();
  assert.equal(cells.length, 3);
  assert.equal(cells[0].replace(/\s+/g, ' '), `${product.code} ${product.name} · ${description}`, 'the item, then the line\'s own description');
  for (const cell of cells.slice(1)) assert.equal(cell.replace(/\s+/g, ' '), `${product.code} ${product.name}`, 'the item once');

  mkdirSync('screenshots', { recursive: true });
  await page.screenshot({ path: 'screenshots/print.png' });

  // In print: the lines start right under the customer and facts, and the page is one A4.
  await page.emulateMedia({ media: 'print' });
  const [first] = await printedPages(page);
  assert.ok(first.gap < 6, `the lines start right under the customer block (${first.gap.toFixed(1)} mm)`);
  assert.ok(first.height < 296.5);
  // The Description column's place on the page, in PDF points (1 CSS px = 0.75 pt).
  const col = await page.evaluate(() => {
    const s = document.querySelector('section.page').getBoundingClientRect();
    const r = document.querySelector('td.desc').getBoundingClientRect();
    return { x: (r.left - s.left) * 0.75, w: r.width * 0.75 };
  });
  await page.emulateMedia({ media: null });

  const dir = mkdtempSync(join(tmpdir(), 'tyredesk-print-'));
  try {
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, await page.pdf({ format: 'A4' }));
    const whole = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    assert.match(whole, /TAX INVOICE/);
    // Only the Description column: its wrapped lines follow each other.
    const column = execFileSync('/usr/bin/pdftotext', ['-layout', '-x', String(Math.floor(col.x)), '-y', '0', '-W', String(Math.ceil(col.w)), '-H', '842', file, '-'], { encoding: 'utf8' });
    assert.doesNotMatch(column, /…/, 'nothing is cut with an ellipsis');
    // A line may wrap after a space, a hyphen or a slash: compare without white space.
    const squash = (t) => t.replace(/\s+/g, '');
    assert.ok(squash(column).includes(squash(description)), `the whole description is printed:\n${column}`);
    assert.ok(column.replace(/\s+/g, ' ').includes('ADVANTAGE T/A SPORT LT'), 'words stay whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

test('the Print menu opens the sheet as a PDF the browser shows, saying what the print page says', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  const { id, no } = await approvedInvoice(page, 4);
  await page.goto(`/order_detail/invoices/${id}`);
  await page.locator('details.dropdown summary', { hasText: 'Print' }).click();
  const link = page.getByRole('link', { name: 'PDF (Standard)', exact: true });
  assert.ok(await link.isVisible());
  assert.equal(await link.getAttribute('target'), '_blank');
  // The link's answer, fetched with the page's own cookies: an inline A4 PDF of this sheet.
  const res = await page.request.get(await link.getAttribute('href'));
  assert.equal(res.status(), 200);
  assert.equal(res.headers()['content-type'], 'application/pdf');
  assert.match(res.headers()['content-disposition'], new RegExp(`^inline; filename="${no}\\.pdf"`));
  const pdf = await res.body();
  const text = execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString();
  assert.match(text, /TAX INVOICE/);
  assert.match(text, new RegExp(no));
  assert.match(text, /Page 1 of 1/);
  const { count, boxes } = pdfPages(pdf);
  assert.equal(count, 1);
  assert.ok(Math.abs(boxes[0][0] - 595.28) < 1.5 && Math.abs(boxes[0][1] - 841.89) < 1.5, `A4, got ${boxes[0]}`);
  // What the print page shows, word for word.
  await page.goto(`/order_print/${id}?variant=standard`);
  const words = (t) => t.split(/\s+/).filter(Boolean).map((w) => w.toLowerCase()).sort();
  const shown = await page.locator('section.page').evaluateAll((els) => els.map((e) => e.innerText).join(' '));
  assert.deepEqual(words(text), words(shown));
  assert.deepEqual(await printedHistory(page, id), [], 'viewing the PDF marks nothing');
  await page.context().close();
});
