import type { ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

/** The export every island module provides; see src/loader.ts. */
export type MountFn = (el: HTMLElement, props: unknown) => () => void;

/**
 * Builds an island's `mount`: props arrive as untyped JSON, so each island passes a
 * `parse` that turns them into its component's props (defaults for missing fields).
 * The React root replaces the element's server fallback before `mount` returns (the first
 * render is flushed synchronously, so the loader can hand focus from the fallback to the
 * island); the returned function unmounts.
 */
export function createMount<P extends object>(
  Component: ComponentType<P>,
  parse: (raw: unknown) => P,
): MountFn {
  return (el, rawProps) => {
    const props = parse(rawProps);
    const root = createRoot(el);
    flushSync(() => root.render(<Component {...props} />));
    return () => root.unmount();
  };
}

/** Reads a string field from untyped props JSON, with a default. */
export function stringProp(raw: unknown, key: string, fallback = ''): string {
  if (typeof raw === 'object' && raw !== null) {
    const value = (raw as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  return fallback;
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
