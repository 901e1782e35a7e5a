// The accounting link in real Chromium against `tyredesk xero-fake`: an approver connects
// Xero in Settings with a Custom Connection, sends an approved invoice (the sheet shows
// Sending… and then the green Sent tag without a reload), recalls it (Unsent again), and
// the stand-in holds one invoice, voided. Then "Connect to Xero" (the OAuth 2.0 code flow):
// consent at the stand-in's Xero, pick the organisation, send, a token refreshed mid-send,
// and a grant revoked in Xero shown as 'Reconnect to Xero'.
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
  const bearer = { authorization: `Bearer ${tok.access_token}` };
  const [tenant] = await (await fetch(`${fakeBase}/connections`, { headers: bearer })).json();
  const r = await fetch(`${fakeBase}/api.xro/2.0/Invoices`, { headers: { ...bearer, 'xero-tenant-id': tenant.tenantId } });
  return (await r.json()).Invoices;
}

/** Tells the stand-in to behave as Xero documents (its own control endpoint). */
async function control(body) {
  const r = await fetch(`${fakeBase}/fake/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.text());
}

/** Opens the first approved invoice not yet in Xero and presses SendXero; its number. */
async function sendAnInvoice(page) {
  await page.goto('/invoices?status=2&xero=unsent');
  await page.goto(await page.getByRole('link', { name: 'View' }).first().getAttribute('href'));
  const number = (await page.locator('h1').innerText()).match(/\S+\d+/)[0];
  await page.getByRole('button', { name: 'SendXero' }).click();
  return number;
}

test('connect Xero, send an approved invoice, see Sent, recall it, see Unsent', async () => {
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByText('Not connected').waitFor();
  const custom = page.locator('form[action="/settings/xero"]');
  await custom.getByLabel('Client id').fill('fake-client-id');
  await custom.getByLabel('Client secret').fill('fake-client-secret');
  await custom.getByText('Addresses (for a stand-in').click();
  await custom.getByLabel('Identity URL').fill(fakeBase);
  await custom.getByLabel('API URL').fill(`${fakeBase}/api.xro/2.0`);
  await custom.getByRole('button', { name: 'Connect', exact: true }).click();
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

test('Connect to Xero: consent, pick the organisation, send, refresh, and reconnect once revoked', async () => {
  await control({ action: 'add-organisation', name: 'Other Motors Pty Ltd' });
  const page = await app.newPage();
  await signIn(page, 'approver@demo.test');
  await page.goto('/settings');
  const form = page.locator('#xero-connect-form');
  await form.getByLabel('App client id').fill('fake-client-id');
  await form.getByLabel('App client secret').fill('fake-client-secret');
  await form.getByText('Addresses (for a stand-in').click();
  await form.getByLabel('Sign-in URL').fill(fakeBase);
  await form.getByLabel('Identity URL').fill(fakeBase);
  await form.getByLabel('API URL').fill(`${fakeBase}/api.xro/2.0`);
  await form.getByRole('button', { name: 'Connect to Xero' }).click();
  // At Xero (the stand-in's consent screen), then back.
  await page.waitForURL(`${fakeBase}/identity/connect/authorize?**`);
  await page.getByRole('link', { name: 'Allow access' }).click();
  await page.getByText('Signed in to Xero. Choose the organisation to send to below.').waitFor();
  await page.getByLabel('Other Motors Pty Ltd').waitFor();
  await page.getByLabel('Demo Company (AU)').check();
  await page.getByRole('button', { name: 'Use this organisation' }).click();
  await page.getByText('Connected to Demo Company (AU).').waitFor();
  await page.getByText('with Connect to Xero').waitFor();

  const first = await sendAnInvoice(page);
  await page.locator('.tag.tag-green', { hasText: 'Xero SENT' }).waitFor({ timeout: 30_000 });
  assert.equal((await fakeInvoices()).filter((d) => d.InvoiceNumber === first).length, 1);

  // Every access token expires at Xero: the next send refreshes it and goes through.
  await control({ action: 'expire-tokens' });
  await sendAnInvoice(page);
  await page.locator('.tag.tag-green', { hasText: 'Xero SENT' }).waitFor({ timeout: 30_000 });

  // The app is disconnected in Xero: the sheet says why, and Settings asks to reconnect.
  await control({ action: 'revoke' });
  await control({ action: 'expire-tokens' });
  await sendAnInvoice(page);
  await page.locator('#xero-error', { hasText: 'Connect to Xero again' }).waitFor({ timeout: 30_000 });
  await page.goto('/settings');
  await page.getByText('Reconnect to Xero.').waitFor();
  await page.context().close();
});
