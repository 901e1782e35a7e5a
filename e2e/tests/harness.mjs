// Starts a real tyredesk server on a free loopback port with a fresh data directory
// (demo data seeded on first start) and a headless Debian Chromium driven by Playwright.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/**
 * Where the HTML of every page the browser tests load goes, for one run of the Nu HTML
 * checker after them (`nu-check.mjs`). One file per page shape: the method, the path with
 * its numbers as `N`, the names (not the values) of its query; the first load of a shape wins,
 * across test files too (`wx`).
 */
export const HTML_DIR = resolve(process.env.TYREDESK_HTML_DIR || 'test-results/html');

/** The file name of a page's shape, e.g. `GET_order_detail_invoices_N.html`. */
export function pageShape(method, url) {
  const u = new URL(url);
  const path = u.pathname.split('/').map((s) => (/^\d+$/.test(s) ? 'N' : s)).join('/');
  const keys = [...new Set(u.searchParams.keys())].sort().join('&');
  const name = `${method} ${path}${keys ? `?${keys}` : ''}`.replace(/[^A-Za-z0-9._&=?-]+/g, '_').replace(/[?&=]/g, '~');
  return name.slice(0, 150);
}

/** Keeps `html` (served or the DOM of) `url` under its shape's name; `suffix` tells the kinds apart. */
export function keepHtml(method, url, html, suffix = '') {
  mkdirSync(HTML_DIR, { recursive: true });
  const name = `${pageShape(method, url)}${suffix}`;
  try {
    writeFileSync(join(HTML_DIR, `${name}.html`), html, { flag: 'wx' });
    writeFileSync(join(HTML_DIR, `${name}.url`), `${method} ${url}${suffix ? ` (${suffix.replace(/^\W+/, '')})` : ''}\n`);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
  }
}

/** Whether `request` is for a frame inside a page (an iframe), not a page itself. */
function inSubframe(request) {
  try {
    return request.frame().parentFrame() !== null;
  } catch {
    return false; // a new tab's first page, asked for before its frame exists: a main frame
  }
}

/**
 * Records every main-frame document `context` loads, as served: navigations answered with
 * text/html, whatever the status (redirects carry no page). Each body read goes into
 * `pending`, for `stop` to wait on; `seen` holds the shapes already read.
 */
function recordDocuments(context, pending, seen) {
  context.on('response', (response) => {
    const request = response.request();
    if (!request.isNavigationRequest() || inSubframe(request)) return;
    if (response.status() >= 300 && response.status() < 400) return;
    if (!(response.headers()['content-type'] || '').startsWith('text/html')) return;
    const shape = pageShape(request.method(), response.url());
    if (seen.has(shape)) return;
    seen.add(shape);
    pending.push(response.text().then(
      (html) => keepHtml(request.method(), response.url(), html),
      () => seen.delete(shape), // the page went away before its body was read: next load
    ));
  });
}

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not answer at ${url}`);
}

/**
 * `options.args`: extra Chromium flags (e.g. `--lang=en-US`); `options.locale`: the locale of
 * every context `newPage` opens; `options.env`: extra environment of the server. All default
 * to what the other tests use.
 */
export async function start(options = {}) {
  const bin = process.env.TYREDESK_BIN || resolve('../target/debug/tyredesk');
  const dataDir = mkdtempSync(join(tmpdir(), 'tyredesk-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ...(options.env ?? {}), TYREDESK_DATA_DIR: dataDir, TYREDESK_BIND: `127.0.0.1:${port}` };
  delete env.DATABASE_URL;
  const server = spawn(bin, ['serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (d) => { output += d; });
  server.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((_, rej) => server.once('exit', (code) => rej(new Error(`tyredesk exited with ${code}`))));
  try {
    await Promise.race([waitFor(`${base}/healthz`, 60_000), exited]);
  } catch (e) {
    server.kill('SIGKILL');
    throw new Error(`${e.message}\n${output}`);
  }
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, ...(options.args ?? [])] });
  // Every context, the tests' own `browser.newContext` too, records the pages it loads.
  const pending = [];
  const seen = new Set();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    recordDocuments(context, pending, seen);
    return context;
  };
  return {
    base,
    browser,
    output: () => output,
    async newPage() {
      const context = await browser.newContext({ baseURL: base, ...(options.locale ? { locale: options.locale } : {}) });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return page;
    },
    async stop() {
      await Promise.allSettled(pending);
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the JSON API from the signed-in page, as the islands do (cookie + CSRF header). */
export function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const r = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]').content },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, json: await r.json().catch(() => null) };
  }, { method, path, body });
}

/** Signs in through the form with Enter, as staff do. */
export async function signIn(page, email, password = 'tyredesk') {
  await page.goto('/login');
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.press('#password', 'Enter');
  await page.waitForURL('**/quotings');
}

/**
 * Waits until the server-rendered island `name` runs: the report form's controls are
 * disabled until then (islands/src/lib/live.tsx); the line editor takes input at once (its
 * first rows are a plain form) and marks itself `data-live` once its code runs.
 */
export async function islandLive(page, name) {
  await page.locator(`app-island[name="${name}"] :is(fieldset.island-live:enabled, [data-live])`).first().waitFor({ state: 'attached' });
}
