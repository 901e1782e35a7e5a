// Import Lines: one .xls/.xlsx file posted as multipart to /api/ag/lines; all or nothing.
import { render, screen, waitFor } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineEditor } from '../src/islands/line-editor/LineEditor';
import type { ImportedLine } from '../src/islands/line-editor/types';
import { captureToasts, setMeta } from './helpers';
import { line, props, routeFetch, serialized } from './fixtures/line-editor';

let capture: ReturnType<typeof captureToasts>;
beforeEach(() => {
  capture = captureToasts();
  setMeta('csrf-token', 'csrf-xyz');
  setMeta('org-id', '5');
});
afterEach(() => capture.stop());

const imported = (over: Partial<ImportedLine> = {}): ImportedLine => ({
  productId: 701,
  code: 'LT2457516',
  name: 'Toyo Open Country 245/75R16',
  unit: 'EA',
  stock: 8,
  quantity: 4,
  inWarehouseQty: null,
  inSystemQty: null,
  price: 21_990,
  amount: 87_960,
  description: 'from sheet',
  classAPrice: 22_000,
  costPrice: 15_000,
  ...over,
});

const xlsx = () =>
  new File(['PK fake'], 'lines.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

const fileInput = () => screen.getByLabelText('Import Lines file') as HTMLInputElement;

describe('Import Lines', () => {
  it('offers one .xls/.xlsx file behind the Import Lines button', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props()} />);
    const input = fileInput();
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.xls,.xlsx');
    expect(input.multiple).toBe(false);
    expect(input.name).toBe('');
    let clicked = 0;
    input.addEventListener('click', (e) => {
      clicked++;
      e.preventDefault();
    });
    await user.click(screen.getByRole('button', { name: 'Import Lines' }));
    expect(clicked).toBe(1);
  });

  it('posts file + orderType with the CSRF and org headers, then replaces the single empty line', async () => {
    const user = userEvent.setup();
    const fetch = routeFetch((url, init) =>
      url === '/api/ag/lines' && init?.method === 'POST'
        ? { status: 200, body: { data: [imported(), imported({ productId: 702, code: 'X2', quantity: 2, price: 1_005 })] } }
        : undefined,
    );
    render(<LineEditor {...props({ orderType: 2 })} />);
    const file = xlsx();
    await user.upload(fileInput(), file);

    await waitFor(() => expect(serialized()).toHaveLength(2));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/ag/lines');
    const headers = new Headers(init?.headers);
    expect(headers.get('x-csrf-token')).toBe('csrf-xyz');
    expect(headers.get('x-org-id')).toBe('5');
    expect(headers.get('content-type')).toBeNull(); // the browser sets the multipart boundary
    const body = init?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe(file.name);
    expect(body.get('orderType')).toBe('2');

    expect(serialized()).toEqual([
      { key: 'new_2', productId: 701, qty: '4', price: '219.90', description: 'from sheet', taxType: 3, inWarehouseQty: '', inSystemQty: '', dot: '' },
      { key: 'new_3', productId: 702, qty: '2', price: '10.05', description: 'from sheet', taxType: 3, inWarehouseQty: '', inSystemQty: '', dot: '' },
    ]);
    expect((screen.getByLabelText('Item Code line 1') as HTMLInputElement).value).toBe('LT2457516');
    expect(capture.toasts).toEqual([{ text: 'Operation successful', level: 'success', ms: 3500 }]);
    expect(fileInput().value).toBe(''); // the same file can be chosen again
  });

  it('appends after existing lines; adjustments keep the counted and system quantities', async () => {
    const user = userEvent.setup();
    routeFetch(() => ({ status: 200, body: { data: [imported({ quantity: -1, inWarehouseQty: 7, inSystemQty: 8 })] } }));
    render(<LineEditor {...props({ kind: 'adjustment', orderType: 7, lines: [line({ inSystemQty: '3', inWarehouseQty: '3' })] })} />);
    await user.upload(fileInput(), xlsx());
    await waitFor(() => expect(serialized()).toHaveLength(2));
    expect(serialized()[0]?.key).toBe('11');
    expect(serialized()[1]).toMatchObject({ productId: 701, inWarehouseQty: '7', inSystemQty: '8', price: '' });
  });

  it('a 422 shows the message and errors in an error toast and changes nothing', async () => {
    const user = userEvent.setup();
    routeFetch(() => ({
      status: 422,
      body: { message: 'The file has errors; nothing was imported.', errors: ['Row 3: unknown item code ZZ1', 'Row 5: quantity must be a whole number'] },
    }));
    render(<LineEditor {...props({ lines: [line()] })} />);
    const before = serialized();
    await user.upload(fileInput(), xlsx());
    await waitFor(() => expect(capture.toasts).toHaveLength(1));
    expect(capture.toasts[0]).toEqual({
      text: ['The file has errors; nothing was imported.', 'Row 3: unknown item code ZZ1', 'Row 5: quantity must be a whole number'],
      level: 'error',
      ms: 3500,
    });
    expect(serialized()).toEqual(before);
    expect((screen.getByRole('button', { name: 'Import Lines' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a 422 with only a message toasts it as a single line', async () => {
    const user = userEvent.setup();
    routeFetch(() => ({ status: 422, body: { message: 'Only .xls or .xlsx files' } }));
    render(<LineEditor {...props()} />);
    await user.upload(fileInput(), xlsx());
    await waitFor(() => expect(capture.toasts).toEqual([{ text: 'Only .xls or .xlsx files', level: 'error', ms: 3500 }]));
    expect(serialized()).toHaveLength(1);
  });
});
