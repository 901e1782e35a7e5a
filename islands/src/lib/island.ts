import type { ComponentType } from 'react';

/**
 * What an island is, for both sides: its component and the parser that turns the untyped
 * `props` JSON into the component's props (defaults for missing fields). The browser
 * mounts it (lib/mount.tsx); the server renders it (src/server.tsx). Both use the same
 * parser, so the server's HTML is the first render the browser hydrates.
 */
export interface IslandDef<P extends object> {
  Component: ComponentType<P>;
  parse: (raw: unknown) => P;
}

/**
 * Props as they arrive, read through the generated wire type `T`
 * (src/generated/island-props.ts, from the Rust structs): every field may be missing or of
 * the wrong type, but only the fields the server sends can be named, so a field renamed on
 * one side fails the typecheck.
 */
export type Wire<T> = { [K in keyof T]?: unknown };

/** `raw` as a `Wire<T>` when it is a JSON object, else an empty one. */
export function wire<T>(raw: unknown): Wire<T> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Wire<T>) : {};
}

export function defineIsland<P extends object>(Component: ComponentType<P>, parse: (raw: unknown) => P): IslandDef<P> {
  return { Component, parse };
}
