import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';

afterEach(() => {
  if (typeof document === 'undefined') return; // node-environment tests (SSR)
  cleanup();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});
