import '../src/loader';
// The loader listens with plain DOM events: Testing Library's own fireEvent, not the Preact
// wrapper's (which renames events for preact/compat and cannot send focusin).
import { fireEvent } from '@testing-library/dom';
import { act, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withActivate } from '../src/loader';
import { calls } from './fixtures/fake-island';

const REAL = '/src/islands/change-password/index.tsx';
const FALLBACK = '<button class="btn link" type="button">Change Password</button>';

let seq = 0;
/** A URL of the lazy fixture that no test has imported yet (a fresh module instance). */
function freshSrc(): string {
  return `/tests/fixtures/lazy-island.ts?t=${++seq}`;
}

/** How many fresh lazy-fixture URLs have been imported (evaluated) so far. */
function importCount(): number {
  return (globalThis as { __lazyIslandImports?: number }).__lazyIslandImports ?? 0;
}

function lazyIsland(src: string, props = '{"userName":"Ann"}'): HTMLElement {
  const el = document.createElement('app-island');
  el.setAttribute('name', 'change-password');
  el.setAttribute('src', src);
  el.setAttribute('load', 'interaction');
  el.setAttribute('props', props);
  el.innerHTML = FALLBACK;
  document.body.append(el);
  return el;
}

const fallbackButton = (el: HTMLElement) => el.querySelector('button') as HTMLButtonElement;
const settle = () => new Promise((r) => setTimeout(r, 50));

beforeEach(() => {
  calls.mounts.length = 0;
  calls.unmounts = 0;
});
// Unmount the islands (and any open dialog portal) before tests/setup.ts empties the body.
afterEach(async () => {
  await act(async () => {
    for (const el of document.querySelectorAll('app-island')) el.remove();
  });
});

describe('app-island load="interaction"', () => {
  it('does not import its bundle on connect, nor on events outside it or other keys', async () => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    // A control of the same island type loaded eagerly elsewhere proves imports do run.
    const eager = document.createElement('app-island');
    eager.setAttribute('src', freshSrc());
    document.body.append(eager);
    await waitFor(() => expect(calls.mounts).toHaveLength(1));

    fireEvent.click(document.body);
    fireEvent.focusIn(document.body);
    fireEvent.keyDown(fallbackButton(el), { key: 'a' });
    await settle();

    expect(importCount()).toBe(before + 1); // the eager one only
    expect(calls.mounts.map((m) => m.el)).toEqual([eager]);
    expect(el.innerHTML).toBe(FALLBACK);
    expect(fallbackButton(el).disabled).toBe(false);
  });

  it('imports and mounts on focus, without activating', async () => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    await settle();
    expect(importCount()).toBe(before);
    fallbackButton(el).focus();
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(importCount()).toBe(before + 1);
    expect(calls.mounts[0]!.el).toBe(el);
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann' });
  });

  it.each([
    ['pointerenter', (el: HTMLElement) => fireEvent.pointerEnter(el)],
    ['touchstart', (el: HTMLElement) => fireEvent.touchStart(fallbackButton(el))],
  ])('imports and mounts on %s, without activating', async (_name, fire) => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    fire(el);
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(importCount()).toBe(before + 1);
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann' });
  });

  it.each([
    ['a click', (b: HTMLElement) => fireEvent.click(b)],
    ['Enter', (b: HTMLElement) => fireEvent.keyDown(b, { key: 'Enter' })],
    ['Space', (b: HTMLElement) => fireEvent.keyDown(b, { key: ' ' })],
  ])('%s on the fallback mounts with __activate: true', async (_name, fire) => {
    const el = lazyIsland(freshSrc(), '{"userName":"Ann","id":3}');
    fire(fallbackButton(el));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann', id: 3, __activate: true });
  });

  it('a click while the import (started by pointerenter) is pending still activates', async () => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    fireEvent.pointerEnter(el);
    fireEvent.focusIn(fallbackButton(el));
    fireEvent.click(fallbackButton(el));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    await settle();
    expect(importCount()).toBe(before + 1);
    expect(calls.mounts).toHaveLength(1); // one import, one mount
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann', __activate: true });
  });

  it('stops listening when removed before interacting, and waits again when re-added', async () => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    el.remove();
    fireEvent.click(fallbackButton(el));
    await settle();
    expect(importCount()).toBe(before);

    document.body.append(el);
    await settle();
    expect(importCount()).toBe(before);
    fireEvent.focusIn(fallbackButton(el));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann' });
  });

  it('once mounted, remounts on a move without waiting (its fallback is gone)', async () => {
    const el = lazyIsland(freshSrc());
    fireEvent.pointerEnter(el);
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    const box = document.createElement('div');
    document.body.append(box);
    box.append(el);
    expect(calls.unmounts).toBe(1);
    await waitFor(() => expect(calls.mounts).toHaveLength(2));
    expect(calls.mounts[1]!.props).toEqual({ userName: 'Ann' });
  });

  it('withActivate adds __activate to object props only', () => {
    expect(withActivate({ a: 1 })).toEqual({ a: 1, __activate: true });
    expect(withActivate([1])).toEqual({ __activate: true });
    expect(withActivate(null)).toEqual({ __activate: true });
  });
});

describe('lazy change-password island', () => {
  it('a click on the fallback mounts it with the dialog open', async () => {
    const el = lazyIsland(REAL);
    expect(screen.queryByText('Change Password', { selector: 'h2' })).toBeNull();

    await act(async () => {
      fireEvent.pointerEnter(el);
      fireEvent.click(fallbackButton(el));
    });

    const title = await screen.findByText('Change Password', { selector: 'h2' });
    const dialog = screen.getByRole('dialog', { name: 'Change Password' });
    expect(dialog.contains(title)).toBe(true);
    expect(dialog.textContent).toContain('New password for Ann.');
    expect(within(dialog).getByLabelText('Password')).toBeTruthy();
    // The real trigger replaced the fallback, exactly once.
    expect(el.querySelectorAll('button')).toHaveLength(1);
    expect(el.querySelector('button')?.getAttribute('aria-expanded')).toBe('true');

    // Closing returns focus to the island's trigger.
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(el.querySelector('button'));
  });

  it('focus mounts it closed and keeps focus on its trigger', async () => {
    const el = lazyIsland(REAL);
    await act(async () => {
      fallbackButton(el).focus();
    });
    await waitFor(() => expect(el.querySelector('button[aria-haspopup="dialog"]')).not.toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    const trigger = el.querySelector('button')!;
    expect(trigger.className).toBe('btn link');
    expect(document.activeElement).toBe(trigger);

    // Keyboard use continues on the real trigger.
    const user = userEvent.setup();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Change Password' })).toBeTruthy();
  });

  it('without load, still mounts on connect', async () => {
    const errors = vi.spyOn(console, 'error');
    const el = document.createElement('app-island');
    el.setAttribute('src', REAL);
    el.innerHTML = FALLBACK;
    await act(async () => {
      document.body.append(el);
    });
    await waitFor(() => expect(el.querySelector('button[aria-haspopup="dialog"]')).not.toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('app-island wake and load="idle"', () => {
  it('a lazy island loads on the first of its wake events on document, and not before', async () => {
    const before = importCount();
    const el = lazyIsland(freshSrc());
    el.setAttribute('wake', 'open-price-dialog  cart-add');
    // The attribute is read on connect: reconnect so it counts.
    el.remove();
    document.body.append(el);
    document.dispatchEvent(new CustomEvent('something-else'));
    await settle();
    expect(importCount()).toBe(before);
    document.dispatchEvent(new CustomEvent('cart-add', { detail: { id: 1 } }));
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(calls.mounts[0]!.el).toBe(el);
    expect(calls.mounts[0]!.props).toEqual({ userName: 'Ann' });
  });

  it('an idle island loads by itself once the page has loaded, without activating', async () => {
    const before = importCount();
    const el = document.createElement('app-island');
    el.setAttribute('name', 'quoting-cart');
    el.setAttribute('src', freshSrc());
    el.setAttribute('load', 'idle');
    el.innerHTML = FALLBACK;
    document.body.append(el);
    expect(document.readyState).toBe('complete');
    await waitFor(() => expect(calls.mounts).toHaveLength(1));
    expect(importCount()).toBe(before + 1);
    expect(calls.mounts[0]!.props).toEqual({});
  });

  it('an idle island removed before the browser is idle never loads', async () => {
    const before = importCount();
    const el = document.createElement('app-island');
    el.setAttribute('src', freshSrc());
    el.setAttribute('load', 'idle');
    document.body.append(el);
    el.remove();
    await settle();
    expect(importCount()).toBe(before);
    expect(calls.mounts).toHaveLength(0);
  });
});
