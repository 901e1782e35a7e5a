// The shared remote search (lib/remote-search.tsx): debounce, one request at a time,
// keyboard, loading and empty states, via SearchField with a search function for a fake API.
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchField } from '../src/lib/remote-search';
import { leave } from './helpers';

interface Hit {
  id: number;
  name: string;
}

const HITS: Hit[] = [
  { id: 1, name: 'Acme' },
  { id: 2, name: 'Bravo' },
  { id: 3, name: 'Charlie' },
];

/** A search whose answers the test hands out one by one. */
function fakeApi() {
  const calls: Array<{ query: string; signal: AbortSignal; answer: (hits: Hit[]) => Promise<void> }> = [];
  const search = vi.fn(
    (query: string, signal: AbortSignal) =>
      new Promise<Hit[]>((resolve) => {
        calls.push({ query, signal, answer: (hits) => act(async () => resolve(hits)) });
      }),
  );
  return { search, calls };
}

function renderField(delayMs = 300) {
  const api = fakeApi();
  const onPick = vi.fn();
  const listOpen = { current: false };
  render(
    <SearchField label="Customer" placeholder="Name" search={api.search} delayMs={delayMs} onPick={onPick} listOpen={listOpen}>
      {(hit: Hit) => hit.name}
    </SearchField>,
  );
  const input = screen.getByRole('combobox', { name: 'Customer' }) as HTMLInputElement;
  const type = (value: string) => fireEvent.change(input, { target: { value } });
  /** Presses `k` in the input; false when the field prevented the key's default. */
  const key = (k: string) => fireEvent.keyDown(input, { key: k });
  const wait = (ms: number) =>
    act(async () => {
      vi.advanceTimersByTime(ms);
    });
  const list = () => screen.queryByRole('listbox', { name: 'Customer suggestions' });
  const options = () => within(list()!).queryAllByRole('option');
  const selected = () => options().findIndex((o) => o.getAttribute('aria-selected') === 'true');
  return { api, onPick, listOpen, input, type, key, wait, list, options, selected };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('remote search: debounce and requests', () => {
  it('is a text input with the combobox role (ARIA in HTML allows no role on type=search)', () => {
    const f = renderField();
    expect(f.input.type).toBe('text');
    expect(f.input.getAttribute('aria-expanded')).toBe('false');
  });

  it('searches the trimmed text once typing pauses for the delay', async () => {
    const f = renderField(500);
    f.type('ac');
    await f.wait(300);
    f.type(' acme ');
    await f.wait(499);
    expect(f.api.search).not.toHaveBeenCalled();
    await f.wait(1);
    expect(f.api.calls.map((c) => c.query)).toEqual(['acme']);
    expect(f.input.getAttribute('aria-busy')).toBe('true');
    await f.api.calls[0]!.answer(HITS);
    expect(f.input.getAttribute('aria-busy')).toBeNull();
    expect(f.options().map((o) => o.textContent)).toEqual(['Acme', 'Bravo', 'Charlie']);
    expect(f.input.getAttribute('aria-expanded')).toBe('true');
    expect(f.listOpen.current).toBe(true);
  });

  it('an empty text closes the list and does not search', async () => {
    const f = renderField();
    f.type('a');
    await f.wait(300);
    await f.api.calls[0]!.answer(HITS);
    f.type('  ');
    await f.wait(1000);
    expect(f.list()).toBeNull();
    expect(f.listOpen.current).toBe(false);
    expect(f.api.search).toHaveBeenCalledTimes(1);
  });

  it('a newer search aborts the one before, whose late answer is dropped', async () => {
    const f = renderField();
    f.type('a');
    await f.wait(300);
    f.type('ab');
    await f.wait(300);
    const [first, second] = f.api.calls;
    expect(first!.signal.aborted).toBe(true);
    expect(second!.signal.aborted).toBe(false);
    await first!.answer([HITS[2]!]);
    expect(f.list()).toBeNull();
    await second!.answer([HITS[0]!]);
    expect(f.options().map((o) => o.textContent)).toEqual(['Acme']);
  });

  it('says so when nothing matches', async () => {
    const f = renderField();
    f.type('zzz');
    await f.wait(300);
    await f.api.calls[0]!.answer([]);
    expect(f.options()).toEqual([]);
    expect(f.list()!.textContent).toBe('No Data');
  });
});

describe('remote search: keyboard and mouse', () => {
  async function openList() {
    const f = renderField();
    f.type('a');
    await f.wait(300);
    await f.api.calls[0]!.answer(HITS);
    return f;
  }

  it('ArrowDown / ArrowUp move the highlight and wrap; aria-activedescendant follows', async () => {
    const f = await openList();
    expect(f.selected()).toBe(0);
    f.key('ArrowDown');
    expect(f.selected()).toBe(1);
    expect(f.input.getAttribute('aria-activedescendant')).toBe(f.options()[1]!.id);
    f.key('ArrowDown');
    f.key('ArrowDown');
    expect(f.selected()).toBe(0);
    f.key('ArrowUp');
    expect(f.selected()).toBe(2);
  });

  it('Enter picks the highlighted hit, empties the field and never submits the form', async () => {
    const f = await openList();
    f.key('ArrowDown');
    expect(f.key('Enter')).toBe(false);
    expect(f.onPick.mock.calls).toEqual([[HITS[1]]]);
    expect(f.input.value).toBe('');
    expect(f.list()).toBeNull();
    expect(f.listOpen.current).toBe(false);
    // With nothing to pick or search, Enter still does not submit.
    expect(f.key('Enter')).toBe(false);
    expect(f.api.search).toHaveBeenCalledTimes(1);
  });

  it('Enter before the delay ends searches at once', async () => {
    const f = renderField();
    f.type('br');
    f.key('Enter');
    expect(f.api.calls.map((c) => c.query)).toEqual(['br']);
    await f.wait(1000);
    expect(f.api.search).toHaveBeenCalledTimes(1);
    expect(f.onPick).not.toHaveBeenCalled();
  });

  it('Escape closes the list and cancels a waiting search', async () => {
    const f = await openList();
    f.key('Escape');
    expect(f.list()).toBeNull();
    f.type('ab');
    f.key('Escape');
    await f.wait(1000);
    expect(f.api.search).toHaveBeenCalledTimes(1);
  });

  it('the mouse highlights and picks; leaving the input closes the list', async () => {
    const f = await openList();
    fireEvent.mouseEnter(f.options()[2]!);
    expect(f.selected()).toBe(2);
    fireEvent.click(f.options()[2]!);
    expect(f.onPick.mock.calls).toEqual([[HITS[2]]]);
    f.type('a');
    await f.wait(300);
    await f.api.calls[1]!.answer(HITS);
    leave(f.input);
    expect(f.list()).toBeNull();
  });
});
