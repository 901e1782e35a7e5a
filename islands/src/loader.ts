/*
 * Island loader (DESIGN §6). The server renders
 *
 *   <app-island name="change-password"
 *               src="/static/islands/assets/change-password-XXXX.js"
 *               props='{"userName":"Ann"}'>server fallback html</app-island>
 *
 * and includes this script once per page (<script type="module" src=".../loader-XXXX.js">;
 * `src` values come from static/islands/.vite/manifest.json). When an <app-island> is
 * connected (page load, or an htmx swap), the element parses `props` as JSON (missing or
 * empty → {}), imports `src`, and calls the module's `mount(el, props)`, which renders a
 * React root into the element (replacing the fallback) and returns an unmount function.
 * When the element is disconnected it calls that function. A disconnect before the import
 * resolves cancels the mount. On a bad `props` or a failed import the fallback stays.
 *
 * Lazy islands: with `load="interaction"` the bundle is NOT imported on connect. The
 * element waits for the first `pointerenter`, `focusin`, `touchstart` or `click` inside it,
 * then imports and mounts. If the user activated the fallback (a `click`, or Enter/Space
 * on a fallback <button>) before the island mounted, `mount` gets
 * `{...props, __activate: true}` so the island can act as if its own control had been
 * used (e.g. open its dialog). Focus that was inside the fallback is moved onto the
 * island's first focusable element when the fallback is replaced. A lazy island that has
 * already mounted once remounts on reconnect without waiting (its fallback is gone).
 *
 * Idle islands: `load="idle"` waits like `interaction`, and also loads once the page has
 * finished loading and the browser is idle, so an island the page needs soon (the quoting
 * cart restores the saved cart) does not weigh on the first load.
 *
 * Wake events: `wake="cart-add open-price-dialog"` (lazy and idle islands) also loads the
 * island on the first of these events on `document`. The sender repeats its request until
 * the island claims it (`TyreDesk.ask` in static/js/app.js), so nothing is lost while the
 * code arrives.
 *
 * Server-rendered islands carry `ssr` and their real first render instead of a fallback;
 * `mount` hydrates them (lib/mount.tsx).
 */

export interface IslandModule {
  mount(el: HTMLElement, props: unknown): () => void;
}

export const ISLAND_TAG = 'app-island';

/** `load` value that defers the import until the user interacts with the island. */
export const LOAD_ON_INTERACTION = 'interaction';

/** `load` value that defers the import until interaction or the browser is idle. */
export const LOAD_WHEN_IDLE = 'idle';

/** After the page's `load`, how long an idle island waits at most for an idle moment. */
export const IDLE_TIMEOUT_MS = 2000;

/** Prop added for an island whose fallback was activated before it mounted. */
export const ACTIVATE_PROP = '__activate';

/** Events (on the element) that start loading a `load="interaction"` island. */
export const INTERACTION_EVENTS = ['pointerenter', 'focusin', 'touchstart', 'click'] as const;

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Parses the `props` attribute: missing or blank → {}. Throws on invalid JSON. */
export function parseProps(raw: string | null): unknown {
  if (raw == null || raw.trim() === '') return {};
  return JSON.parse(raw) as unknown;
}

/** `props` plus `__activate: true` (non-object props are dropped). */
export function withActivate(props: unknown): Record<string, unknown> {
  const base =
    typeof props === 'object' && props !== null && !Array.isArray(props)
      ? (props as Record<string, unknown>)
      : {};
  return { ...base, [ACTIVATE_PROP]: true };
}

function isIslandModule(mod: unknown): mod is IslandModule {
  return (
    typeof mod === 'object' &&
    mod !== null &&
    typeof (mod as { mount?: unknown }).mount === 'function'
  );
}

/** A click, or Enter/Space pressed on a button of the fallback: the user meant to use it. */
function isActivation(e: Event, island: HTMLElement): boolean {
  if (e.type === 'click') return true;
  if (e.type !== 'keydown') return false;
  const key = (e as KeyboardEvent).key;
  if (key !== 'Enter' && key !== ' ' && key !== 'Spacebar') return false;
  const target = e.target instanceof Element ? e.target.closest('button') : null;
  return target !== null && island.contains(target);
}

/** The event types of a `wake` attribute. */
export function wakeEvents(raw: string | null): string[] {
  return (raw ?? '').split(/\s+/).filter((t) => t !== '');
}

/** Runs `fn` once the page has loaded and the browser is idle (unless `signal` aborts). */
function whenIdle(fn: () => void, signal: AbortSignal): void {
  const schedule = () => {
    if (signal.aborted) return;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(fn, 0);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true, signal });
}

/**
 * Resolves once the parser has read the whole page (`interactive`). The loader runs as soon
 * as it has arrived (`async`), not after the page's deferred scripts (htmx, app.js), so an
 * island can be connected while its own content is still arriving on a slow link: it is
 * mounted over the whole of it, never half. Deferred scripts run after `interactive`, so
 * the island does not wait for them.
 */
export function pageParsed(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => {
    document.addEventListener('readystatechange', () => resolve(), { once: true });
  });
}

function defineAppIsland(): void {
  if (typeof customElements === 'undefined' || customElements.get(ISLAND_TAG)) return;

  class AppIsland extends HTMLElement {
    #unmount: (() => void) | null = null;
    // Bumped on every connect/disconnect; a pending import only mounts if it still matches.
    #generation = 0;
    // Lazy mode: removes the interaction listeners of the current connection.
    #listeners: AbortController | null = null;
    // Lazy mode: the fallback was activated (click / Enter / Space) before the mount.
    #activated = false;
    // Set after the first successful mount: the fallback has been replaced by then.
    #mountedOnce = false;

    connectedCallback(): void {
      const generation = ++this.#generation;
      this.#activated = false;
      const name = this.getAttribute('name') ?? '(unnamed)';
      const src = this.getAttribute('src');
      if (!src) {
        console.error(`[app-island] "${name}" has no src attribute`);
        return;
      }
      let props: unknown;
      try {
        props = parseProps(this.getAttribute('props'));
      } catch (err) {
        console.error(`[app-island] "${name}" has invalid props JSON`, err);
        return;
      }
      const load = this.getAttribute('load');
      const lazy = load === LOAD_ON_INTERACTION || load === LOAD_WHEN_IDLE;
      if (lazy && !this.#mountedOnce) {
        this.#loadOnInteraction(generation, name, src, props, load === LOAD_WHEN_IDLE);
        return;
      }
      if (load !== null && !lazy) {
        console.warn(`[app-island] "${name}" has unknown load="${load}"; loading now`);
      }
      this.#load(generation, name, src, props);
    }

    disconnectedCallback(): void {
      this.#generation++;
      this.#stopListening();
      const unmount = this.#unmount;
      this.#unmount = null;
      if (unmount) {
        try {
          unmount();
        } catch (err) {
          console.error('[app-island] unmount failed', err);
        }
      }
    }

    #loadOnInteraction(generation: number, name: string, src: string, props: unknown, idle: boolean): void {
      const listeners = new AbortController();
      this.#listeners = listeners;
      let started = false;
      // Stays attached until the mount (or a disconnect), so a click that comes while the
      // import is still pending (e.g. after a pointerenter) still counts as an activation.
      const onEvent = (e: Event) => {
        if (isActivation(e, this)) {
          this.#activated = true;
          // Enter/Space: we activate the island ourselves; no synthetic click, no scroll.
          if (e.type === 'keydown') e.preventDefault();
        } else if (e.type === 'keydown') {
          return;
        }
        if (started) return;
        started = true;
        this.#load(generation, name, src, props);
      };
      const { signal } = listeners;
      for (const type of INTERACTION_EVENTS) {
        this.addEventListener(type, onEvent, { signal, passive: type === 'touchstart' });
      }
      this.addEventListener('keydown', onEvent, { signal });
      const start = () => {
        if (started || signal.aborted) return;
        started = true;
        this.#load(generation, name, src, props);
      };
      for (const type of wakeEvents(this.getAttribute('wake'))) {
        document.addEventListener(type, start, { signal });
      }
      if (idle) whenIdle(start, signal);
    }

    #stopListening(): void {
      this.#listeners?.abort();
      this.#listeners = null;
    }

    #load(generation: number, name: string, src: string, props: unknown): void {
      Promise.all([import(/* @vite-ignore */ src), pageParsed()])
        .then(([mod]: [unknown, void]) => {
          if (generation !== this.#generation || !this.isConnected) return;
          if (!isIslandModule(mod)) throw new Error(`${src} does not export mount()`);
          this.#stopListening();
          const focused = document.activeElement;
          const hadFocus = focused !== null && focused !== this && this.contains(focused);
          this.#unmount?.();
          this.#unmount = mod.mount(this, this.#activated ? withActivate(props) : props);
          this.#mountedOnce = true;
          if (hadFocus) this.#restoreFocus();
        })
        .catch((err: unknown) => {
          console.error(`[app-island] failed to load "${name}" from ${src}`, err);
        });
    }

    /** The focused fallback was replaced: focus the island's first control instead. */
    #restoreFocus(): void {
      const active = document.activeElement;
      // The island may have moved focus itself (e.g. into an opened dialog).
      if (active !== null && active !== document.body && active.isConnected) return;
      this.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    }
  }

  customElements.define(ISLAND_TAG, AppIsland);
}

defineAppIsland();
