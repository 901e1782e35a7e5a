// Keyboard-first entry (DESIGN §6): the editor's cells by line and field, the focus moved to
// the cell the state names once it has rendered, and the Enter keys: Enter in a cell moves
// on, Ctrl+Enter (Cmd+Enter) submits the form, a bare Enter never does.
import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { FocusTarget } from './editor-state';
import type { CellField } from './rules';

export type CellRef = (el: HTMLElement | null) => void;

export interface CellFocus {
  /** The editor's root element (for its onKeyDown). */
  root: RefObject<HTMLDivElement | null>;
  /** Registers a cell's control so the focus can be moved to it. */
  cellRef: (key: string, field: CellField) => CellRef;
  onRootKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  onCellKeyDown: (key: string, field: CellField) => (e: KeyboardEvent<HTMLElement>) => void;
}

/** `target` is the state's focus request; `moveNext` moves on from a cell (Enter). */
export function useCellFocus(target: FocusTarget | null, moveNext: (key: string, field: CellField) => void): CellFocus {
  const root = useRef<HTMLDivElement>(null);
  const cells = useRef(new Map<string, HTMLElement>());

  // Moves the focus once the row it targets has rendered, before the next key arrives: a
  // layout effect runs as the render is committed, a plain effect only after the paint.
  useLayoutEffect(() => {
    if (!target) return;
    const el = cells.current.get(`${target.key}:${target.field}`);
    if (!el) return;
    el.focus();
    if (el instanceof HTMLInputElement) el.select();
  }, [target]);

  const cellRef = (key: string, field: CellField) => (el: HTMLElement | null) => {
    if (el) cells.current.set(`${key}:${field}`, el);
    else cells.current.delete(`${key}:${field}`);
  };

  const onRootKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter') return;
    const target = e.target as Element;
    if (!root.current?.contains(target)) return; // e.g. inside a dialog portal
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      root.current.closest('form')?.requestSubmit();
      return;
    }
    if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== 'file')) {
      e.preventDefault();
    }
  };

  const onCellKeyDown = (key: string, field: CellField) => (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    e.preventDefault();
    moveNext(key, field);
  };

  return { root, cellRef, onRootKeyDown, onCellKeyDown };
}
