// @vitest-environment node
// The line editor renders without browser globals (DESIGN §6: SSR-ready).
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { line, props } from './fixtures/line-editor';

describe('line editor SSR', () => {
  it('runs without window/document', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('imports the entry and renders the table, the hidden input and the totals to a string', async () => {
    const entry = await import('../src/islands/line-editor/index');
    expect(typeof entry.mount).toBe('function');
    const html = renderToString(
      <entry.LineEditor
        {...props({ lines: [line({ qty: '2', price: '1000' })], errors: { 'lines.0.qty': 'Server message' } })}
      />,
    );
    expect(html).toContain('class="data-table"');
    // Until the island runs the plain rows' own fields are submitted, not the JSON.
    expect(html).not.toContain('name="lines_json"');
    expect(html).toContain('name="lines.0.code"');
    expect(html).toContain('aria-label="Item Code line 1"');
    expect(html).toContain('value="2055516-MICH"');
    expect(html).toContain('Server message');
    expect(html).toContain('2,000.00');
    expect(html).toContain('Total Tax (GST 10%)');
    expect(html).toContain('CHK');
  });

  it('renders an empty new sheet and a read-only sheet', async () => {
    const { LineEditor } = await import('../src/islands/line-editor/LineEditor');
    const empty = renderToString(<LineEditor {...props()} />);
    expect(empty).toContain('&quot;key&quot;:&quot;new_1&quot;');
    const readOnly = renderToString(<LineEditor {...props({ editable: false, kind: 'transfer', orderType: 6, lines: [line()] })} />);
    expect(readOnly).not.toContain('<button');
    expect(readOnly).not.toContain('type="text"');
    expect(readOnly).toContain('2055516-MICH');
  });
});
