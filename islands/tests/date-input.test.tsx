// The date field in the DOM: the page enhancer on server markup (typing, blur, Enter, the
// invalid message, the shortcut menu, the calendar, values set by other scripts) and the
// React DateInput used by islands.
import { render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DateInput } from '../src/lib/DateInput';
import { enhanceDateInputs } from '../src/lib/date-input-dom';

const MESSAGE = 'Enter the date as dd/mm/yyyy';

/** The markup of templates/partials/date_input.html. */
function serverField(id: string, name: string, iso: string, text: string, shortcuts: [string, string][] = []): string {
  const menu = shortcuts.length
    ? `<button type="button" class="date-input-btn" aria-label="Date shortcuts" aria-haspopup="menu" aria-expanded="false">v</button>` +
      `<span class="date-menu" role="menu" hidden>` +
      shortcuts.map(([l, v]) => `<button type="button" role="menuitem" tabindex="-1" data-date="${v}">${l}</button>`).join('') +
      `<button type="button" role="menuitem" tabindex="-1" data-calendar>Pick on calendar…</button></span>`
    : `<button type="button" class="date-input-btn" aria-label="Pick on calendar" data-calendar>v</button>`;
  return (
    `<div class="field"><label for="${id}">${name}</label><span class="date-input" data-date-input>` +
    `<input type="text" class="date-input-text" id="${id}" value="${text}" inputmode="numeric" placeholder="dd/mm/yyyy" autocomplete="off">` +
    `<input type="hidden" class="date-input-value" name="${name}" value="${iso}">${menu}` +
    `<input type="date" class="date-input-picker" tabindex="-1" aria-hidden="true"></span></div>`
  );
}

describe('date field enhancer (server markup)', () => {
  let stop: () => void;
  let changes: string[];
  let listening: AbortController;
  const hidden = (name: string) => document.querySelector<HTMLInputElement>(`input[type=hidden][name="${name}"]`)!;

  beforeEach(() => {
    stop = enhanceDateInputs(document);
    changes = [];
    document.body.innerHTML =
      `<form>${serverField('f-date', 'date', '2026-11-20', '20/11/2026')}` +
      serverField('f-due', 'due_date', '', '', [['Today', '2026-11-20'], ['1 Week', '2026-11-27']]) +
      `<input id="other"></form>`;
    listening = new AbortController();
    document.addEventListener(
      'change',
      (e) => {
        const t = e.target as HTMLInputElement;
        if (t.type === 'hidden') changes.push(`${t.name}=${t.value}`);
      },
      { signal: listening.signal },
    );
  });
  afterEach(() => {
    stop();
    listening.abort();
  });

  it('posts the ISO day while typing and shows dd/mm/yyyy on blur, with one change', async () => {
    const user = userEvent.setup();
    const text = screen.getByLabelText('date');
    await user.clear(text);
    await user.type(text, '231126');
    expect(hidden('date').value).toBe('2026-11-23');
    expect((text as HTMLInputElement).value).toBe('231126');
    expect(changes).toEqual([]);
    await user.click(document.getElementById('other')!);
    expect((text as HTMLInputElement).value).toBe('23/11/2026');
    expect(changes).toEqual(['date=2026-11-23']);
  });

  it('rewrites the text on Enter', async () => {
    const user = userEvent.setup();
    const text = screen.getByLabelText('date') as HTMLInputElement;
    await user.clear(text);
    await user.type(text, '3.2.27{Enter}');
    expect(text.value).toBe('03/02/2027');
    expect(hidden('date').value).toBe('2027-02-03');
  });

  it('marks a text that is no day invalid, posts it raw, and clears the mark once it reads', async () => {
    const user = userEvent.setup();
    const text = screen.getByLabelText('date') as HTMLInputElement;
    await user.clear(text);
    await user.type(text, '31/02/2026');
    await user.tab();
    expect(text.getAttribute('aria-invalid')).toBe('true');
    const msg = screen.getByText(MESSAGE);
    expect(text.getAttribute('aria-describedby')).toBe(msg.id);
    expect(hidden('date').value).toBe('31/02/2026');
    expect(text.value).toBe('31/02/2026');
    expect(changes).toEqual(['date=31/02/2026']);
    await user.clear(text);
    await user.type(text, '28/02/2026');
    expect(text.hasAttribute('aria-invalid')).toBe(false);
    expect(text.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText(MESSAGE)).toBeNull();
  });

  it('posts nothing for an empty field', async () => {
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('date'));
    await user.tab();
    expect(hidden('date').value).toBe('');
    expect(screen.queryByText(MESSAGE)).toBeNull();
    expect(changes).toEqual(['date=']);
  });

  it('sets a shortcut from the menu and closes it; Escape closes it too', async () => {
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Date shortcuts' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const week = screen.getByRole('menuitem', { name: '1 Week' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Today' }));
    await user.click(week);
    expect((screen.getByLabelText('due_date') as HTMLInputElement).value).toBe('27/11/2026');
    expect(hidden('due_date').value).toBe('2026-11-27');
    expect(changes).toEqual(['due_date=2026-11-27']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(week);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('closes the menu on a click elsewhere', async () => {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Date shortcuts' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(document.getElementById('other')!);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens the calendar at the field day and takes the day picked (or cleared) there', async () => {
    const user = userEvent.setup();
    // jsdom has no showPicker; the browser test cannot open the native calendar either.
    const showPicker = vi.fn();
    Object.defineProperty(HTMLInputElement.prototype, 'showPicker', { value: showPicker, configurable: true });
    onTestFinished(() => {
      delete (HTMLInputElement.prototype as { showPicker?: unknown }).showPicker;
    });
    await user.click(screen.getByRole('button', { name: 'Pick on calendar' }));
    expect(showPicker).toHaveBeenCalledOnce();
    const picker = document.querySelector<HTMLInputElement>('#f-date ~ .date-input-picker')!;
    expect(picker.value).toBe('2026-11-20');
    picker.value = '2026-12-24';
    picker.dispatchEvent(new Event('change', { bubbles: true }));
    expect((screen.getByLabelText('date') as HTMLInputElement).value).toBe('24/12/2026');
    expect(hidden('date').value).toBe('2026-12-24');
    expect(changes).toEqual(['date=2026-12-24']);
    picker.value = '';
    picker.dispatchEvent(new Event('change', { bubbles: true }));
    expect((screen.getByLabelText('date') as HTMLInputElement).value).toBe('');
    expect(changes).toEqual(['date=2026-12-24', 'date=']);
  });

  it('shows a value another script set on the hidden input', () => {
    const due = hidden('due_date');
    due.value = '2026-12-31';
    due.dispatchEvent(new Event('change', { bubbles: true }));
    expect((screen.getByLabelText('due_date') as HTMLInputElement).value).toBe('31/12/2026');
  });

  it('works on fields added later (htmx swaps)', async () => {
    const user = userEvent.setup();
    document.body.insertAdjacentHTML('beforeend', serverField('late', 'late', '', ''));
    await user.type(screen.getByLabelText('late'), '0101{Enter}');
    expect(hidden('late').value).toBe(`${new Date().getFullYear()}-01-01`);
  });
});

function Controlled({ initial, onValue }: { initial: string; onValue: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="d">Due</label>
      <DateInput
        id="d"
        value={value}
        onChange={(v) => {
          setValue(v);
          onValue(v);
        }}
        shortcuts={[{ label: 'Tomorrow', value: '2026-11-21' }]}
      />
      <input aria-label="next" />
    </>
  );
}

describe('DateInput (React)', () => {
  it('shows dd/mm/yyyy, reports ISO while typing, rewrites on blur', async () => {
    const user = userEvent.setup();
    const values: string[] = [];
    render(<Controlled initial="2026-11-20" onValue={(v) => values.push(v)} />);
    const text = screen.getByLabelText('Due') as HTMLInputElement;
    expect(text.value).toBe('20/11/2026');
    expect(text.getAttribute('placeholder')).toBe('dd/mm/yyyy');
    await user.clear(text);
    await user.type(text, '23112026');
    expect(values.at(-1)).toBe('2026-11-23');
    await user.tab();
    expect(text.value).toBe('23/11/2026');
    expect(document.querySelector<HTMLInputElement>('input[type=hidden]')!.value).toBe('2026-11-23');
  });

  it('marks a bad text and passes it on as typed', async () => {
    const user = userEvent.setup();
    const values: string[] = [];
    render(<Controlled initial="" onValue={(v) => values.push(v)} />);
    const text = screen.getByLabelText('Due');
    await user.type(text, '00/01/2026{Enter}');
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(text.getAttribute('aria-describedby')).toBe(screen.getByText(MESSAGE).id);
    expect(values.at(-1)).toBe('00/01/2026');
  });

  it('sets a shortcut from its menu', async () => {
    const user = userEvent.setup();
    const values: string[] = [];
    render(<Controlled initial="" onValue={(v) => values.push(v)} />);
    await user.click(screen.getByRole('button', { name: 'Date shortcuts' }));
    await user.click(screen.getByRole('menuitem', { name: 'Tomorrow' }));
    expect((screen.getByLabelText('Due') as HTMLInputElement).value).toBe('21/11/2026');
    expect(values).toEqual(['2026-11-21']);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
