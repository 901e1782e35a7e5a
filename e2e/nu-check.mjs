// The W3C Nu HTML checker (vnu-jar) over every page the browser tests loaded, in ONE run of
// Java: the harness keeps each page shape's HTML in test-results/html/ (or $TYREDESK_HTML_DIR).
// Prints each error with its page, line and message; exits 1 on any error, or when no page
// was recorded (the recording itself broke).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTML_DIR } from './tests/harness.mjs';

const vnuJar = String(createRequire(import.meta.url)('vnu-jar'));
const files = existsSync(HTML_DIR) ? readdirSync(HTML_DIR).filter((f) => f.endsWith('.html')).sort() : [];
if (files.length === 0) {
  console.error(`nu-check: no pages recorded in ${HTML_DIR}; run the browser tests first`);
  process.exit(1);
}

const run = spawnSync(process.env.JAVA || 'java', ['-jar', vnuJar, '--errors-only', '--format', 'json', '--stdout', ...files.map((f) => join(HTML_DIR, f))], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (run.error) {
  console.error(`nu-check: cannot run java: ${run.error.message}`);
  process.exit(1);
}
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`nu-check: the checker did not answer in JSON (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}

const page = (url) => {
  const html = fileURLToPath(url);
  const sidecar = html.replace(/\.html$/, '.url');
  return existsSync(sidecar) ? readFileSync(sidecar, 'utf8').trim() : html;
};
const errors = report.messages.filter((m) => m.type === 'error' || m.type === 'non-document-error');
for (const m of errors) {
  const where = m.url ? `${page(m.url)}, line ${m.lastLine ?? m.firstLine ?? '?'}` : '(checker)';
  console.log(`${where}: ${m.message}${m.extract ? `\n    ${m.extract.replace(/\s+/g, ' ').trim()}` : ''}`);
}
console.log(`nu-check: ${files.length} pages, ${errors.length} errors`);
process.exit(errors.length ? 1 : 0);
