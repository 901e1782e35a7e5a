// @vitest-environment node
// The OCOP editor renders on the server without browser globals (DESIGN §6).
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('ocop-editor SSR', () => {
  it('imports without window/document and renders nothing until opened', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const entry = await import('../src/islands/ocop-editor/index');
    expect(typeof entry.mount).toBe('function');
    expect(renderToString(<entry.OcopEditor />)).toBe('');
  });
});
