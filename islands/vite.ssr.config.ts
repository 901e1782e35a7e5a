// The server-rendering build of the islands (DESIGN §6, second step): one script,
// src/server.tsx, run by the embedded JavaScript engine (QuickJS, app/crates/web/src/ssr) inside the
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

/** React's HTML escaping, as it is written (one `+=` per escaped character). */
const ESCAPE_LOOP = `  var match = matchHtmlRegExp.exec(text);
  if (match) {
    var html = "",
      index,
      lastIndex = 0;
    for (index = match.index; index < text.length; index++) {
      switch (text.charCodeAt(index)) {
        case 34:
          match = "&quot;";
          break;
        case 38:
          match = "&amp;";
          break;
        case 39:
          match = "&#x27;";
          break;
        case 60:
          match = "&lt;";
          break;
        case 62:
          match = "&gt;";
          break;
        default:
          continue;
      }
      lastIndex !== index && (html += text.slice(lastIndex, index));
      lastIndex = index + 1;
      html += match;
    }
    text = lastIndex !== index ? html + text.slice(lastIndex, index) : html;
  }`;

/**
 * The same escaping by native splits and joins: QuickJS's regular-expression `replace`
 * costs about a microsecond a match, and 200 lines of JSON have thousands of quotes.
 */
const ESCAPE_SPLIT = `  if (matchHtmlRegExp.test(text))
    text = text.split("&").join("&amp;").split('"').join("&quot;").split("'").join("&#x27;").split("<").join("&lt;").split(">").join("&gt;");`;

/**
 * Two places where React's server renderer grows a string with `+=`. V8 makes that
 * linear; QuickJS copies the string each time:
 * - `renderToString` built its answer with `result += chunk`: a 200-line editor took 1.9 s
 *   instead of 0.2 s. The chunks are collected in an array and joined once.
 * - `escapeTextForBrowser` added each escaped character to the text so far: the line
 *   editor's hidden JSON (200 lines, thousands of quotes) spent half the render copying
 *   strings. It becomes native splits and joins, with the same output.
 * The build fails if React's code changed so that a patch no longer applies.
 */
export function linearRenderToString(): Plugin {
  const edits: [string, string][] = [
    ['result = "",', 'result = [],'],
    ['null !== chunk && (result += chunk);', 'null !== chunk && result.push(chunk);'],
    ['throw Error(formatProdErrorMessage(426));\n  return result;', 'throw Error(formatProdErrorMessage(426));\n  return result.join("");'],
    [ESCAPE_LOOP, ESCAPE_SPLIT],
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
