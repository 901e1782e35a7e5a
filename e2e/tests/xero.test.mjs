// The accounting link in real Chromium against `tyredesk xero-fake`: an approver connects
// Xero in Settings, sends an approved invoice (the sheet shows Sending… and then the green
// Sent tag without a reload), recalls it (Unsent again), and the stand-in holds one
// invoice, voided.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { signIn, start } from './harness.mjs';

let app;
let fake;
let fakeBase;

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
  });
}

before(async () => {
  // The stand-in mode lets Settings name the stand-in's loopback addresses.
  app = await start({ env: { TYREDESK_XERO_STANDIN: '1' } });
  const port = await freePort();
  fakeBase = `http://127.0.0.1:${port}`;
  const bin = process.env.TYREDESK_BIN || resolve('../target/debug/tyredesk');
  fake = spawn(bin, ['xero-fake', '--bind', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const until = Date.now() + 30_000;
  for (;;) {
    try { await fetch(`${fakeBase}/api.xro/2.0/Organisation`); break; } catch { /* not up yet */ }
    if (Date.now() > until) throw new Error('xero-fake did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
});
after(async () => { fake?.kill('SIGTERM'); await app?.stop(); });

async function fakeInvoices() {
  const auth = Buffer.from('fake-client-id:fake-client-secret').toString('base64');
  const tok = await (await fetch(`${fakeBase}/connect/token`, { method: 'POST', headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).json();
  const r = await fetch(`${fakeBase}/api.xro/2.0/Invoices`, { headers: { authorization: `Bearer ${tok.access_token}` } });
  return (await r.json()).Invoices;
}

test('connect Xero, send an approved invoice, see Sent, recall it, see Unsent', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByText('Not connected').waitFor();
  await page.getByLabel('Client id').fill('fake-client-id');
  await page.getByLabel('Client secret').fill('fake-client-secret');
  await page.getByText('Addresses (for a stand-in').click();
  await page.getByLabel('Identity URL').fill(fakeBase);
  await page.getByLabel('API URL').fill(`${fakeBase}/api.xro/2.0`);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('Connected to Demo Company (AU).').waitFor();

  // An approved invoice not yet sent, from the list's filters.
  await page.goto('/invoices?status=2&xero=unsent');
  const view = page.getByRole('link', { name: 'View' }).first();
  const href = await view.getAttribute('href');
  await page.goto(href);
  const number = (await page.locator('h1').innerText()).match(/\S+\d+/)[0];
  await page.getByRole('button', { name: 'SendXero' }).click();
  // Sending… then Sent, without reloading: the page refreshes itself while the job runs.
  await page.locator('.tag.tag-green', { hasText: 'Xero SENT' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.getByRole('button', { name: 'UnApprove' }).count(), 0, 'no UnApprove while the sheet is in Xero');

  let mine = (await fakeInvoices()).filter((d) => d.InvoiceNumber === number);
  assert.equal(mine.length, 1, `one invoice ${number} in Xero`);
  assert.equal(mine[0].Status, 'AUTHORISED');

  await page.getByRole('button', { name: 'XeroRecall' }).click();
  await page.locator('.tag', { hasText: 'Xero Unsent' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'SendXero' }).waitFor();
  mine = (await fakeInvoices()).filter((d) => d.InvoiceNumber === number);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].Status, 'VOIDED');
  await page.context().close();
});
