// The server-rendering build of the islands (DESIGN §6, second step): one script,
// src/server.tsx, run by the embedded JavaScript engine (QuickJS, app/src/ssr) inside the
// Rust server. Written to ../static/islands/ssr/server.js after the browser build (which
// empties ../static/islands first), embedded in the binary and never served.
//
// QuickJS has no Node or browser APIs, so the bundle must carry everything: React is
// bundled (`noExternal`), `process.env.NODE_ENV` is replaced, and react-dom/server is
// React's legacy browser build, which renders synchronously without streams,
// TextEncoder or MessageChannel.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = dirname(fileURLToPath(import.meta.url));
const LEGACY_SERVER = 'react-dom/cjs/react-dom-server-legacy.browser.production.js';

/**
 * React's `renderToString` builds its answer with `result += chunk`. V8 makes that linear;
 * QuickJS copies the string each time, so a 200-line editor took 1.9 s instead of 0.2 s.
 * This collects the chunks in an array and joins once. The build fails if React's code
 * changed so that the patch no longer applies.
 */
export function linearRenderToString(): Plugin {
  const edits: [string, string][] = [
    ['result = "",', 'result = [],'],
    ['null !== chunk && (result += chunk);', 'null !== chunk && result.push(chunk);'],
    ['throw Error(formatProdErrorMessage(426));\n  return result;', 'throw Error(formatProdErrorMessage(426));\n  return result.join("");'],
  ];
  return {
    name: 'tyredesk-linear-render-to-string',
    transform(code, id) {
      if (!id.endsWith(LEGACY_SERVER)) return null;
      let out = code;
      for (const [from, to] of edits) {
        if (!out.includes(from)) throw new Error(`${LEGACY_SERVER}: cannot find \`${from}\`; review the QuickJS patch`);
        out = out.replace(from, to);
      }
      return out;
    },
  };
}

export default defineConfig({
  root,
  publicDir: false,
  plugins: [react(), linearRenderToString()],
  define: { 'process.env.NODE_ENV': '"production"' },
  resolve: { alias: { 'react-dom/server': resolve(root, 'node_modules', LEGACY_SERVER) } },
  ssr: { noExternal: true, target: 'webworker' },
  build: {
    ssr: resolve(root, 'src/server.tsx'),
    outDir: resolve(root, '../static/islands/ssr'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    rolldownOptions: {
      output: { format: 'iife', name: 'TyreDeskSsr', entryFileNames: 'server.js' },
    },
  },
});
