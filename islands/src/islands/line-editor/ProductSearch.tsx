// A product search cell (Item Code or Item Name): debounced remote search with a suggestion
// list. ArrowUp/ArrowDown move, Enter picks, Esc closes, the mouse works too. A code (or
// any text only one product matches) typed faster than the debounce and Enter picks that
// product when the search finds it, without a second Enter.
import { useRef, type CSSProperties, type KeyboardEvent } from 'react';
import { formatCents } from '../../lib/money';
import { SuggestionList, useRemoteSearch } from '../../lib/remote-search';
import type { ProductHit } from './types';

export interface ProductSearchProps {
  value: string;
  label: string;
  delayMs: number;
  /** The line already has a product (Enter then moves on instead of searching). */
  picked: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  /** The input's classes (its width). */
  className: string;
  search: (text: string, signal: AbortSignal) => Promise<ProductHit[]>;
  onType: (text: string) => void;
  onPick: (hit: ProductHit) => void;
  /** Enter with nothing to pick or search. */
  onEnter: () => void;
  /** The hit Enter takes at once when a search it started finds it (see useRemoteSearch). */
  pickOnEnter?: (query: string, hits: ProductHit[]) => ProductHit | null;
  inputRef: (el: HTMLInputElement | null) => void;
}

const listStyle: CSSProperties = {
  minWidth: 340,
  maxHeight: 280,
  overflowY: 'auto',
  top: '100%',
  marginTop: 2,
};
const optionStyle: CSSProperties = {
  display: 'flex',
  gap: 8,
  padding: '4px 10px',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
};
const activeStyle: CSSProperties = { ...optionStyle, background: 'var(--brand-t, #e8f0fa)' };

const optionStyleOf = (active: boolean) => (active ? activeStyle : optionStyle);

/**
 * The product whose code is `query` (any case), else the only product found; null shows
 * the list to choose from.
 */
export function exactCode(query: string, hits: ProductHit[]): ProductHit | null {
  const q = query.trim().toLowerCase();
  return hits.find((h) => h.code.trim().toLowerCase() === q) ?? (hits.length === 1 ? (hits[0] ?? null) : null);
}

export function ProductSearch(props: ProductSearchProps) {
  const { value, label, picked, onType, onEnter } = props;
  const input = useRef<HTMLInputElement | null>(null);
  const search = useRemoteSearch({
    search: props.search,
    delayMs: props.delayMs,
    onPick: props.onPick,
    // Results for an input the user has left are not shown.
    accept: () => input.current !== null && document.activeElement === input.current,
    // A code typed whole and Enter takes that product without waiting for the list.
    pickOnEnter: props.pickOnEnter,
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return; // Ctrl+Enter submits (handled above)
    if (e.key === 'Tab') {
      search.close();
      return;
    }
    // Enter on a line that has its product moves on instead of searching again.
    if (search.onListKey(e, value, !picked)) {
      if (e.key === 'Escape') e.stopPropagation();
      return;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      // The arrows also open a closed list.
      if (search.hits === null) search.searchNow(value);
    } else if (e.key === 'Enter') {
      // Nothing to pick or search: on to the next cell.
      e.preventDefault();
      search.close();
      onEnter();
    }
  };

  return (
    <div className="le-search">
      <input
        {...search.inputProps}
        ref={(el) => {
          input.current = el;
          props.inputRef(el);
        }}
        type="text"
        aria-label={label}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        className={props.className}
        value={value}
        onChange={(e) => {
          onType(e.target.value);
          search.schedule(e.target.value);
        }}
        onKeyDown={onKeyDown}
      />
      <SuggestionList
        search={search}
        label={`${label} suggestions`}
        empty="No matching products"
        className="menu"
        style={listStyle}
        optionStyle={optionStyleOf}
      >
        {(hit) => (
          <>
            <strong>{hit.code}</strong>
            <span style={{ flex: 1 }}>{hit.name}</span>
            <span className="muted">stock {hit.stock}</span>
            <span className="num">{formatCents(hit.unitPrice)}</span>
          </>
        )}
      </SuggestionList>
    </div>
  );
}
