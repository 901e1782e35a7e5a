// Keyboard-first entry (DESIGN §6): Enter walks the cells, Enter on the last cell adds a
// line, Ctrl+Enter submits the surrounding form, a bare Enter never does.
import { render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LineEditor } from '../src/islands/line-editor/LineEditor';
import type { LineEditorProps } from '../src/islands/line-editor/types';
import { cell, line, props, serialized } from './fixtures/line-editor';

function inForm(p: LineEditorProps) {
  const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
  const view = render(
    <form aria-label="sheet" onSubmit={onSubmit}>
      <input aria-label="Reference" />
      <LineEditor {...p} />
      <button type="submit">Submit</button>
    </form>,
  );
  const form = screen.getByRole('form', { name: 'sheet' }) as HTMLFormElement;
  return { onSubmit, form, view };
}

const focused = () => document.activeElement?.getAttribute('aria-label');

describe('Enter navigation', () => {
  it('sales: code → qty → next row code; last cell adds a line (the price comes with the product)', async () => {
    const user = userEvent.setup();
    const { onSubmit } = inForm(props({ lines: [line({ key: '1' }), line({ key: '2' })] }));
    await user.click(cell('Item Code line 1'));
    const path: Array<string | null | undefined> = [focused()];
    for (let i = 0; i < 4; i++) {
      await user.keyboard('{Enter}');
      path.push(focused());
    }
    expect(path).toEqual([
      'Item Code line 1',
      'Qty line 1',
      'Item Code line 2',
      'Qty line 2',
      'Item Code line 3', // added
    ]);
    expect(serialized().map((l) => l.key)).toEqual(['1', '2', 'new_1']);
    expect(cell('Item Code line 3').value).toBe('');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('from the name cell Enter goes to the qty; from the tax type, on to the next line', async () => {
    const user = userEvent.setup();
    inForm(props({ lines: [line()] }));
    await user.click(cell('Item Name line 1'));
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Qty line 1');
    screen.getByLabelText('Tax Type line 1').focus();
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Item Code line 2');
  });

  it('purchase: code → qty → price → description → next row code', async () => {
    const user = userEvent.setup();
    inForm(props({ kind: 'purchase', orderType: 4, lines: [line({ key: '1' }), line({ key: '2' })] }));
    await user.click(cell('Item Code line 1'));
    const path: Array<string | null | undefined> = [focused()];
    for (let i = 0; i < 4; i++) {
      await user.keyboard('{Enter}');
      path.push(focused());
    }
    expect(path).toEqual(['Item Code line 1', 'Qty line 1', 'Unit Price line 1', 'Description line 1', 'Item Code line 2']);
  });

  it('selects the qty text on arrival so typing replaces it', async () => {
    const user = userEvent.setup();
    inForm(props({ lines: [line({ qty: '2' })] }));
    await user.click(cell('Item Code line 1'));
    await user.keyboard('{Enter}5');
    expect(cell('Qty line 1').value).toBe('5');
  });

  it('transfer: code → qty → next row; adjustment: code → in-warehouse qty → new line', async () => {
    const user = userEvent.setup();
    const { view } = inForm(props({ kind: 'transfer', orderType: 6, lines: [line()] }));
    await user.click(cell('Item Code line 1'));
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Qty line 1');
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Item Code line 2');
    view.unmount();

    inForm(props({ kind: 'adjustment', orderType: 7, lines: [line({ inSystemQty: '4', inWarehouseQty: '4' })] }));
    await user.click(cell('Item Code line 1'));
    await user.keyboard('{Enter}');
    expect(focused()).toBe('In-Warehouse Qty line 1');
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Item Code line 2');
  });

  it('+ Add Line focuses the new code cell', async () => {
    const user = userEvent.setup();
    inForm(props({ lines: [line()] }));
    await user.click(screen.getByRole('button', { name: '+ Add Line' }));
    expect(focused()).toBe('Item Code line 2');
  });
});

describe('submitting', () => {
  it('Ctrl+Enter and Cmd+Enter call requestSubmit on the surrounding form', async () => {
    const user = userEvent.setup();
    const { form, onSubmit } = inForm(props({ lines: [line()] }));
    const requestSubmit = vi.spyOn(form, 'requestSubmit');
    await user.click(cell('Qty line 1'));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(requestSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(focused()).toBe('Qty line 1'); // no navigation

    await user.click(cell('Item Code line 1'));
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(requestSubmit).toHaveBeenCalledTimes(2);

    await user.click(screen.getByRole('checkbox', { name: 'Select line 1' }));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(requestSubmit).toHaveBeenCalledTimes(3);
  });

  it('the submitted form data carries the lines JSON', async () => {
    const user = userEvent.setup();
    const { form, onSubmit } = inForm(props({ lines: [line({ qty: '2' })] }));
    await user.clear(cell('Qty line 1'));
    await user.type(cell('Qty line 1'), '9');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const data = new FormData(form);
    expect(JSON.parse(String(data.get('lines_json')))[0]).toMatchObject({ key: '11', qty: '9' });
    // Only the hidden input is named: the cells do not post fields of their own.
    expect(Array.from(data.keys())).toEqual(['lines_json']);
  });

  it('a bare Enter in any cell (or on a checkbox) never submits the form', async () => {
    const user = userEvent.setup();
    const { onSubmit } = inForm(props({ lines: [line()] }));
    for (const label of ['Item Code line 1', 'Item Name line 1', 'Qty line 1', 'Unit Price line 1', 'Description line 1', 'Tax Type line 1', 'Select line 1']) {
      screen.getByLabelText(label).focus();
      await user.keyboard('{Enter}');
    }
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('Ctrl+Enter outside the island is left to the page', async () => {
    const user = userEvent.setup();
    const { form } = inForm(props({ editable: false, lines: [line()] }));
    const requestSubmit = vi.spyOn(form, 'requestSubmit').mockImplementation(() => {});
    await user.click(screen.getByLabelText('Reference'));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(requestSubmit).not.toHaveBeenCalled(); // outside the island: not ours to handle
  });
});
