// The Reports Download Center in real Chromium: a Sales detail asked for on Sales Reports is
// listed, becomes Done without reloading the page (the table polls while a report runs),
// and downloads as type-dateRange.xlsx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

test('a sales detail report becomes Done in the Download Center and downloads', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/reports_download');
  await page.getByText('No reports yet').waitFor();

  // Ask for it on Sales Reports, as staff do: the detail tab, the default range.
  await page.goto('/sales_reports');
  await page.getByRole('tab', { name: 'Invoices & Credit Notes Detail' }).waitFor();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('status').filter({ hasText: 'Preparing for the report, please check it later' }).getByRole('link').click();
  await page.waitForURL('**/reports_download');

  await page.getByRole('button', { name: 'Refresh' }).click();
  const row = page.locator('#report-jobs tbody tr').first();
  await row.getByText('Invoices & Credit Notes Detail').waitFor();
  // No reload from here: the table asks again by itself while the report runs.
  await row.getByRole('link', { name: 'Download' }).waitFor({ timeout: 30_000 });
  assert.match(await row.innerText(), /Done/);

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Download' }).click()]);
  assert.match(download.suggestedFilename(), /^invoiceDetails-\d{4}-\d{2}-\d{2}~\d{4}-\d{2}-\d{2}\.xlsx$/);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(path).subarray(0, 2).toString(), 'PK', 'an xlsx (zip) file');
  await page.context().close();
});

test('the Download Center table is styled as the other lists are', async () => {
  const page = await app.newPage();
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, 'approver@demo.test');
  const look = () => page.evaluate(() => {
    const th = document.querySelector('table thead th:last-child'), table = th.closest('table');
    const s = getComputedStyle(th), t = getComputedStyle(table);
    return { thBackground: s.backgroundColor, thWeight: s.fontWeight, thPadding: s.paddingTop, tableBackground: t.backgroundColor, fontSize: t.fontSize, collapse: t.borderCollapse };
  });
  await page.goto('/invoices');
  const list = await look();
  await page.goto('/reports_download');
  const center = await look();
  assert.deepEqual(center, list, 'the header, cells and table look as on the invoice list');
  assert.equal(await page.locator('#report-jobs table.data-table').count(), 1);
  await page.context().close();
});
