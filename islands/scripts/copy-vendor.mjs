// Copies htmx from node_modules into ../static/vendor so the server can serve it.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const from = resolve(here, '../node_modules/htmx.org/dist/htmx.min.js');
const to = resolve(here, '../../static/vendor/htmx.min.js');

mkdirSync(dirname(to), { recursive: true });
copyFileSync(from, to);
console.log(`copied htmx.min.js (${statSync(to).size} bytes) -> ${to}`);
