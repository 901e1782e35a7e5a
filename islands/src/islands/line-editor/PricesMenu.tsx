// The prices dropdown of a sales line: a menu button listing the product's tier prices
// (label + amount); choosing one sets the unit price. Esc closes and returns to the button.
import { useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { formatCents } from '../../lib/money';
import type { PriceTier } from './types';

export interface PricesMenuProps {
  label: string;
  disabled: boolean;
  /** undefined: not loaded yet. */
  prices: PriceTier[] | undefined;
  loading: boolean;
  /** Called when the menu opens (loads the prices when missing). */
  onOpen: () => void;
  onChoose: (cents: number) => void;
}

const menuStyle: CSSProperties = { top: '100%', left: 'auto', right: 0, marginTop: 2, minWidth: 170 };
const itemStyle: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  gap: 16,
  width: '100%',
  padding: '4px 12px',
  border: 0,
  background: 'none',
  textAlign: 'left',
  cursor: 'pointer',
};

export function PricesMenu({ label, disabled, prices, loading, onOpen, onChoose }: PricesMenuProps) {
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(-1);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<Array<HTMLButtonElement | null>>([]);
  const menuId = useId();

  // When the menu opens (or its prices arrive), the first price gets the focus.
  useLayoutEffect(() => {
    if (open && prices && prices.length > 0) items.current[0]?.focus();
  }, [open, prices]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items.current.filter((b): b is HTMLButtonElement => b !== null);
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.length === 0) return;
      const next = e.key === 'ArrowDown' ? (at + 1) % list.length : (at - 1 + list.length) % list.length;
      list[next]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <span
      className="le-menu-anchor"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="btn small"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => {
          if (!open) onOpen();
          setOpen(!open);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.preventDefault();
            e.stopPropagation();
            close(false);
          } else if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            onOpen();
            setOpen(true);
          }
        }}
      >
        ▾
      </button>
      {open ? (
        <div id={menuId} role="menu" aria-label={label} className="menu" style={menuStyle} onKeyDown={onMenuKeyDown}>
          {loading && !prices ? (
            <div className="muted" style={{ padding: '4px 12px' }}>
              Loading…
            </div>
          ) : !prices || prices.length === 0 ? (
            <div className="muted" style={{ padding: '4px 12px' }}>
              No prices
            </div>
          ) : (
            prices.map((p, i) => (
              <button
                key={`${p.label}-${i}`}
                ref={(el) => {
                  items.current[i] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={-1}
                style={i === focused ? { ...itemStyle, background: 'var(--brand-t, #e8f0fa)' } : itemStyle}
                onFocus={() => setFocused(i)}
                onBlur={() => setFocused(-1)}
                onClick={() => {
                  close(false);
                  onChoose(p.price);
                }}
              >
                <span>{p.label}</span>
                <span className="num">{formatCents(p.price)}</span>
              </button>
            ))
          )}
        </div>
      ) : null}
    </span>
  );
}
