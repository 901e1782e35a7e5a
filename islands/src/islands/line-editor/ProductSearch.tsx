// A product search cell (Item Code or Item Name): debounced remote search with a suggestion
// list. ArrowUp/ArrowDown move, Enter picks, Esc closes, the mouse works too.
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { formatCents } from './rules';
import type { ProductHit } from './types';

export interface ProductSearchProps {
  value: string;
  label: string;
  delayMs: number;
  /** The line already has a product (Enter then moves on instead of searching). */
  picked: boolean;
  invalid: boolean;
  describedBy: string | undefined;
  style: CSSProperties;
  search: (text: string, signal: AbortSignal) => Promise<ProductHit[]>;
  onType: (text: string) => void;
  onPick: (hit: ProductHit) => void;
  /** Enter with nothing to pick or search. */
  onEnter: () => void;
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

export function ProductSearch(props: ProductSearchProps) {
  const { value, label, delayMs, picked, search, onType, onPick, onEnter } = props;
  // null: the list is closed.
  const [hits, setHits] = useState<ProductHit[] | null>(null);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useRef<AbortController | null>(null);
  const listId = useId();

  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    request.current?.abort();
    request.current = null;
    setLoading(false);
  };

  useEffect(() => cancel, []);

  const close = () => {
    cancel();
    setHits(null);
  };

  const run = (text: string) => {
    cancel();
    const query = text.trim();
    if (query === '') return;
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    search(query, controller.signal).then(
      (found) => {
        if (request.current !== controller) return;
        request.current = null;
        setLoading(false);
        // Results for an input the user has left are not shown.
        if (input.current === null || document.activeElement !== input.current) return;
        setHits(found);
        setActive(0);
      },
      () => {
        // apiFetch has reported the error (aborts are silent).
        if (request.current !== controller) return;
        request.current = null;
        setLoading(false);
      },
    );
  };

  const schedule = (text: string) => {
    cancel();
    if (text.trim() === '') {
      setHits(null);
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = null;
      run(text);
    }, delayMs);
  };

  const pick = (hit: ProductHit) => {
    close();
    onPick(hit);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return; // Ctrl+Enter submits (handled above)
    const open = hits !== null && hits.length > 0;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        e.preventDefault();
        if (open) {
          const n = hits.length;
          setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
        } else if (hits === null && value.trim() !== '') {
          run(value);
        }
        return;
      }
      case 'Enter': {
        e.preventDefault();
        const hit = open ? hits[Math.min(active, hits.length - 1)] : undefined;
        if (hit) {
          pick(hit);
        } else if (timer.current !== null || (!picked && value.trim() !== '' && hits === null)) {
          // Typed faster than the debounce (or closed the list): search now.
          run(value);
        } else {
          close();
          onEnter();
        }
        return;
      }
      case 'Escape':
        if (hits !== null || timer.current !== null || loading) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        return;
      case 'Tab':
        close();
        return;
    }
  };

  const open = hits !== null;
  const activeId = open && hits.length > 0 ? `${listId}-${active}` : undefined;
  return (
    <div style={{ position: 'relative' }}>
      <input
        ref={(el) => {
          input.current = el;
          props.inputRef(el);
        }}
        type="text"
        autoComplete="off"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={activeId}
        aria-busy={loading || undefined}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        style={props.style}
        value={value}
        onChange={(e) => {
          onType(e.target.value);
          schedule(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {open ? (
        <ul id={listId} role="listbox" aria-label={`${label} suggestions`} className="menu" style={listStyle}>
          {hits.length === 0 ? (
            <li role="presentation" className="muted" style={optionStyle}>
              No matching products
            </li>
          ) : (
            hits.map((hit, i) => (
              <li
                key={hit.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                style={i === active ? activeStyle : optionStyle}
                onMouseDown={(e) => e.preventDefault()} // keep the focus in the input
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(hit)}
              >
                <strong>{hit.code}</strong>
                <span style={{ flex: 1 }}>{hit.name}</span>
                <span className="muted">stock {hit.stock}</span>
                <span className="num">{formatCents(hit.unitPrice)}</span>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
