// Designated products, customers and suppliers: a remote search box (debounced; ArrowDown /
// ArrowUp move, Enter picks, Esc closes the list) and the chosen records as removable chips.
import { apiFetch } from '../../lib/api';
import { SearchField } from '../../lib/remote-search';
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

/** A search field whose hits become chips. */
export function SearchBox({ label, placeholder, path, toLabel, debounceMs, onPick, describedBy }: SearchBoxProps) {
  const search = async (query: string, signal: AbortSignal) => {
    const body = await apiFetch<{ data?: unknown }>(path(encodeURIComponent(query)), { signal });
    return toPicked(body?.data, toLabel);
  };
  return (
    <SearchField
      label={label}
      placeholder={placeholder}
      search={search}
      delayMs={debounceMs}
      onPick={onPick}
      describedBy={describedBy}
    >
      {(hit) => hit.label}
    </SearchField>
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
