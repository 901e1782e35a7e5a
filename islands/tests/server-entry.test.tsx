// @vitest-environment node
// The server-rendering entry (src/server.tsx) that the Rust server runs in QuickJS.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { island as lineEditor } from '../src/islands/line-editor/index';
import { names, render } from '../src/server';

describe('server entry', () => {
  it('knows every island folder', () => {
    expect(names()).toEqual(['change-password', 'line-editor', 'ocop-editor', 'price-dialog', 'quoting-cart', 'report-form']);
  });

  it("renders an island from its props JSON exactly as the browser's first render", () => {
    const props = { kind: 'sales', orderType: 1, lines: [{ key: 'a', code: 'T-205', name: 'Tyre', qty: '2', price: '150.00' }] };
    const html = render('line-editor', JSON.stringify(props));
    expect(html).toBe(renderToString(createElement(lineEditor.Component, lineEditor.parse(props))));
    expect(html).toContain('value="T-205"');
  });

  it('treats blank props as {} and throws for an unknown island or bad JSON', () => {
    expect(render('quoting-cart', '')).toContain('Cart');
    expect(() => render('no-such-island', '{}')).toThrow(/no island named "no-such-island"/);
    expect(() => render('quoting-cart', '{oops')).toThrow();
  });
});
