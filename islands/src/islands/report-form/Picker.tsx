// Designated products, customers and suppliers: a remote search box (debounced; ArrowDown /
// ArrowUp move, Enter picks, Esc closes the list) and the chosen records as removable chips.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { apiFetch } from '../../lib/api';
import type { Picked } from './payload';
import * as css from './styles';

/** Spec §9: code search waits 700 ms, name search 500 ms. */
export const CODE_DEBOUNCE_MS = 700;
export const NAME_DEBOUNCE_MS = 500;
export const SEARCH_PAGE_SIZE = 20;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `data[]` of a search answer as chips: id and a label made by `label`. */
export function toPicked(data: unknown, label: (row: Record<string, unknown>) => string): Picked[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((row) =>
    isRecord(row) && typeof row.id === 'number' && Number.isSafeInteger(row.id) && row.id > 0
      ? [{ id: row.id, label: label(row) }]
      : [],
  );
}

/** Label of a product: its code and name. */
export const productLabel = (r: Record<string, unknown>) => [str(r.code), str(r.name)].filter(Boolean).join(' · ');
/** Label of a customer or supplier: its name. */
export const nameLabel = (r: Record<string, unknown>) => str(r.name);

export interface SearchBoxProps {
  label: string;
  placeholder: string;
  /** The API path for a query, e.g. `q => '/customers?name=' + q`. */
  path: (query: string) => string;
  toLabel: (row: Record<string, unknown>) => string;
  debounceMs: number;
  onPick: (hit: Picked) => void;
  describedBy?: string | undefined;
}

export function SearchBox({ label, placeholder, path, toLabel, debounceMs, onPick, describedBy }: SearchBoxProps) {
  const [text, setText] = useState('');
  // null: the list is closed.
  const [hits, setHits] = useState<Picked[] | null>(null);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useRef<AbortController | null>(null);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;

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
    },
    [],
  );

  const closeList = () => {
    cancel();
    setHits(null);
  };

  const run = (query: string) => {
    cancel();
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    apiFetch<{ data?: unknown }>(path(encodeURIComponent(query)), { signal: controller.signal }).then(
      (body) => {
        if (request.current !== controller) return;
        request.current = null;
        setLoading(false);
        setHits(toPicked(body?.data, toLabel));
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
    }, debounceMs);
  };

  const pick = (hit: Picked) => {
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
        // Enter in a picker picks (or searches now); it never submits the report.
        e.preventDefault();
        const hit = hits?.[active];
        if (hit) pick(hit);
        else if (text.trim() !== '') run(text.trim());
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
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder={placeholder}
        value={text}
        aria-expanded={hits !== null}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-busy={loading || undefined}
        aria-describedby={describedBy}
        aria-activedescendant={activeHit ? `${listId}-${activeHit.id}` : undefined}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={closeList}
      />
      {hits !== null ? (
        <ul id={listId} role="listbox" aria-label={`${label} suggestions`} className="picker-list">
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
                {hit.label}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}

/** Adds `hit` unless it is already chosen. */
export function addPicked(chosen: readonly Picked[], hit: Picked): Picked[] {
  return chosen.some((c) => c.id === hit.id) ? [...chosen] : [...chosen, hit];
}

export interface ChipsProps {
  /** What the chips are, for the list's accessible name ("Chosen products"). */
  name: string;
  chosen: readonly Picked[];
  onRemove: (id: number) => void;
}

export function Chips({ name, chosen, onRemove }: ChipsProps) {
  if (chosen.length === 0) return null;
  return (
    <ul aria-label={name} style={css.chipList}>
      {chosen.map((c) => (
        <li key={c.id} className="tag">
          {c.label}{' '}
          <button
            type="button"
            className="btn link small"
            style={css.chipRemove}
            aria-label={`Remove ${c.label}`}
            onClick={() => onRemove(c.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
