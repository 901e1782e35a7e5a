// The report request screens in real Chromium: the report-form island mounts on Sales
// Reports, a chosen range is submitted and the screen says 'Preparing…' (the Download
// Center part of the flow is added with that screen).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { islandLive, signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start(); });
after(async () => { await app?.stop(); });

async function json(page, path) {
  const r = await page.request.get(path, { headers: { Accept: 'application/json' } });
  assert.equal(r.status(), 200, path);
  return r.json();
}

/** `yyyy-MM-dd` of a date some days before `iso`. */
function daysBefore(iso, days) {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

test('Sales Reports: choose a range, submit, see Preparing… and the job in the list', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/sales_reports');
  assert.match(await page.title(), /^Sales Reports - TyreDesk$/);
  const detail = page.getByRole('tab', { name: 'Invoices & Credit Notes Detail' });
  await detail.waitFor();
  await islandLive(page, 'report-form');
  assert.equal(await detail.getAttribute('aria-selected'), 'true');
  // The field shows dd/mm/yyyy; its hidden input holds the yyyy-MM-dd the form sends.
  const to = await page.getByLabel('Date Range to').locator('xpath=following-sibling::input[@type="hidden"][1]').inputValue();
  const from = daysBefore(to, 60);
  await page.getByLabel('Date Range from').fill(from);
  await page.getByLabel('Include Cost').selectOption('Yes');
  const warehouses = page.getByRole('group', { name: 'Warehouse' });
  await warehouses.getByLabel('ALL').uncheck();
  const first = warehouses.getByRole('checkbox').nth(1);
  await first.check();
  await page.getByRole('button', { name: 'Submit' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Preparing for the report, please check it later' });
  await status.waitFor();
  assert.equal(await status.getByRole('link').getAttribute('href'), '/reports_download');
  const jobs = (await json(page, '/api/reports')).data;
  const job = jobs.find((j) => j.type === 'invoiceDetails');
  assert.ok(job, 'the report is listed');
  assert.equal(job.dateRange, `${from}~${to}`);
  await page.context().close();
});

test('the form is keyboard usable and hides Include Cost from sales staff', async () => {
  const page = await app.newPage();
  await signIn(page, 'sales@demo.test');
  await page.goto('/sales_reports');
  const detail = page.getByRole('tab', { name: 'Invoices & Credit Notes Detail' });
  await detail.waitFor();
  await islandLive(page, 'report-form');
  assert.equal(await page.getByLabel('Include Cost').count(), 0);
  await detail.focus();
  await page.keyboard.press('ArrowLeft');
  const slow = page.getByRole('tab', { name: 'Slow-moving Products Analysis' });
  assert.equal(await slow.getAttribute('aria-selected'), 'true');
  assert.equal(await slow.evaluate((el) => el === document.activeElement), true);
  await page.getByLabel('Unsolde days').fill('3x');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByText('Enter a whole number.').waitFor();
  assert.equal(await page.getByLabel('Unsolde days').evaluate((el) => el === document.activeElement), true);
  await page.getByLabel('Unsolde days').fill('30');
  await page.getByLabel('Unsolde days').press('Enter');
  await page.getByRole('status').filter({ hasText: 'Preparing for the report, please check it later' }).waitFor();
  await page.context().close();
});
