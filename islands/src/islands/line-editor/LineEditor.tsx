// The order line editor (spec §2.5, DESIGN §6): an editable line table inside the sheet's
// HTML form. Lines are serialized into one hidden input, so the normal form submit carries
// them and the server validates one way for both. Keyboard-first: Enter moves to the next
// cell, Enter on the last cell adds a line, Ctrl+Enter submits, Esc closes a suggestion.
//
// SSR-safe: initial state comes from props only; the DOM and the API are used in effects
// and event handlers.
//
// Usable before its code arrives: the first rows are a plain form (static-rows.ts) that the
// sheet's form submits as it is; when the island runs it adopts what was typed there and in
// the header (adopt.ts, FirstRows below) and hands the focus back to the same cell.
//
// The parts: the state and its actions (editor-state.ts, useLineEditor.ts), the focus and
// Enter keys (useCellFocus.ts), the page's header events (usePageEvents.ts) and the live
// cells (Cell.tsx).
import { Component, lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useLive } from '../../lib/live';
import { readFocus, readHeader, readTyped, restoreFocus, type FirstRowsSnapshot, type FocusSnapshot } from './adopt';
import { formatCents, formatInt } from '../../lib/money';
import { columnClass, columnsFor, hasDotColumn, HEADERS } from './cells';
import { Cell, type CellTable } from './Cell';
import { allSelected, anySelected, codesToLookUp, type EditorState, type TypedHeader } from './editor-state';
import { clientError, gstLabel, isTaxable, serializeLines, totals, type CellField } from './rules';
import { staticRows } from './static-rows';
import type { Line, LineEditorProps, LineField } from './types';
import { useCellFocus } from './useCellFocus';
import { useLineEditor } from './useLineEditor';
import { usePageEvents } from './usePageEvents';

export { MSG_IMPORTED } from './useLineEditor';

// The History dialog (Radix, about 14 KB compressed) is not needed to type: its code loads
// once the editor is live, off the path to the first input (issue 37).
const loadHistoryDialog = () => import('./HistoryDialog');
const HistoryDialog = lazy(() => loadHistoryDialog().then((m) => ({ default: m.HistoryDialog })));

export { columnHeaders, columnsFor, hasDotColumn, type Column } from './cells';

export function LineEditor(props: LineEditorProps) {
  const { kind, orderType, editable, fieldName } = props;
  const { state, dispatch, searchProducts, loadPrices, importFile, pickProduct, adoptProduct } = useLineEditor(props);
  const { lines, taxType, tableError, historyOf } = state;

  const uid = useId();
  // Until the island runs, the rows are plain HTML (static-rows.ts).
  const live = useLive();
  const fileInput = useRef<HTMLInputElement>(null);
  const firstRows = useRef<HTMLTableSectionElement>(null);
  const moveNext = (key: string, field: CellField) => dispatch({ type: 'moveNext', kind, key, field });
  const { root, cellRef, onRootKeyDown, onCellKeyDown } = useCellFocus(state.focus, moveNext);
  usePageEvents(editable, state.customerId, lines, dispatch);

  // Going live: what the plain rows held becomes the state; once that state has rendered,
  // the focus goes back where the user was typing and the typed codes are looked up.
  const adoption = useRef<{ focus: FocusSnapshot | null; before: EditorState } | null>(null);
  const adopt = (snapshot: FirstRowsSnapshot) => {
    adoption.current = { focus: snapshot.focus, before: state };
    dispatch({ type: 'adopt', kind, typed: snapshot.typed, header: snapshot.header });
  };
  useEffect(() => {
    if (live) void loadHistoryDialog().catch(() => {}); // a CHK pressed later opens at once
  }, [live]);
  useLayoutEffect(() => {
    const done = adoption.current;
    if (done === null || done.before === state) return;
    adoption.current = null;
    const body = root.current?.querySelector('tbody');
    if (done.focus !== null && body) restoreFocus(body, done.focus);
    for (const { key, code } of codesToLookUp(done.before, state)) adoptProduct(kind, key, code);
  }, [state]);

  const t = totals(kind, orderType, taxType, lines);
  const columns = columnsFor(kind, editable, props.seesCost, hasDotColumn(orderType, lines));
  const everySelected = allSelected(state);
  const someSelected = anySelected(state);

  const errorOf = (line: Line, field: LineField): string | null =>
    state.serverErrors[line.key]?.[field] ?? clientError(kind, line, field);

  /** The id a cell's message is named from. */
  const cellId = (line: Line, field: LineField) => `${uid}-${line.key}-${field}`;

  const table: CellTable = {
    kind,
    orderType,
    editable,
    state,
    dispatch,
    errorOf,
    cellId,
    cellRef,
    onCellKeyDown,
    moveNext,
    searchProducts,
    loadPrices,
    pickProduct,
  };

  return (
    <div ref={root} className="line-editor" data-live={live ? '' : undefined} onKeyDown={onRootKeyDown}>
      {/* Named once live: until then the plain rows' own fields are what the form sends. */}
      <input type="hidden" name={live ? fieldName : undefined} value={serializeLines(lines)} />
      {tableError ? (
        <div className="field-error" role="alert" style={{ marginBottom: 6 }}>
          {tableError}
        </div>
      ) : null}
      <div className="table-fit">
      <table className="data-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={columnClass(c)}>
                {c === 'select' ? (
                  <input
                    type="checkbox"
                    aria-label="Select all lines"
                    checked={everySelected}
                    onChange={() => dispatch({ type: 'toggleAll' })}
                  />
                ) : (
                  HEADERS[c]
                )}
              </th>
            ))}
          </tr>
        </thead>
        <FirstRows live={live} rows={firstRows} header={{ customerId: state.customerId, warehouseId: state.warehouseId, taxType: state.taxType }} onLive={adopt}>
          {live ? (
          <tbody key="live">
            {lines.map((line, i) => (
              <tr
                key={line.key}
                data-key={line.key}
                onFocus={() => dispatch({ type: 'rowFocused', key: line.key })}
                onBlur={(e) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node | null)) dispatch({ type: 'rowLeft' });
                }}
              >
                {columns.map((c) => (
                  <td key={c} className={columnClass(c)}>
                    <Cell table={table} column={c} line={line} index={i} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ) : (
          // The first render: the same rows as plain HTML (see static-rows.ts).
          <tbody
            key="first"
            ref={firstRows}
            dangerouslySetInnerHTML={{ __html: staticRows({ kind, orderType, editable, columns, lines, errorOf, cellId }) }}
          />
          )}
        </FirstRows>
      </table>
      </div>
      {(() => {
        const at = historyOf === null ? -1 : lines.findIndex((l) => l.key === historyOf);
        const line = lines[at];
        return line && line.productId !== null ? (
          <Suspense fallback={null}>
            <HistoryDialog lineNo={at + 1} productId={line.productId} customerId={state.customerId} onClose={() => dispatch({ type: 'closeHistory' })} />
          </Suspense>
        ) : null;
      })()}
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 6, marginTop: 8 }}>
        {editable ? (
          <>
            <button type="button" className="btn small" disabled={!live} onClick={() => dispatch({ type: 'addLine' })}>
              + Add Line
            </button>
            <button type="button" className="btn small" disabled={!someSelected} onClick={() => dispatch({ type: 'deleteSelected' })}>
              Delete Line
            </button>
            <button type="button" className="btn small" disabled={!someSelected} onClick={() => dispatch({ type: 'copySelected' })}>
              Copy Line
            </button>
            <button type="button" className="btn small" disabled={!live || state.importing} onClick={() => fileInput.current?.click()}>
              {state.importing ? 'Importing…' : 'Import Lines'}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".xls,.xlsx"
              aria-label="Import Lines file"
              hidden
              onChange={(e) => void importFile(e.currentTarget)}
            />
          </>
        ) : null}
        {kind !== 'transfer' ? (
          <dl className="line-totals" style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 18px', margin: '0 0 0 auto' }}>
            <Total label="Total Qty" value={formatInt(t.qty)} />
            {kind !== 'adjustment' || props.seesCost ? <Total label="Total Amount" value={formatCents(t.amount)} /> : null}
            {kind !== 'adjustment' && isTaxable(orderType) ? (
              <>
                <Total label={`Total Tax ${gstLabel(taxType)}`} value={formatCents(t.tax)} />
                <Total label="SubTotal" value={formatCents(t.subtotal)} />
              </>
            ) : null}
          </dl>
        ) : null}
      </div>
    </div>
  );
}

interface FirstRowsProps {
  live: boolean;
  /** The plain `<tbody>` while it is in the DOM. */
  rows: RefObject<HTMLTableSectionElement | null>;
  /** The header as the state holds it (a form without a field keeps the state's). */
  header: TypedHeader;
  /** Called once, as the live rows replace the plain ones, with what the plain ones held. */
  onLive: (snapshot: FirstRowsSnapshot) => void;
  /** The plain `<tbody>` until live, then the live one. */
  children: ReactNode;
}

/**
 * Reads the plain rows at the last moment before React removes them: a class's
 * `getSnapshotBeforeUpdate` runs in the commit, before the DOM changes and in the same task
 * as the swap, so nothing typed between hydration and the swap is missed.
 */
class FirstRows extends Component<FirstRowsProps> {
  getSnapshotBeforeUpdate(prev: FirstRowsProps): FirstRowsSnapshot | null {
    const rows = this.props.rows.current;
    if (prev.live || !this.props.live || rows === null) return null;
    return { typed: readTyped(rows), header: readHeader(rows.closest('form'), this.props.header), focus: readFocus(rows) };
  }

  componentDidUpdate(_prev: FirstRowsProps, _state: unknown, snapshot: FirstRowsSnapshot | null): void {
    if (snapshot !== null) this.props.onLive(snapshot);
  }

  render(): ReactNode {
    return this.props.children;
  }
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="muted" style={{ display: 'inline' }}>
        {label}
      </dt>{' '}
      <dd className="num" style={{ display: 'inline', margin: 0, fontWeight: 600 }}>
        {value}
      </dd>
    </div>
  );
}
