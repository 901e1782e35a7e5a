// 'Add customer' search: GET /api/customers?name=<text>&per_page=20, debounced 300 ms, with a
// suggestion list. ArrowDown/ArrowUp move, Enter picks, Esc closes the list (only the list:
// the surrounding dialog asks `listOpen` before closing on Esc), the mouse works too.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import { apiFetch } from '../../lib/api';
import { toCustomerHits, type CustomerHit } from './types';

export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_PAGE_SIZE = 20;

export interface CustomerSearchProps {
  onPick: (hit: CustomerHit) => void;
  /** Kept true while the suggestion list is open. */
  listOpen: MutableRefObject<boolean>;
  disabled?: boolean;
}

export function CustomerSearch({ onPick, listOpen, disabled = false }: CustomerSearchProps) {
  const [text, setText] = useState('');
  // null: the list is closed.
  const [hits, setHits] = useState<CustomerHit[] | null>(null);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useRef<AbortController | null>(null);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;

  useEffect(() => {
    listOpen.current = hits !== null;
  }, [hits, listOpen]);

  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    request.current?.abort();
    request.current = null;
    setLoading(false);
  };

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
      request.current?.abort();
      listOpen.current = false;
    },
    [listOpen],
  );

  const closeList = () => {
    cancel();
    setHits(null);
    listOpen.current = false;
  };

  const run = (query: string) => {
    cancel();
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    const path = `/customers?name=${encodeURIComponent(query)}&per_page=${SEARCH_PAGE_SIZE}`;
    apiFetch<{ data?: unknown }>(path, { signal: controller.signal }).then(
      (body) => {
        if (request.current !== controller) return;
        request.current = null;
        setLoading(false);
        setHits(toCustomerHits(body?.data));
        setActive(0);
      },
      () => {
        if (request.current !== controller) return;
        request.current = null;
        setLoading(false);
      },
    );
  };

  const onChange = (value: string) => {
    setText(value);
    cancel();
    const query = value.trim();
    if (query === '') {
      setHits(null);
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = null;
      run(query);
    }, SEARCH_DEBOUNCE_MS);
  };

  const pick = (hit: CustomerHit) => {
    closeList();
    setText('');
    onPick(hit);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const count = hits?.length ?? 0;
    switch (e.key) {
      case 'ArrowDown':
        if (count > 0) {
          e.preventDefault();
          setActive((a) => (a + 1) % count);
        }
        break;
      case 'ArrowUp':
        if (count > 0) {
          e.preventDefault();
          setActive((a) => (a - 1 + count) % count);
        }
        break;
      case 'Enter': {
        // Never submits the dialog's form from here.
        e.preventDefault();
        const hit = hits?.[active];
        if (hit) pick(hit);
        else if (text.trim() !== '' && hits === null) run(text.trim()); // search now
        break;
      }
      case 'Escape':
        if (hits !== null || loading) {
          e.preventDefault();
          closeList();
        }
        break;
      default:
    }
  };

  const activeHit = hits?.[active];

  return (
    <div className="field ocop-add" style={{ position: 'relative', marginTop: 10 }}>
      <label htmlFor={inputId}>Add customer</label>
      <input
        id={inputId}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder="Customer name"
        value={text}
        disabled={disabled}
        aria-expanded={hits !== null}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-busy={loading || undefined}
        aria-activedescendant={activeHit ? `${listId}-${activeHit.id}` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={closeList}
      />
      {hits !== null ? (
        <ul id={listId} role="listbox" aria-label="Customer suggestions" className="picker-list">
          {hits.length === 0 ? (
            <li role="presentation" className="muted">
              No Data
            </li>
          ) : (
            hits.map((hit, n) => (
              <li
                key={hit.id}
                id={`${listId}-${hit.id}`}
                role="option"
                aria-selected={n === active}
                className={n === active ? 'active' : undefined}
                // Keep the focus in the input; the click picks.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(n)}
                onClick={() => pick(hit)}
              >
                {hit.name}
                {hit.code ? <span className="muted"> · {hit.code}</span> : null}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
