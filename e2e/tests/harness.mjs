// Starts a real tyredesk server on a free loopback port with a fresh data directory
// (demo data seeded on first start) and a headless Debian Chromium driven by Playwright.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
 * Waits until the server-rendered island `name` runs: its controls are disabled until then
 * (islands/src/lib/live.tsx), so keys pressed earlier would go nowhere.
 */
export async function islandLive(page, name) {
  await page.locator(`app-island[name="${name}"] fieldset.island-live:enabled`).first().waitFor({ state: 'attached' });
}
