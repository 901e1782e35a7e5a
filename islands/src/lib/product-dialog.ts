// A dialog island that the page opens for one product with a DOM event on `document`
// (`open-price-dialog` / `open-ocop` {productId}). Opening loads the product's data (one
// request; a failure or an unreadable answer closes the dialog again). While a save runs
// the dialog is busy: it cannot be closed and no other product opens.
// SSR-safe: the listener is added in an effect, requests start in handlers.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MSG_HTTP_ERROR, toast, TOAST_LONG_MS } from './api';
import type { DialogFrameProps } from './dialog';
import { useLatestRequest } from './latest-request';

/** A positive whole id, as a number or a string of digits; else null. */
function positiveId(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? v : null;
  if (typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0) return Number(v);
  return null;
}

/**
 * Calls `open(productId)` for each `name` event whose detail names a product. The event is
 * claimed (preventDefault), so the page stops re-sending a request made before the island
 * mounted. `open` must be stable (useCallback): a new function re-adds the listener.
 */
function useProductOpenEvent(name: string, open: (productId: number) => void): void {
  useEffect(() => {
    const onOpen = (e: Event) => {
      e.preventDefault();
      const detail: unknown = (e as CustomEvent<unknown>).detail;
      const productId =
        typeof detail === 'object' && detail !== null ? positiveId((detail as { productId?: unknown }).productId) : null;
      if (productId !== null) open(productId);
    };
    document.addEventListener(name, onOpen);
    return () => document.removeEventListener(name, onOpen);
  }, [name, open]);
}

export interface ProductDialog<T> {
  /** The product the dialog is open for; null while it is closed. */
  productId: number | null;
  /** The product's data; null while it loads. */
  data: T | null;
  /** A save runs. */
  saving: boolean;
  close: () => void;
  /**
   * Runs `send` as the dialog's save, busy until it settles. A failure ends the busy state
   * and is thrown on; after a success the caller closes the dialog.
   */
  save: <R>(send: () => Promise<R>) => Promise<R>;
  /** The DialogFrame's open state, close request and busy state. */
  frame: Pick<DialogFrameProps, 'open' | 'onOpenChange' | 'busy'>;
}

/**
 * The dialog for the product named by each `event`. `load` fetches its data (null when the
 * answer cannot be read); it must be stable, e.g. a module function.
 */
export function useProductDialog<T>(
  event: string,
  load: (productId: number, signal: AbortSignal) => Promise<T | null>,
): ProductDialog<T> {
  const [productId, setProductId] = useState<number | null>(null);
  const [data, setData] = useState<T | null>(null);
  const [saving, setSaving] = useState(false);
  // Mirrors `saving` for the event listener.
  const savingRef = useRef(false);
  const request = useLatestRequest();

  const setBusy = useCallback((busy: boolean) => {
    savingRef.current = busy;
    setSaving(busy);
  }, []);

  const close = useCallback(() => {
    request.abort();
    setProductId(null);
    setData(null);
    setBusy(false);
  }, [request, setBusy]);

  const open = useCallback(
    (id: number) => {
      if (savingRef.current) return;
      setProductId(id);
      setData(null);
      request.start(
        (signal) => load(id, signal),
        (loaded) => {
          if (loaded !== null) {
            setData(loaded);
            return;
          }
          toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
          close();
        },
        // apiFetch has reported the failure.
        close,
      );
    },
    [close, load, request],
  );
  useProductOpenEvent(event, open);

  const save = useCallback(
    async <R>(send: () => Promise<R>): Promise<R> => {
      setBusy(true);
      try {
        return await send();
      } catch (err) {
        setBusy(false);
        throw err;
      }
    },
    [setBusy],
  );

  const frame = {
    open: productId !== null,
    onOpenChange: (next: boolean) => {
      if (!next) close();
    },
    busy: saving,
  };
  return { productId, data, saving, close, save, frame };
}
