// The server-rendering build of the islands (DESIGN §6, second step): one script,
// src/server.tsx, run by the embedded JavaScript engine (QuickJS, app/crates/web/src/ssr) inside the
// Rust server. Written to ../static/islands/ssr/server.js after the browser build (which
// empties ../static/islands first), embedded in the binary and never served.
//
// QuickJS has no Node or browser APIs, so the bundle must carry everything: Preact and
// preact-render-to-string are bundled (`noExternal`), `process.env.NODE_ENV` is replaced.
// The islands are written against React's API and run on preact/compat here as in the
// browser (preact-alias.ts), so `useId` and the markup agree with what the browser hydrates.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { PREACT_ALIASES } from './preact-alias.ts';

const root = dirname(fileURLToPath(import.meta.url));
/** preact-render-to-string's built files: the escaping below is patched in each. */
const RENDERER = /preact-render-to-string[\\/]dist[\\/]index\.(module\.js|mjs)$/;

/**
 * preact-render-to-string's `encodeEntities`, as it is built (minified): it grows the
 * escaped text with `+=` for each `"`, `&` and `<`. V8 makes that linear; QuickJS copies the
 * string each time, and the line editor's hidden JSON (200 lines, thousands of quotes) is
 * one attribute. `ESCAPE_LOOP` matches the loop whatever the minifier named its variables.
 */
const ESCAPE_LOOP =
  /for\(var (\w+)=0,(\w+)=0,(\w+)="",(\w+)="";\2<(\w+)\.length;\2\+\+\)\{switch\(\5\.charCodeAt\(\2\)\)\{case 34:\4="&quot;";break;case 38:\4="&amp;";break;case 60:\4="&lt;";break;default:continue\}\2!==\1&&\(\3\+=\5\.slice\(\1,\2\)\),\3\+=\4,\1=\2\+1\}return \2!==\1&&\(\3\+=\5\.slice\(\1,\2\)\),\3/;

/**
 * The same escaping by native splits and joins (`&` first), with the same output: a
 * regular-expression `replace` costs about a microsecond a match in QuickJS. The build fails
 * if the renderer's code changed so that the patch no longer applies.
 */
export function linearEscaping(): Plugin {
  let patched = 0;
  return {
    name: 'tyredesk-linear-escaping',
    buildStart() {
      patched = 0;
    },
    transform(code, id) {
      if (!RENDERER.test(id)) return null;
      const m = ESCAPE_LOOP.exec(code);
      if (!m) throw new Error(`${id}: cannot find encodeEntities' loop; review the QuickJS patch`);
      const text = m[5];
      patched += 1;
      return code.replace(ESCAPE_LOOP, `return ${text}.split("&").join("&amp;").split('"').join("&quot;").split("<").join("&lt;")`);
    },
    buildEnd(error) {
      if (!error && patched === 0) this.error('preact-render-to-string was not bundled through the escaping patch');
    },
  };
}

export default defineConfig({
  root,
  publicDir: false,
  plugins: [react(), linearEscaping()],
  define: { 'process.env.NODE_ENV': '"production"' },
  resolve: { alias: PREACT_ALIASES },
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
