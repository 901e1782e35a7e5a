// @vitest-environment node
// The quoting cart renders on the server without browser globals (DESIGN §6).
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('quoting-cart SSR', () => {
  it('runs without window/document/localStorage', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    expect(typeof localStorage).toBe('undefined');
  });

  it('renders the empty cart from props: badge 0 and a disabled Check out', async () => {
    const entry = await import('../src/islands/quoting-cart/index');
    expect(typeof entry.mount).toBe('function');
    const html = renderToString(
      <entry.QuotingCart {...entry.parseQuotingCartProps({ storageKey: 'carts', checkoutPath: '/order_add/invoices' })} />,
    );
    expect(html).toContain('Cart');
    // Attributes in any order, `disabled` with or without a value: the markup, not one renderer's spelling.
    expect(html).toMatch(/<span[^>]*\bclass="badge"[^>]*>0<\/span>/);
    const checkOut = /<button([^>]*)>Check out (?:&gt;|>)<\/button>/.exec(html)?.[1] ?? '';
    expect(checkOut).toContain('class="btn primary"');
    expect(checkOut).toMatch(/\sdisabled(=""|\s|$)/);
    // The popover and the confirm dialog only exist on the client.
    expect(html).not.toContain('Item Code');
    expect(html).not.toContain('EMPTY Quoting Cart');
  });
});
