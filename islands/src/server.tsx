/// <reference types="vite/client" />
/*
 * The server-rendering entry (DESIGN §6, second step; build: vite.ssr.config.ts). The Rust
 * server (app/crates/web/src/ssr) evaluates this bundle once per engine and then calls
 *
 *   TyreDeskSsr.render(name, propsJson) → html
 *
 * for each <app-island> it sends. Every island folder's index.tsx exports `island`
 * (lib/island.ts): the component and the same props parser the browser uses, so the
 * server's first render is the one `hydrateRoot` expects. An unknown island, bad JSON or
 * a throwing render throws; the server then sends the island's plain fallback.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { IslandDef } from './lib/island';

type IslandModule = { island?: IslandDef<object> };

const modules = import.meta.glob<IslandModule>('./islands/*/index.tsx', { eager: true });

/** Island name (its folder) → definition. */
const ISLANDS: ReadonlyMap<string, IslandDef<object>> = new Map(
  Object.entries(modules).flatMap(([path, mod]) => {
    const name = path.split('/')[2];
    return name !== undefined && mod.island ? [[name, mod.island] as const] : [];
  }),
);

/** The names this bundle can render (the server logs them at start). */
export function names(): string[] {
  return [...ISLANDS.keys()].sort();
}

/** The first render of island `name` with props `propsJson` (the `props` attribute). */
export function render(name: string, propsJson: string): string {
  const def = ISLANDS.get(name);
  if (def === undefined) throw new Error(`no island named "${name}"`);
  const raw: unknown = propsJson.trim() === '' ? {} : JSON.parse(propsJson);
  return renderToString(createElement(def.Component, def.parse(raw)));
}
