// The page's header fields talk to the island with DOM events on document: the customer,
// the warehouse and the tax type the lines are priced, stocked and taxed by.
import { useEffect, useRef, type Dispatch } from 'react';
import { toast, TOAST_LONG_MS } from '../../lib/api';
import type { EditorAction } from './editor-state';
import { MSG_CUSTOMER_CHANGED } from './rules';
import type { Line } from './types';

function detailOf(e: Event): Record<string, unknown> {
  const d = (e as CustomEvent<unknown>).detail;
  return typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
}

const idOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * `customerId` is the sheet's customer at the start; `lines` the lines now (a changed
 * customer is worth a warning only when a line names a product).
 */
export function usePageEvents(editable: boolean, customerId: number | null, lines: Line[], dispatch: Dispatch<EditorAction>): void {
  // The listeners read these without subscribing again. The customer is updated as each
  // event arrives, so a repeated event is ignored even before the next render.
  const customerRef = useRef(customerId);
  const linesRef = useRef(lines);

  useEffect(() => {
    linesRef.current = lines;
  });

  // The customer may also change without an event (adopted from the form when the island
  // went live): an event naming it afterwards is then no change.
  useEffect(() => {
    customerRef.current = customerId;
  }, [customerId]);

  useEffect(() => {
    const onCustomer = (e: Event) => {
      const id = idOrNull(detailOf(e).id);
      if (id === customerRef.current) return;
      customerRef.current = id;
      dispatch({ type: 'customerChanged', id });
      if (editable && linesRef.current.some((l) => l.productId !== null)) {
        toast(MSG_CUSTOMER_CHANGED, 'warning', TOAST_LONG_MS);
      }
    };
    const onWarehouse = (e: Event) => dispatch({ type: 'warehouseChanged', id: idOrNull(detailOf(e).id) });
    const onTaxType = (e: Event) => {
      const t = idOrNull(detailOf(e).taxType);
      if (t !== null) dispatch({ type: 'taxTypeChanged', taxType: t });
    };
    document.addEventListener('customer-changed', onCustomer);
    document.addEventListener('warehouse-changed', onWarehouse);
    document.addEventListener('tax-type-changed', onTaxType);
    return () => {
      document.removeEventListener('customer-changed', onCustomer);
      document.removeEventListener('warehouse-changed', onWarehouse);
      document.removeEventListener('tax-type-changed', onTaxType);
    };
  }, [editable, dispatch]);
}
