// Screens that fit the office (issue 15), asserted as geometry at 1366×768: the lists show
// a dozen one-line rows with every column in view, the new-invoice page has its first line
// on the first screen, quoting shows whole names (wrapped, issue 32). Screenshots of the main screens go to
// e2e/screenshots/ (git-ignored) for anyone to look at after a run.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

const SHOTS = resolve('screenshots');
const OFFICE = { width: 1366, height: 768 };
let app;
before(async () => { app = await start(); mkdirSync(SHOTS, { recursive: true }); });
after(async () => { await app?.stop(); });

async function staffPage(viewport = OFFICE) {
  const page = await app.newPage();
  await page.setViewportSize(viewport);
  await signIn(page, 'approver@demo.test');
  return page;
}

async function open(page, path, shot) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}.png` });
}

/** The list's geometry: rows, fully visible rows, wrapped cells, sideways overflow. */
function listGeometry(page) {
  return page.evaluate(() => {
    const box = document.querySelector('.table-scroll');
    const table = box.querySelector('table');
    const area = box.getBoundingClientRect();
    const rows = [...table.tBodies[0].rows].filter((r) => !r.querySelector('td.empty'));
    const visible = rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= area.top && b.bottom <= Math.min(area.bottom, innerHeight) + 0.5;
    }).length;
    // A cell wraps when one of its texts makes more than one line box. A row's name
    // (customer, supplier, product, quoting's item name) may: it wraps rather than being cut
    // (issue 32), and quoting's names are counted apart, with their lines.
    const wrapped = [];
    const wrappedNames = [];
    for (const r of rows.slice(0, 30)) {
      for (const td of r.cells) {
        const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let t = walk.nextNode(); t; t = walk.nextNode()) {
          if (!t.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(t);
          const tops = new Set([...range.getClientRects()].filter((q) => q.width > 1 && q.height > 0).map((q) => Math.round(q.top)));
          if (tops.size > 1 && td.classList.contains('name')) wrappedNames.push([t.textContent.trim(), tops.size]);
          else if (tops.size > 1) wrapped.push(t.textContent.trim());
        }
      }
    }
    const content = document.querySelector('.content');
    return {
      rows: rows.length,
      visible,
      wrapped,
      wrappedNames,
      rowHeight: rows[0] ? rows[0].getBoundingClientRect().height : 0,
      tableOverflow: table.scrollWidth - box.clientWidth,
      pageOverflow: content.scrollWidth - content.clientWidth,
    };
  });
}

test('the invoice list shows 12+ one-line rows with every column, View of row 1 in view', async () => {
  const page = await staffPage();
  await open(page, '/invoices', 'invoices');
  const g = await listGeometry(page);
  assert.equal(g.rows, 150, 'the default page holds 150 invoices');
  assert.ok(g.visible >= 12, `at least 12 rows on the first screen, saw ${g.visible}`);
  assert.deepEqual(g.wrapped, [], 'no cell text wraps');
  assert.ok(g.tableOverflow <= 0, `no sideways scrolling (table wider by ${g.tableOverflow}px)`);
  assert.ok(g.pageOverflow <= 0, 'the page itself never scrolls sideways');
  const view = page.locator('tbody tr').first().getByRole('link', { name: 'View' });
  const b = await view.boundingBox();
  assert.ok(b && b.x >= 0 && b.y >= 0 && b.x + b.width <= OFFICE.width && b.y + b.height <= OFFICE.height, `View of row 1 inside the viewport: ${JSON.stringify(b)}`);
  // Every spec column header is on screen.
  for (const h of ['No.', 'Type', 'Reference', 'Customer', 'Qty', 'Amount', 'Date', 'Dispatch', 'Drafter', 'Last Approver', 'Delivery', 'Area / Ship', 'Status', 'Print', 'Xero', 'Action']) {
    const th = await page.locator('thead th', { hasText: h }).first().boundingBox();
    assert.ok(th && th.x + th.width <= OFFICE.width + 0.5, `${h} column in view`);
  }
  // The header stays while the rows scroll.
  await page.locator('.table-scroll').evaluate((el) => { el.scrollTop = 900; });
  const head = await page.locator('thead th').nth(1).boundingBox();
  const area = await page.locator('.table-scroll').boundingBox();
  assert.ok(Math.abs(head.y - area.y) <= 2, 'the header is sticky');
  // A delivery tag carries the driver in its tooltip.
  assert.match(await page.locator('tbody tr td .tag[title*="·"]').first().getAttribute('title'), /·/);
  await page.close();
});

test('a toast never covers the heading and its status tags', async () => {
  const page = await staffPage();
  await open(page, '/invoices');
  const href = await page.locator('tbody tr').first().getAttribute('data-href');
  await open(page, href);
  await page.evaluate(() => document.dispatchEvent(new CustomEvent('td:toast', { detail: { text: 'Operation successful', level: 'success' } })));
  const toast = await page.locator('.toast').first().boundingBox();
  // The heading row holds the number, its status tags and the action buttons.
  const heading = await page.locator('h1').first().evaluate((h) => {
    const r = (h.closest('.list-head') || h.parentElement).getBoundingClientRect();
    return { y: r.top, height: r.height };
  });
  const apart = toast.y >= heading.y + heading.height || toast.y + toast.height <= heading.y;
  assert.ok(apart, `toast ${JSON.stringify(toast)} clear of the heading row ${JSON.stringify(heading)}`);
  await page.close();
});

test('a list row opens its detail on click and on Enter', async () => {
  const page = await staffPage();
  await open(page, '/invoices');
  const row = page.locator('tbody tr').nth(2);
  const no = (await row.locator('td').nth(1).textContent()).trim();
  const [byClick] = await Promise.all([page.context().waitForEvent('page'), row.locator('td').nth(4).click()]);
  await byClick.waitForLoadState();
  assert.match(byClick.url(), /\/order_detail\/invoices\/\d+$/);
  assert.match(await byClick.locator('h1').textContent(), new RegExp(no));
  await byClick.close();
  await row.focus();
  await page.keyboard.press('ArrowDown');
  const focusedNo = await page.evaluate(() => document.activeElement.cells[1].textContent.trim());
  const [byEnter] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Enter')]);
  await byEnter.waitForLoadState();
  assert.match(await byEnter.locator('h1').textContent(), new RegExp(focusedNo));
  await page.close();
});

test('every sheet and master-data list keeps one-line rows without sideways scrolling', async () => {
  const page = await staffPage();
  const lists = [
    ['credit-notes', '/credit_notes'], ['self-orders', '/invoices?type=csr'], ['purchase-orders', '/purchase_orders'],
    ['bills', '/bills'], ['bill-credit-notes', '/bill_credit_notes'], ['transfers', '/transfers'], ['adjustments', '/adjustments'],
    ['products', '/products'], ['customers', '/customers'], ['suppliers', '/suppliers'], ['warehouses', '/warehouses'],
    ['brands', '/brands'], ['employees', '/employees'],
  ];
  for (const [name, path] of lists) {
    await open(page, path, name);
    const g = await listGeometry(page);
    assert.deepEqual(g.wrapped, [], `${path}: no cell wraps`);
    assert.ok(g.tableOverflow <= 0, `${path}: table wider than the screen by ${g.tableOverflow}px`);
    assert.ok(g.pageOverflow <= 0, `${path}: the page scrolls sideways`);
    assert.ok(g.visible >= Math.min(12, g.rows), `${path}: ${g.visible} of ${g.rows} rows on the first screen`);
  }
  await page.close();
});

test('at 1280×720 the invoice list scrolls sideways only inside the table', async () => {
  const page = await staffPage({ width: 1280, height: 720 });
  await open(page, '/invoices', 'invoices-1280');
  const g = await listGeometry(page);
  assert.ok(g.pageOverflow <= 0, 'the page never scrolls sideways');
  assert.deepEqual(g.wrapped, [], 'no cell wraps');
  assert.ok(g.visible >= 10, `${g.visible} rows on the first screen`);
  await page.close();
});

test('the new invoice has its first line on the first screen, Description in view', async () => {
  const page = await staffPage();
  await open(page, '/order_add/invoices', 'new-invoice');
  const code = page.getByLabel('Item Code line 1', { exact: true });
  await code.waitFor();
  const b = await code.boundingBox();
  assert.ok(b.y >= 48 && b.y + b.height <= OFFICE.height, `Item Code of line 1 visible without scrolling: ${JSON.stringify(b)}`);
  // Not under the sticky Submit bar or anything else.
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('aria-label'), { x: b.x + b.width / 2, y: b.y + b.height / 2 });
  assert.equal(hit, 'Item Code line 1', 'nothing covers the first line');
  const desc = page.getByLabel('Description line 1', { exact: true });
  const d = await desc.boundingBox();
  assert.ok(d.x >= 180 && d.x + d.width <= OFFICE.width && d.y + d.height <= OFFICE.height, `Description inside the viewport: ${JSON.stringify(d)}`);
  // Focus keeps the page in place (no sideways scroll under the menu) and shows the whole text.
  const long = 'BF2055516ADVT 205/55R16 91V BFGOODRICH ADVANTAGE T/A SPORT LT with a note';
  await desc.fill(long);
  await desc.focus();
  const scroll = await page.evaluate(() => [document.querySelector('.content').scrollLeft, document.querySelector('.table-fit').scrollLeft]);
  assert.deepEqual(scroll, [0, 0], 'focusing Description scrolls nothing sideways');
  const wide = await desc.evaluate((el) => ({ shown: el.clientWidth, needed: el.scrollWidth }));
  assert.ok(wide.shown >= 300, `the focused description widens to show its text (${wide.shown}px)`);
  await code.focus();
  const narrow = await desc.evaluate((el) => el.clientWidth);
  assert.ok(narrow < wide.shown, 'and narrows again when focus leaves');
  // Secondary fields fold under More; the header is at most three rows of fields.
  assert.equal(await page.locator('details.more-fields').getAttribute('open'), null);
  const head = await page.locator('.sheet-head').boundingBox();
  assert.ok(head.height <= 170, `compact header (${head.height}px)`);
  await page.locator('details.more-fields > summary').click();
  await page.getByLabel('Comments').waitFor();
  await page.close();
});

test('quoting shows whole names (role 4: in at most three lines), hides an empty M.Special column, qty and Add side by side', async () => {
  const page = await staffPage();
  await open(page, '/quotings?key=205', 'quoting');
  const g = await listGeometry(page);
  assert.ok(g.rows > 5, 'the search found tyres');
  assert.deepEqual(g.wrapped, [], 'no cell but a name wraps');
  // Role 4's cost columns leave the name the least room; it wraps rather than being cut.
  assert.deepEqual(g.wrappedNames.filter(([, lines]) => lines > 3), [], 'a name takes at most three lines');
  assert.ok(g.tableOverflow <= 0, `the cart column in view (table wider by ${g.tableOverflow}px)`);
  const cell = page.locator('tbody tr[data-product]').first().locator('.cart-cell');
  const qty = await cell.locator('.cart-qty').boundingBox();
  const add = await cell.locator('.cart-add').boundingBox();
  assert.ok(Math.abs(qty.y - add.y) <= 4 && add.x > qty.x, 'qty and Add in one row');
  // A search with no monthly special has no M.Special column.
  const headers = async () => page.locator('thead th').allTextContents();
  await open(page, '/quotings?key=BS25570225M749');
  assert.ok(!(await headers()).includes('M.Special'), 'no empty M.Special column');
  await page.close();
});

// Issue 32, item 9: at 1366×768 no action is cut or scrolled out of view, and the name that
// tells rows apart is shown whole.

/** A JSON call from a signed-in page, as the islands make them. */
function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const meta = (n) => document.querySelector(`meta[name="${n}"]`)?.content;
    const r = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': meta('csrf-token'), 'X-Org-Id': meta('org-id') },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, json: await r.json().catch(() => null) };
  }, { method, path, body });
}

/**
 * The rows' actions named `label` that are not wholly inside both the viewport and the
 * visible part of their table's box (sideways: rows further down are reached by scrolling).
 */
function actionsCut(page, label) {
  return page.evaluate((label) => {
    const box = document.querySelector('.table-scroll');
    const a = box.getBoundingClientRect();
    const left = Math.max(a.left + box.clientLeft, 0);
    const right = Math.min(a.left + box.clientLeft + box.clientWidth, innerWidth);
    const actions = [...box.querySelectorAll('tbody :is(a, button)')].filter((el) => el.textContent.trim() === label);
    const cut = actions.filter((el) => {
      const b = el.getBoundingClientRect();
      return b.width === 0 || b.left < left - 0.5 || b.right > right + 0.5;
    }).map((el) => el.closest('tr').cells[1]?.textContent.trim());
    const first = actions[0]?.getBoundingClientRect();
    return { count: actions.length, cut, firstInViewport: !!first && first.top >= a.top && first.bottom <= Math.min(a.bottom, innerHeight) };
  }, label);
}

/** The cells of column `header` whose text is cut (wider than the cell shows). */
function namesCut(page, header) {
  return page.evaluate((header) => {
    const table = document.querySelector('.table-scroll table');
    const at = [...table.tHead.rows[0].cells].findIndex((th) => th.textContent.trim() === header);
    if (at < 0) return { missing: true };
    const cells = [...table.tBodies[0].rows].map((r) => r.cells[at]).filter(Boolean);
    return {
      cells: cells.length,
      cut: cells.filter((td) => td.scrollWidth > td.clientWidth + 0.5).map((td) => td.textContent.trim()),
      texts: cells.map((td) => td.textContent.trim()),
    };
  }, header);
}

const LONG_NAME = 'Southern Highlands Tyre & Wheel Alignment Centre Pty Ltd';

test('the sales, purchase and bill lists show whole names and every View at 1366×768', async () => {
  const page = await staffPage();
  await open(page, '/invoices');
  // A customer with a long trading name, with an invoice and a credit note.
  const customer = await api(page, 'POST', '/api/customers', {
    name: LONG_NAME, code: '51 824 753 999', primary_person_first: 'Kim', address: '1 Old Hume Hwy',
    city: 'Mittagong', state: 'NSW', postal: '2575', priceType: 6, payment_type: 14, area_type: 3,
  });
  assert.equal(customer.status, 201, JSON.stringify(customer.json));
  const warehouse = (await api(page, 'GET', '/api/warehouses')).json.data[0].id;
  const product = (await api(page, 'GET', '/api/products?per_page=1')).json.data[0].id;
  for (const type of [1, 2]) {
    const sheet = await api(page, 'POST', '/api/orders', { type, customerId: customer.json.data.id, warehouseId: warehouse, lines: [{ seq: 1, productId: product, quantity: 1, price: 10000 }] });
    assert.equal(sheet.status, 200, JSON.stringify(sheet.json));
  }
  for (const [path, header] of [['/invoices', 'Customer'], ['/credit_notes', 'Customer'], ['/purchase_orders', 'Supplier'], ['/bills', 'Supplier']]) {
    await open(page, path, `names${path.replace('/', '-')}`);
    const views = await actionsCut(page, 'View');
    assert.ok(views.count > 0, `${path}: rows with View`);
    assert.deepEqual(views.cut, [], `${path}: every View inside the viewport and the table's visible box`);
    assert.ok(views.firstInViewport, `${path}: row 1's View on the first screen`);
    const names = await namesCut(page, header);
    assert.ok(!names.missing && names.cells > 0, `${path}: a ${header} column`);
    assert.deepEqual(names.cut, [], `${path}: no ${header} name cut`);
    if (header === 'Customer') assert.ok(names.texts.includes(LONG_NAME), `${path}: ${LONG_NAME} shown whole on the first page`);
    const g = await listGeometry(page);
    assert.ok(g.tableOverflow <= 0 && g.pageOverflow <= 0, `${path}: no sideways scrolling (${g.tableOverflow}px)`);
    assert.ok(g.visible >= 12, `${path}: ${g.visible} rows on the first screen`);
  }
  await page.close();
});

test('the self-order view with a long customer note keeps View in view', async () => {
  const shop = await app.newPage();
  await shop.goto('/shop/login');
  await shop.fill('#email', 'shop@demo.test');
  await shop.fill('#password', 'tyredesk');
  await shop.press('#password', 'Enter');
  await shop.waitForURL(/\/shop$/);
  await shop.getByRole('searchbox', { name: 'Search products' }).fill('205/55R16');
  await shop.getByRole('button', { name: 'Search' }).click();
  await shop.waitForURL(/key=205/);
  const item = shop.locator('.item').first();
  await item.getByRole('spinbutton').fill('2');
  await item.getByRole('button', { name: 'Add' }).click();
  await shop.locator('#cart-badge .badge', { hasText: '2' }).waitFor();
  await shop.goto('/shop/checkout');
  await shop.fill('#note', 'Please deliver before 10am to the back roller door on Station Street; ask for Kim in the workshop, and call 0412 345 678 if the gate is locked.');
  await shop.getByRole('button', { name: 'Place order' }).click();
  await shop.waitForURL(/\/shop\/orders\/\d+\?placed=1/);
  await shop.context().close();

  const page = await staffPage();
  await open(page, '/invoices?type=csr', 'self-orders-note');
  const views = await actionsCut(page, 'View');
  assert.ok(views.count > 0, 'self-orders listed');
  assert.deepEqual(views.cut, [], 'every View inside the viewport and the table box');
  const g = await listGeometry(page);
  assert.ok(g.tableOverflow <= 0, `the table fits its box (wider by ${g.tableOverflow}px)`);
  const names = await namesCut(page, 'Customer');
  assert.deepEqual(names.cut, [], 'no customer name cut');
  // The note is there, whole in its tooltip.
  assert.ok(await page.locator('td[title^="Please deliver before 10am"]').count() > 0, 'the note, whole in the tooltip');
  await page.close();
});

test('the OCOP list keeps Edit Prices in view for an approver, who sees the cost columns', async () => {
  const page = await staffPage();
  await open(page, '/ocops?key=r16', 'ocop-approver');
  const headers = await page.locator('thead th').allTextContents();
  assert.ok(headers.includes('COST'), 'role 4 sees the cost columns');
  const edits = await actionsCut(page, 'Edit Prices');
  assert.ok(edits.count > 0, 'products found');
  assert.deepEqual(edits.cut, [], 'every Edit Prices inside the viewport and the table box');
  const g = await listGeometry(page);
  assert.ok(g.tableOverflow <= 0 && g.pageOverflow <= 0, `no sideways scrolling (${g.tableOverflow}px)`);
  assert.deepEqual((await namesCut(page, 'Item Name')).cut, [], 'item names whole');
  await page.close();
});
