// @vitest-environment node
// The standard price dialog renders on the server without browser globals (DESIGN §6).
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('price-dialog SSR', () => {
  it('imports without window/document and renders nothing until opened', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const entry = await import('../src/islands/price-dialog/index');
    expect(typeof entry.mount).toBe('function');
    const props = entry.parsePriceDialogProps({ canModify: true, uplifts: { b: 500, c: 1000, d: 1500, e: 2000 } });
    expect(renderToString(<entry.PriceDialog {...props} />)).toBe('');
  });
});
