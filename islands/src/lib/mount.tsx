import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { wire, type IslandDef } from './island';

/** The export every island module provides; see src/loader.ts. */
export type MountFn = (el: HTMLElement, props: unknown) => () => void;

/**
 * The attribute the server puts on an <app-island> whose content is the island's own first
 * render (app/crates/web/src/ssr): the browser hydrates it instead of replacing it.
 */
export const SSR_ATTR = 'ssr';

/**
 * Builds an island's `mount` from its definition (lib/island.ts). Props arrive as untyped
 * JSON and go through the island's `parse`, as on the server.
 *
 * - Server-rendered (`ssr` attribute): `hydrateRoot` adopts the HTML in place: no second
 *   render, no flash, focus stays where it is. The islands run on preact/compat, which
 *   reports no mismatch (`onRecoverableError` is React's and stays for it); the markup
 *   snapshots and the first-rows test hold the two renders together. The attribute is
 *   removed, so a later remount (the element moved) renders afresh.
 * - Otherwise the React root replaces the element's plain fallback before `mount` returns
 *   (the first render is flushed synchronously, so the loader can hand focus from the
 *   fallback to the island).
 *
 * The returned function unmounts.
 */
export function createMount<P extends object>({ Component, parse }: IslandDef<P>): MountFn {
  return (el, rawProps) => {
    const props = parse(rawProps);
    if (el.hasAttribute(SSR_ATTR)) {
      el.removeAttribute(SSR_ATTR);
      const name = el.getAttribute('name') ?? '(unnamed)';
      const root = hydrateRoot(el, <Component {...props} />, {
        onRecoverableError: (error) => console.error(`[app-island] "${name}" did not hydrate cleanly`, error),
      });
      return () => root.unmount();
    }
    const root = createRoot(el);
    flushSync(() => root.render(<Component {...props} />));
    return () => root.unmount();
  };
}

/** Reads a string field from untyped props JSON, with a default. */
export function stringProp<T>(raw: unknown, key: keyof T & string, fallback = ''): string {
  const value = wire<T>(raw)[key];
  return typeof value === 'string' ? value : fallback;
}

/**
 * True when the loader mounted a lazy island because the user activated its fallback
 * (`__activate: true`, see src/loader.ts): the island should act as if its own control had
 * been used. Only a literal `true` counts.
 */
export function activateProp(raw: unknown): boolean {
  return (
    typeof raw === 'object' &&
    raw !== null &&
    (raw as Record<string, unknown>)['__activate'] === true
  );
}
