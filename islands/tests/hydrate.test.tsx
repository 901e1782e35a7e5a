// Server-rendered islands are hydrated in place (lib/mount.tsx): the nodes the server sent
// stay, nothing is reported as a mismatch, and the island works afterwards.
import { act, screen } from '@testing-library/preact';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { island as changePassword, mount as mountChangePassword } from '../src/islands/change-password/index';
import { island as lineEditor, mount as mountLineEditor } from '../src/islands/line-editor/index';
import { island as cart, mount as mountCart } from '../src/islands/quoting-cart/index';
import type { IslandDef } from '../src/lib/island';
import type { MountFn } from '../src/lib/mount';

/** An <app-island> as the server sends it: the island's own first render, marked `ssr`. */
function serverRendered<P extends object>(def: IslandDef<P>, props: unknown): HTMLElement {
  const el = document.createElement('app-island-test');
  el.setAttribute('ssr', '');
  el.innerHTML = renderToString(<def.Component {...def.parse(props)} />);
  document.body.append(el);
  return el;
}

async function hydrate(mount: MountFn, el: HTMLElement, props: unknown) {
  const errors = vi.spyOn(console, 'error');
  let unmount = () => {};
  await act(async () => {
    unmount = mount(el, props);
  });
  return { errors, unmount };
}

const LINES = {
  kind: 'sales',
  orderType: 1,
  lines: [
    { key: 'a', productId: 3, code: 'T-205', name: 'Tyre 205/55R16', qty: '2', price: '150.00', description: 'Tyre 205/55R16', taxType: 3 },
    { key: 'b', productId: 4, code: 'B-55', name: 'Battery 55D23L', qty: '1', price: '99.50', description: '', taxType: 3 },
  ],
};

describe('hydration of server-rendered islands', () => {
  it('keeps the line editor the server sent, without a mismatch, and it stays editable', async () => {
    const el = serverRendered(lineEditor, LINES);
    const qty = el.querySelector<HTMLInputElement>('input[aria-label="Qty line 1"]');
    expect(qty?.value).toBe('2');
    const addLine = screen.getByRole('button', { name: '+ Add Line' });
    const { errors, unmount } = await hydrate(mountLineEditor, el, LINES);
    expect(errors).not.toHaveBeenCalled();
    expect(el.hasAttribute('ssr')).toBe(false);
    // The very nodes the server sent are now React's; only the rows, plain HTML until the
    // island runs (static-rows.ts), were swapped for live ones with the same values.
    expect(screen.getByRole('button', { name: '+ Add Line' })).toBe(addLine);
    expect(el.querySelector('input[aria-label="Qty line 1"]')).not.toBe(qty);
    expect(el.querySelector<HTMLInputElement>('input[aria-label="Qty line 1"]')?.value).toBe('2');
    expect(el.querySelector<HTMLInputElement>('input[aria-label="Item Code line 2"]')?.value).toBe('B-55');
    await act(async () => unmount());
    el.remove();
  });

  it('hydrates the cart badge, then restores the saved cart', async () => {
    localStorage.setItem('carts', JSON.stringify({ items: [{ id: 3, code: 'T-205', name: 'Tyre', qty: 4 }] }));
    const el = serverRendered(cart, {});
    const { errors, unmount } = await hydrate(mountCart, el, {});
    expect(errors).not.toHaveBeenCalled();
    expect(el.textContent).toContain('4');
    await act(async () => unmount());
    el.remove();
    localStorage.clear();
  });

  it('hydrates Change Password closed and opens it when the fallback was clicked', async () => {
    const el = serverRendered(changePassword, { userName: 'Ann' });
    const button = el.querySelector('button');
    const { errors, unmount } = await hydrate(mountChangePassword, el, { userName: 'Ann', __activate: true });
    expect(errors).not.toHaveBeenCalled();
    expect(el.querySelector('button')).toBe(button);
    expect(await screen.findByRole('dialog', { name: 'Change Password' })).toBeTruthy();
    await act(async () => unmount());
    el.remove();
  });

  it('a remount after the element moved renders afresh instead of hydrating nothing', async () => {
    const el = serverRendered(changePassword, { userName: 'Ann' });
    const first = await hydrate(mountChangePassword, el, { userName: 'Ann' });
    await act(async () => first.unmount());
    expect(el.childElementCount).toBe(0);
    const second = await hydrate(mountChangePassword, el, { userName: 'Ann' });
    expect(second.errors).not.toHaveBeenCalled();
    expect(el.querySelector('button')?.textContent).toBe('Change Password');
    await act(async () => second.unmount());
    el.remove();
  });
});
