// The date field in an en-US Chromium (issue 15): it shows and takes dd/mm/yyyy whatever the
// browser's locale, the forms post yyyy-MM-dd, shortcuts sit in a menu (the field is one
// input tall), and a text that is no day is marked with a message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
before(async () => { app = await start({ args: ['--lang=en-US'], locale: 'en-US' }); });
after(async () => { await app?.stop(); });

/** The date field (wrapper) whose visible input is `input`. */
const fieldOf = (input) => input.locator('xpath=ancestor::span[contains(@class,"date-input")][1]');
const hiddenOf = (input) => fieldOf(input).locator('input[type=hidden]');

/** `yyyy-MM-dd` of `iso` plus `days`. */
function plusDays(iso, days) {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

test('list search: dd/mm/yyyy typed in Date From is sent as yyyy-MM-dd', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  assert.equal(await page.evaluate(() => navigator.language), 'en-US');
  await page.goto('/invoices');
  const from = page.getByLabel('Date From', { exact: true });
  assert.equal(await from.getAttribute('placeholder'), 'dd/mm/yyyy');
  await from.fill('23/11/2026');
  const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/invoices' && new URL(r.url()).searchParams.has('from'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const url = new URL((await sent).url());
  assert.equal(url.searchParams.get('from'), '2026-11-23');
  await page.waitForURL(/from=2026-11-23/);
  assert.equal(await from.inputValue(), '23/11/2026');
  await page.context().close();
});

test('sheet form: ddmmyy becomes 23/11/2026, 1 Week from the Due Date menu, a bad day is marked', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/order_add/invoices');
  const date = page.locator('#f-date');
  assert.equal(await date.getAttribute('type'), 'text');
  assert.equal(await date.getAttribute('inputmode'), 'numeric');
  assert.equal(await page.getByLabel('Date', { exact: true }).getAttribute('id'), 'f-date');
  assert.match(await date.inputValue(), /^\d{2}\/\d{2}\/\d{4}$/, 'today shows as dd/mm/yyyy');

  const box = await fieldOf(date).boundingBox();
  assert.ok(box && box.height <= 32, `the date field is one input tall (${box?.height}px)`);
  assert.equal(await page.getByRole('button', { name: '1 Month' }).count(), 0, 'no shortcut buttons under the fields');

  await date.fill('231126');
  await date.blur();
  assert.equal(await date.inputValue(), '23/11/2026');
  assert.equal(await hiddenOf(date).inputValue(), '2026-11-23');
  assert.equal(await hiddenOf(date).getAttribute('name'), 'date');

  const due = page.locator('#f-due');
  const dueField = fieldOf(due);
  await dueField.getByRole('button', { name: 'Date shortcuts' }).click();
  const menu = dueField.getByRole('menu');
  await menu.waitFor();
  const items = await menu.getByRole('menuitem').allTextContents();
  assert.deepEqual(items, ['Today', 'Tomorrow', '1 Week', '2 Weeks', '1 Month', 'Pick on calendar…']);
  const menuBox = await menu.boundingBox();
  const dueBox = await dueField.boundingBox();
  assert.ok(menuBox.y >= dueBox.y + dueBox.height - 1, 'the menu opens below the field');
  await menu.getByRole('menuitem', { name: '1 Week' }).click();
  await menu.waitFor({ state: 'hidden' });
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  const week = await hiddenOf(due).inputValue();
  // The server's today (Sydney) may differ by a day from the browser's near midnight.
  assert.ok([plusDays(today, 6), plusDays(today, 7), plusDays(today, 8)].includes(week), `1 Week is a week on (${week})`);
  assert.equal(await due.inputValue(), `${week.slice(8, 10)}/${week.slice(5, 7)}/${week.slice(0, 4)}`);
  assert.equal(await fieldOf(due).evaluate((el) => el.getBoundingClientRect().height <= 32), true);

  await date.fill('31/02/2026');
  await date.press('Tab');
  assert.equal(await date.getAttribute('aria-invalid'), 'true');
  const msg = page.getByText('Enter the date as dd/mm/yyyy');
  await msg.waitFor();
  assert.equal(await date.getAttribute('aria-describedby'), await msg.getAttribute('id'));
  assert.equal(await hiddenOf(date).inputValue(), '31/02/2026', 'the server gets the bad text, not an old day');
  await date.fill('28/02/2026');
  await date.press('Enter');
  assert.equal(await date.getAttribute('aria-invalid'), null);
  assert.equal(await msg.count(), 0);
  assert.equal(await hiddenOf(date).inputValue(), '2026-02-28');
  await page.context().close();
});
