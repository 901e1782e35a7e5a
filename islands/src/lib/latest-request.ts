// One request at a time: starting a request aborts the one before, and only the latest
// request's answer is handled, so a slow answer never overwrites a newer one.
import { useEffect, useState } from 'react';

export class LatestRequest {
  // Made when a request starts (in a handler or an effect), never during a render.
  private controller: AbortController | null = null;

  /**
   * Aborts the running request and starts `load`. `done` or `failed` runs only while this
   * request is still the latest (never after an abort).
   */
  start<T>(load: (signal: AbortSignal) => Promise<T>, done: (value: T) => void, failed?: (err: unknown) => void): void {
    this.abort();
    const controller = new AbortController();
    this.controller = controller;
    const settle = (then: () => void) => {
      if (this.controller !== controller) return;
      this.controller = null;
      then();
    };
    load(controller.signal).then(
      (value) => settle(() => done(value)),
      (err: unknown) => settle(() => failed?.(err)),
    );
  }

  /** Aborts the running request, if any. */
  abort(): void {
    this.controller?.abort();
    this.controller = null;
  }
}

/** A LatestRequest for a component, aborted when the component unmounts. */
export function useLatestRequest(): LatestRequest {
  const [request] = useState(() => new LatestRequest());
  useEffect(() => () => request.abort(), [request]);
  return request;
}
