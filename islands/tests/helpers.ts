import { act } from '@testing-library/preact';
import { afterEach, beforeEach, vi } from 'vitest';
import type { ToastDetail } from '../src/lib/api';

/**
 * The focus leaving `el`, as a browser reports it: `focusout`, which `onBlur` listens to
 * (in React and preact/compat alike). Testing Library's `fireEvent.blur` sends only the
 * `blur` event, which does not bubble and which neither runtime's `onBlur` hears.
 */
export function leave(el: Element): void {
  act(() => {
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
}

/** Adds <meta name=… content=…> to the head, as the server layout does. */
export function setMeta(name: string, content: string): void {
  const meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  document.head.append(meta);
}

/** Collects `td:toast` details dispatched on document until `stop()`. */
export function captureToasts(): { toasts: ToastDetail[]; stop: () => void } {
  const toasts: ToastDetail[] = [];
  const listener = (e: Event) => toasts.push((e as CustomEvent<ToastDetail>).detail);
  document.addEventListener('td:toast', listener);
  return { toasts, stop: () => document.removeEventListener('td:toast', listener) };
}

/** Replaces global fetch with a mock answering `body` (object → JSON) with `status`. */
export function mockFetch(status: number, body?: unknown) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const fn = vi.fn(async (_url: string, _init?: RequestInit) => new Response(text || null, { status }));
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The headers a mocked fetch was called with, as a plain object. */
export function sentHeaders(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init?.headers).entries());
}

/**
 * The page around a dialog island that opens on `openEvent` {productId} and announces a save
 * with `changedEvent`: for each test it sets the CSRF token and company, and collects the
 * toasts and the `changedEvent` details. `openFor(productId)` sends the open event.
 */
export function dialogPage(openEvent: string, changedEvent: string, meta: { csrf: string; org: string }) {
  const page = {
    toasts: [] as ToastDetail[],
    changed: [] as unknown[],
    openFor: (productId: unknown) =>
      act(async () => {
        document.dispatchEvent(new CustomEvent(openEvent, { detail: { productId } }));
      }),
  };
  const onChanged = (e: Event) => page.changed.push((e as CustomEvent).detail);
  let capture: ReturnType<typeof captureToasts>;
  beforeEach(() => {
    capture = captureToasts();
    page.toasts = capture.toasts;
    page.changed = [];
    document.addEventListener(changedEvent, onChanged);
    setMeta('csrf-token', meta.csrf);
    setMeta('org-id', meta.org);
  });
  afterEach(() => {
    capture.stop();
    document.removeEventListener(changedEvent, onChanged);
  });
  return page;
}
