import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  if (typeof document === 'undefined') return; // node-environment tests (SSR)
  cleanup();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});
