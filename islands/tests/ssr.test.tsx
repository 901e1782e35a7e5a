// @vitest-environment node
// Islands must render without browser globals (DESIGN §6: SSR-ready from day one).
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('SSR safety', () => {
  it('runs in an environment without window/document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('imports the change-password entry and api module and renders to a string', async () => {
    const entry = await import('../src/islands/change-password/index');
    await import('../src/lib/api');
    expect(typeof entry.mount).toBe('function');
    const html = renderToString(<entry.ChangePassword userName="Ann" />);
    expect(html).toContain('class="btn link"');
    expect(html).toContain('Change Password');
  });

  it('renders defaultOpen closed, as the server sent it, so hydration matches (it opens in an effect)', async () => {
    const { ChangePassword } = await import('../src/islands/change-password/ChangePassword');
    const html = renderToString(<ChangePassword userName="Ann" defaultOpen />);
    expect(html).toContain('class="btn link"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toBe(renderToString(<ChangePassword userName="Ann" />));
  });
});
