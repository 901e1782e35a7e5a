// The islands are written against React's API and run on Preact (preact/compat) in the
// browser, on the server (QuickJS) and in the tests alike: the browser's runtime is about
// 11 KB compressed instead of React's 60, which at 400 kbit/s is a second before the editor
// is live (issue 37, docs/decisions/islands.md). One runtime everywhere keeps the server's
// first render what the browser hydrates, `useId`'s ids included.
import type { Alias } from 'vite';

/** Exact module names only: `react` must not catch `react-dom` or `@radix-ui/react-*`. */
export const PREACT_ALIASES: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact-render-to-string' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
];

/**
 * The packages in node_modules that import React (Radix and what it builds on). Vitest
 * loads node_modules as they are, so it must transform these for the aliases to reach them;
 * the builds bundle everything and need no list.
 */
export const REACT_LIBRARIES: RegExp[] = [
  /@radix-ui\//, /@floating-ui\/react-dom/, /react-remove-scroll/, /react-style-singleton/, /use-callback-ref/, /use-sidecar/,
];
