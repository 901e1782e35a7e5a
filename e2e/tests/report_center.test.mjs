// The Reports Download Center in real Chromium: a Sales detail asked for is listed as
// queued, becomes Done without reloading the page (the table polls while a report runs),
// and downloads as type-dateRange.xlsx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

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

test('a sales detail report becomes Done in the Download Center and downloads', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/reports_download');
  await page.getByText('No reports yet').waitFor();

  const today = new Date();
  const iso = (d) => d.toISOString().slice(0, 10);
  const from = new Date(today.getTime() - 90 * 86_400_000);
  const asked = await api(page, 'POST', '/api/reports', { type: 'invoiceDetails', dateRange: [iso(from), iso(today)] });
  assert.equal(asked.status, 201, JSON.stringify(asked.json));
  assert.equal(asked.json.message, 'Preparing for the report, please check it later');

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
