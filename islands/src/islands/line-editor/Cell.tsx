// One cell of the live rows; what each shows is decided in cells.ts, which the first
// render's plain rows (static-rows.ts) follow too.
import type { ChangeEvent, Dispatch, KeyboardEvent } from 'react';
import { errorAria, errorIdOf, FieldError } from '../../lib/form';
import { cellNotice, DOT_PLACEHOLDER, INPUT_CLASS, lotsListId, lotsTitle, lotText, messageField, NUMBER_LABELS, needsPick, pickableLots, plainText, readOnlyText, SEARCH_LABELS, type Column } from './cells';
import type { EditorAction, EditorState, NumberField } from './editor-state';
import { HistoryButton } from './HistoryButton';
import { PricesMenu } from './PricesMenu';
import { exactCode, ProductSearch } from './ProductSearch';
import { CODE_DEBOUNCE_MS, MSG_PICK_PRODUCT, NAME_DEBOUNCE_MS, TAX_TYPES, type CellField } from './rules';
import type { Kind, Line, LineField, ProductHit } from './types';
import type { CellRef } from './useCellFocus';
import type { ProductSearchFn } from './useLineEditor';

/** What the cells of one table share. */
export interface CellTable {
  kind: Kind;
  orderType: number;
  editable: boolean;
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** The message a line's field shows. */
  errorOf: (line: Line, field: LineField) => string | null;
  /** The id a cell's message is named from. */
  cellId: (line: Line, field: LineField) => string;
  cellRef: (key: string, field: CellField) => CellRef;
  onCellKeyDown: (key: string, field: CellField) => (e: KeyboardEvent<HTMLElement>) => void;
  moveNext: (key: string, field: CellField) => void;
  searchProducts: (param: 'code' | 'name') => ProductSearchFn;
  loadPrices: (line: Line) => void;
  pickProduct: (kind: Kind, key: string, hit: ProductHit) => void;
}

export interface CellProps {
  table: CellTable;
  column: Column;
  line: Line;
  /** The line's 0-based position. */
  index: number;
}

export function Cell({ table, column, line, index }: CellProps) {
  const { kind, orderType, editable, state, dispatch, errorOf, cellId, cellRef, onCellKeyDown } = table;
  const n = index + 1;
  const key = line.key;
  const text = plainText(column, line, n);
  if (text !== null) return text;

  const message = (field: LineField | null) =>
    field === null ? null : <FieldError of={cellId(line, field)} message={errorOf(line, field)} className="le-msg" />;

  const notice = cellNotice(column, orderType, line);
  const below = notice === null ? null : (
    <div role="status" className="le-notice">
      {notice}
    </div>
  );

  const inputProps = (field: NumberField) => ({
    ref: cellRef(key, field),
    type: 'text' as const,
    inputMode: 'numeric' as const,
    autoComplete: 'off',
    'aria-label': `${NUMBER_LABELS[field]} line ${n}`,
    ...errorAria(cellId(line, field), errorOf(line, field)),
    className: INPUT_CLASS[field],
    value: line[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => dispatch({ type: 'typeNumber', key, field, text: e.target.value }),
    onKeyDown: onCellKeyDown(key, field),
  });

  if (!editable) {
    return (
      <>
        {readOnlyText(column, line)}
        {message(messageField(column))}
        {below}
      </>
    );
  }
  switch (column) {
    case 'select':
      return (
        <input
          type="checkbox"
          aria-label={`Select line ${n}`}
          checked={state.selected.has(key)}
          onChange={() => dispatch({ type: 'toggle', key })}
        />
      );
    case 'code':
    case 'name': {
      const productError = column === 'code' ? errorOf(line, 'product') : null;
      const label = `${SEARCH_LABELS[column]} line ${n}`;
      return (
        <>
          <ProductSearch
            value={line[column]}
            label={label}
            delayMs={column === 'code' ? CODE_DEBOUNCE_MS : NAME_DEBOUNCE_MS}
            picked={line.productId !== null}
            invalid={productError !== null}
            describedBy={productError ? errorIdOf(cellId(line, 'product')) : undefined}
            className={INPUT_CLASS[column]}
            search={table.searchProducts(column)}
            onType={(text) => dispatch({ type: 'typeProduct', key, field: column, text })}
            onPick={(hit) => table.pickProduct(kind, key, hit)}
            onEnter={() => table.moveNext(key, column)}
            pickOnEnter={column === 'code' ? exactCode : undefined}
            inputRef={cellRef(key, column)}
          />
          {message(messageField(column))}
          {column === 'code' && needsPick(line, editable, state.activeRow === key, productError) ? (
            <div className="muted le-msg le-hint">{MSG_PICK_PRODUCT}</div>
          ) : null}
        </>
      );
    }
    case 'qty':
    case 'inWarehouseQty':
      return (
        <>
          <input {...inputProps(column)} />
          {message(column)}
          {below}
        </>
      );
    case 'dot': {
      const offered = pickableLots(line);
      const list = lotsListId(cellId(line, 'dot'));
      const title = lotsTitle(line);
      return (
        <>
          <input
            {...inputProps('dot')}
            onChange={(e: ChangeEvent<HTMLInputElement>) => dispatch({ type: 'typeDot', kind, key, text: e.target.value })}
            maxLength={4}
            placeholder={DOT_PLACEHOLDER}
            title={title === '' ? undefined : title}
            list={offered.length > 0 ? list : undefined}
          />
          {offered.length > 0 ? (
            <datalist id={list}>
              {offered.map((lot) => (
                <option key={lot.dot} value={lot.dot} label={lotText(lot)} />
              ))}
            </datalist>
          ) : null}
          {message('dot')}
        </>
      );
    }
    case 'price':
      return (
        <>
          <div className="le-price-cell">
            <input {...inputProps('price')} inputMode="decimal" />
            {kind === 'sales' ? (
              <PricesMenu
                label={`Prices line ${n}`}
                disabled={line.productId === null}
                prices={state.prices[key]}
                loading={state.loadingPrices.has(key)}
                onOpen={() => table.loadPrices(line)}
                onChoose={(cents) => dispatch({ type: 'choosePrice', key, cents })}
              />
            ) : null}
          </div>
          {message('price')}
          {below}
        </>
      );
    case 'history':
      return (
        <HistoryButton
          lineNo={n}
          productId={line.productId}
          open={state.historyOf === key}
          onOpen={() => dispatch({ type: 'openHistory', key })}
        />
      );
    case 'taxType':
      return (
        <select
          ref={cellRef(key, 'taxType')}
          aria-label={`Tax Type line ${n}`}
          className={INPUT_CLASS.taxType}
          value={line.taxType}
          onChange={(e) => dispatch({ type: 'edit', key, patch: { taxType: Number(e.target.value) } })}
          onKeyDown={onCellKeyDown(key, 'taxType')}
        >
          {TAX_TYPES.map((tt) => (
            <option key={tt.value} value={tt.value}>
              {tt.label}
            </option>
          ))}
        </select>
      );
    case 'description':
      return (
        <div className="desc-cell">
          <input
            ref={cellRef(key, 'description')}
            type="text"
            autoComplete="off"
            aria-label={`Description line ${n}`}
            title={line.description || undefined}
            className={INPUT_CLASS.description}
            value={line.description}
            onChange={(e) => dispatch({ type: 'edit', key, patch: { description: e.target.value } })}
            onKeyDown={onCellKeyDown(key, 'description')}
          />
        </div>
      );
    default:
      return null;
  }
}
