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
    // A cell wraps when one of its texts makes more than one line box. Quoting's item names
    // may wrap (issue 32: shown whole, not cut): they are counted apart, with their lines.
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
