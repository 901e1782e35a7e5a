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
    expect(html).toMatch(/<span class="badge"[^>]*>0<\/span>/);
    expect(html).toMatch(/<button[^>]*class="btn primary"[^>]*disabled=""[^>]*>Check out &gt;<\/button>/);
    // The popover and the confirm dialog only exist on the client.
    expect(html).not.toContain('Item Code');
    expect(html).not.toContain('EMPTY Quoting Cart');
  });
});
