/// <reference types="vitest/config" />
// Builds the island bundles into ../static/islands for the Rust server.
// Entries: `loader` (src/loader.ts), `date-input` (src/date-input.ts, the date fields of the
// server-rendered pages) plus one entry per folder src/islands/<name>/index.tsx,
// discovered here so that adding an island needs no config change. The server finds the
// hashed file of an entry in static/islands/.vite/manifest.json under its source path,
// e.g. "src/islands/change-password/index.tsx".
import { existsSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { PREACT_ALIASES, REACT_LIBRARIES } from './preact-alias.ts';

const root = dirname(fileURLToPath(import.meta.url));
const ISLAND_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Entries every page loads; an island folder may not take their names. */
const PAGE_ENTRIES = ['loader', 'date-input'];

/** `src/islands/<name>/index.tsx` → `{ <name>: absolute path }`. */
export function islandEntries(dir = resolve(root, 'src/islands')): Record<string, string> {
  const entries: Record<string, string> = {};
  if (!existsSync(dir)) return entries;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const file = resolve(dir, d.name, 'index.tsx');
    if (!existsSync(file)) continue;
    if (!ISLAND_NAME.test(d.name) || PAGE_ENTRIES.includes(d.name)) {
      throw new Error(`island folder name "${d.name}" must be kebab-case and not ${PAGE_ENTRIES.join(' or ')}`);
    }
    entries[d.name] = file;
  }
  return entries;
}

export default defineConfig({
  root,
  base: '/static/islands/',
  publicDir: false,
  plugins: [react()],
  // `module` before `main`: Vitest would take a package without `exports` (react-remove-scroll
  // and its kin) by `main`, CommonJS whose `require('react')` no alias reaches.
  resolve: { alias: PREACT_ALIASES, mainFields: ['browser', 'module', 'main'] },
  build: {
    outDir: resolve(root, '../static/islands'),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // No HTML entry, so no preload helper polyfill is wanted.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        loader: resolve(root, 'src/loader.ts'),
        'date-input': resolve(root, 'src/date-input.ts'),
        ...islandEntries(),
      },
      // Keep the entries' exports: the loader calls each island module's `mount`.
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['tests/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // Radix and the packages it builds on import React too: run them through the aliases.
    server: { deps: { inline: REACT_LIBRARIES } },
  },
});
