import '../src/loader';
import { act, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseProps } from '../src/loader';
import { calls } from './fixtures/fake-island';

// Root-relative paths resolve against islands/ in Vitest, like /static/islands/... in the browser.
const FAKE = '/tests/fixtures/fake-island.ts';
const REAL = '/src/islands/change-password/index.tsx';

function island(attrs: Record<string, string>, fallback = 'server fallback'): HTMLElement {
  const el = document.createElement('app-island');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.innerHTML = `<span class="fallback">${fallback}</span>`;
  return el;
}

beforeEach(() => {
  calls.mounts.length = 0;
  calls.unmounts = 0;
});

describe('app-island loader', () => {
  it('defines the custom element once (a second load does not throw)', async () => {
    const ctor = customElements.get('app-island');
    expect(ctor).toBeDefined();
    // A second copy of the loader module (the query makes it a new module instance).
    const again = '/src/loader.ts?second-copy';
    await expect(import(/* @vite-ignore */ again)).resolves.toBeDefined();
    expect(customElements.get('app-island')).toBe(ctor);
  });

  it('parses props: missing or blank is {}, JSON otherwise', () => {
    expect(parseProps(null)).toEqual({});
    expect(parseProps('  ')).toEqual({});
    expect(parseProps('{"userName":"Ann","n":[1,2]}')).toEqual({ userName: 'Ann', n: [1, 2] });
    expect(() => parseProps('{oops')).toThrow();
  });

  it('imports src, mounts with the parsed props, and unmounts on removal', async () => {
    const el = island({ name: 'fake', src: FAKE, props: '{"userName":"Ann","id":7}' });
    document.body.append(el);
    expect(el.textContent).toBe('server fallback');

    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(calls.mounts[0]!.el).toBe(el);
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann', id: 7 });
    expect(el.textContent).toBe('mounted {"userName":"Ann","id":7}');

    el.remove();
    expect(calls.unmounts).toBe(1);
    expect(el.textContent).toBe('');
  });

  it('connected while the page is still being read, mounts only once it has been read', async () => {
    const reading = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const el = island({ name: 'fake', src: FAKE, props: '{"n":1}' });
    document.body.append(el);
    // The island's module has arrived (another island, connected after the page was read, mounts).
    reading.mockReturnValue('interactive');
    document.body.append(island({ name: 'fake', src: FAKE, props: '{"n":2}' }));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.mounts.map((m) => m.props)).toEqual([{ n: 2 }]);
    expect(el.textContent).toBe('server fallback');

    document.dispatchEvent(new Event('readystatechange'));
    await waitFor(() => expect(calls.mounts).toHaveLength(2));
    expect(calls.mounts[1]!.el).toBe(el);
  });

  it('passes {} when the props attribute is missing', async () => {
    document.body.append(island({ name: 'fake', src: FAKE }));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(calls.mounts[0]!.props).toEqual({});
  });

  it('does not mount when removed before the import resolves', async () => {
    const el = island({ name: 'fake', src: FAKE, props: '{}' });
    document.body.append(el);
    el.remove();
    // A second, still-connected island proves the module has loaded by now.
    const other = island({ name: 'fake', src: FAKE, props: '{"n":2}' });
    document.body.append(other);
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.mounts).toHaveLength(1);
    expect(calls.mounts[0]!.el).toBe(other);
    expect(el.textContent).toBe('server fallback');
    expect(calls.unmounts).toBe(0);
  });

  it('remounts when moved (disconnect + connect), as an htmx swap may do', async () => {
    const el = island({ name: 'fake', src: FAKE, props: '{"a":1}' });
    document.body.append(el);
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    const box = document.createElement('div');
    document.body.append(box);
    box.append(el);
    expect(calls.unmounts).toBe(1);
    await waitFor(() => expect(calls.mounts).toHaveLength(2));
    expect(el.textContent).toBe('mounted {"a":1}');
  });

  it('keeps the fallback on invalid props JSON or a module without mount()', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bad = island({ name: 'fake', src: FAKE, props: '{not json' });
    const noMount = island({ name: 'x', src: '/tests/fixtures/not-an-island.ts' });
    document.body.append(bad, noMount);
    await waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    expect(calls.mounts).toHaveLength(0);
    expect(bad.textContent).toBe('server fallback');
    expect(noMount.textContent).toBe('server fallback');
  });

  it('mounts the real change-password island over its fallback and unmounts it', async () => {
    const el = island({ name: 'change-password', src: REAL, props: '{"userName":"Ann"}' });
    await act(async () => {
      document.body.append(el);
    });
    await waitFor(() => expect(el.querySelector('button.btn.link')).not.toBeNull());
    expect(el.querySelector('.fallback')).toBeNull();
    expect(el.textContent).toBe('Change Password');
    await act(async () => {
      el.remove();
    });
    expect(el.childNodes).toHaveLength(0);
  });
});
