import { useEffect, useState, type ReactNode } from 'react';

/**
 * False during the first render (on the server, and in the browser while hydrating), true
 * once the island runs. Both first renders agree, so hydration matches.
 */
export function useLive(): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return live;
}

/**
 * The controls of a server-rendered island, disabled until its code runs: on a slow link
 * the lines are readable at once, but what is typed before hydration would be lost, so the
 * fields take input only when they can keep it. A disabled fieldset also leaves its fields
 * out of a form's submission: keep the fields the page's own form must send outside it.
 * `live` is the island's own `useLive()`.
 */
export function LiveFieldset({ children, live }: { children: ReactNode; live: boolean }) {
  return (
    <fieldset className="island-live" disabled={!live}>
      {children}
    </fieldset>
  );
}
