// The line editor's state (editor-state.ts) and the commands that fetch before they change
// it: the product search, a line's tier prices, a spreadsheet import.
import { useEffect, useReducer, useRef, type Dispatch } from 'react';
import { apiFetch, toast, TOAST_SHORT_MS } from '../../lib/api';
import { initialEditorState, lineEditorReducer, type EditorAction, type EditorState } from './editor-state';
import { importLines } from './upload';
import type { Kind, Line, LineEditorProps, LineLot, ProductHit } from './types';

export const MSG_IMPORTED = 'Operation successful';

export type ProductSearchFn = (text: string, signal: AbortSignal) => Promise<ProductHit[]>;

export interface LineEditorModel {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** Searches products by code or name, priced for the customer, stocked in the warehouse. */
  searchProducts: (param: 'code' | 'name') => ProductSearchFn;
  /** Fetches a line's tier prices once (the prices menu opens before they arrive). */
  loadPrices: (line: Line) => void;
  /** Uploads the file chosen in `input` and adds its lines. */
  importFile: (input: HTMLInputElement) => Promise<void>;
  /** Puts a picked product on a line; a tyre tracked by DOT then fetches its lots. */
  pickProduct: (kind: Kind, key: string, hit: ProductHit) => void;
  /**
   * Looks up a code typed before the island ran and puts the product whose code it is
   * (letter case aside) on the line, as the server does on a save (nothing when none is).
   */
  adoptProduct: (kind: Kind, key: string, code: string) => void;
}

function hitsOf(body: { data?: unknown } | null | undefined): ProductHit[] {
  return Array.isArray(body?.data) ? (body.data as ProductHit[]) : [];
}

export function useLineEditor(props: LineEditorProps): LineEditorModel {
  const { kind, orderType } = props;
  const [state, dispatch] = useReducer(lineEditorReducer, props, initialEditorState);
  const { customerId, warehouseId } = state;

  const searchProducts = (param: 'code' | 'name') => async (text: string, signal: AbortSignal) => {
    const query = new URLSearchParams({ [param]: text, per_page: '20' });
    if (customerId !== null) query.set('customerId', String(customerId));
    if (warehouseId !== null) query.set('warehouseId', String(warehouseId));
    return hitsOf(await apiFetch<{ data?: unknown }>(`/products?${query.toString()}`, { signal }));
  };

  const loadPrices = (line: Line) => {
    if (line.productId === null || state.prices[line.key] || state.loadingPrices.has(line.key)) return;
    const key = line.key;
    const query = new URLSearchParams({ ids: String(line.productId) });
    if (customerId !== null) query.set('customerId', String(customerId));
    dispatch({ type: 'pricesLoading', key });
    apiFetch<{ data?: unknown }>(`/products?${query.toString()}`).then(
      (body) => {
        const hits = hitsOf(body);
        const hit = hits.find((h) => h.id === line.productId) ?? hits[0];
        dispatch({ type: 'pricesLoaded', key, prices: hit && Array.isArray(hit.prices) ? hit.prices : [] });
      },
      () => dispatch({ type: 'pricesLoaded', key, prices: null }),
    );
  };

  /** Fetches a tracked product's lots in the warehouse for a line (nothing without one). */
  const loadLots = (key: string, productId: number, warehouse: number | null) => {
    if (warehouse === null) return;
    const query = new URLSearchParams({ warehouseId: String(warehouse) });
    apiFetch<{ data?: unknown }>(`/products/${productId}/lots?${query.toString()}`).then(
      (body) => dispatch({ type: 'lotsLoaded', kind, key, productId, lots: Array.isArray(body?.data) ? (body.data as LineLot[]) : [] }),
      () => {}, // the DOT cell still takes a code typed without the list
    );
  };

  const pickProduct = (kind: Kind, key: string, hit: ProductHit) => {
    dispatch({ type: 'pick', kind, key, hit });
    if (hit.dotTracked === true) loadLots(key, hit.id, warehouseId);
  };

  const adoptProduct = (kind: Kind, key: string, code: string) => {
    const wanted = code.trim().toLowerCase();
    searchProducts('code')(code.trim(), new AbortController().signal).then(
      (hits) => {
        const hit = hits.find((h) => h.code.toLowerCase() === wanted);
        if (!hit) return; // the cell keeps the code and its 'choose a product' hint
        dispatch({ type: 'adoptPick', kind, key, code, hit });
        if (hit.dotTracked === true) loadLots(key, hit.id, warehouseId);
      },
      () => {},
    );
  };

  // Another warehouse chosen in the header: the tracked lines list its lots instead.
  const shownWarehouse = useRef(warehouseId);
  useEffect(() => {
    if (shownWarehouse.current === warehouseId) return;
    shownWarehouse.current = warehouseId;
    for (const l of state.lines) if (l.dotTracked && l.productId !== null) loadLots(l.key, l.productId, warehouseId);
    // Only a change of warehouse refetches: the lines are read as they are then.
  }, [warehouseId]);

  const importFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file can be chosen again
    if (!file || state.importing) return;
    const { taxType } = state;
    dispatch({ type: 'importStarted' });
    const rows = await importLines(file, orderType);
    dispatch({ type: 'importFinished', rows, kind, taxType });
    if (!rows) return; // reported; nothing changes
    toast(MSG_IMPORTED, 'success', TOAST_SHORT_MS);
  };

  return { state, dispatch, searchProducts, loadPrices, importFile, pickProduct, adoptProduct };
}
