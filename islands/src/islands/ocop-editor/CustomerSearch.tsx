// 'Add customer' search: GET /api/customers?name=<text>&per_page=20, debounced 300 ms, with a
// suggestion list. ArrowDown/ArrowUp move, Enter picks, Esc closes the list (only the list:
// the surrounding dialog asks `listOpen` before closing on Esc), the mouse works too.
import type { MutableRefObject } from 'react';
import { apiFetch } from '../../lib/api';
import { SearchField } from '../../lib/remote-search';
import { toCustomerHits, type CustomerHit } from './types';

export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_PAGE_SIZE = 20;

export interface CustomerSearchProps {
  onPick: (hit: CustomerHit) => void;
  /** Kept true while the suggestion list is open. */
  listOpen: MutableRefObject<boolean>;
  disabled?: boolean;
}

async function searchCustomers(name: string, signal: AbortSignal): Promise<CustomerHit[]> {
  const path = `/customers?name=${encodeURIComponent(name)}&per_page=${SEARCH_PAGE_SIZE}`;
  const body = await apiFetch<{ data?: unknown }>(path, { signal });
  return toCustomerHits(body?.data);
}

export function CustomerSearch({ onPick, listOpen, disabled = false }: CustomerSearchProps) {
  return (
    <SearchField
      label="Add customer"
      listLabel="Customer suggestions"
      placeholder="Customer name"
      search={searchCustomers}
      delayMs={SEARCH_DEBOUNCE_MS}
      onPick={onPick}
      className="field ocop-add"
      style={{ position: 'relative', marginTop: 10 }}
      disabled={disabled}
      listOpen={listOpen}
    >
      {(hit) => (
        <>
          {hit.name}
          {hit.code ? <span className="muted"> · {hit.code}</span> : null}
        </>
      )}
    </SearchField>
  );
}
