// The date field inside islands: the same markup and classes as the server's
// (templates/partials/date_input.html, styled by static/css/app.css "Date input") and the
// same parser (./dates), with React state instead of the page enhancer (which leaves this
// one alone: it has no `data-date-input`). `value` and `onChange` speak yyyy-MM-dd; a text
// that does not read as a day is passed on as typed, so validation refuses it rather than
// keeping an old day. SSR-safe: no browser globals during render.
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { DATE_MESSAGE, DATE_PLACEHOLDER, PICK_ON_CALENDAR, dateValue, displayDate, formatDate, onDateMenuKey } from './dates';

export interface DateShortcut {
  label: string;
  /** yyyy-MM-dd */
  value: string;
}

export interface DateInputProps {
  /** yyyy-MM-dd, '' or a refused text. */
  value: string;
  onChange(value: string): void;
  id?: string;
  /** Name of the hidden input that carries the ISO value (for a native form post). */
  name?: string;
  required?: boolean;
  shortcuts?: DateShortcut[];
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

function CalendarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M4.5 1v3M11.5 1v3M1.5 6.5h13M2.5 2.5h11a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1v-10a1 1 0 0 1 1-1z" fill="none" stroke="currentColor" strokeWidth="1.3" />
    </svg>
  );
}

export function DateInput(props: DateInputProps) {
  const { value, onChange, shortcuts = [] } = props;
  const [text, setText] = useState(() => displayDate(value));
  // The value the text stands for; a new `value` from outside replaces the text.
  const [shown, setShown] = useState(value);
  const [bad, setBad] = useState(false);
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  const menuRef = useRef<HTMLSpanElement>(null);
  const msgId = `${useId()}-msg`;

  if (value !== shown) {
    setShown(value);
    setText(displayDate(value));
    setBad(false);
  }

  const post = (next: string) => {
    setShown(next);
    if (next !== value) onChange(next);
  };

  const typed = (t: string) => {
    setText(t);
    const read = dateValue(t);
    if (read.valid) setBad(false);
    post(read.value);
  };

  const commit = () => {
    const read = dateValue(text);
    if (read.valid) setText(displayDate(read.value));
    setBad(!read.valid);
    post(read.value);
  };

  const choose = (day: string) => {
    setText(formatDate(day) ?? '');
    setBad(false);
    post(day);
  };

  const openCalendar = () => {
    const picker = pickerRef.current;
    if (!picker) return;
    picker.value = formatDate(value) === null ? '' : value;
    try {
      picker.showPicker();
    } catch {
      textRef.current?.focus();
    }
  };

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const openMenu = () => {
    setOpen(true);
    // The menu renders on this update; focus its first item after it does.
    queueMicrotask(() => items()[0]?.focus());
  };
  const closeMenu = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggleRef.current?.focus();
  };

  const onMenuKey = (e: KeyboardEvent<HTMLElement>) => onDateMenuKey(e, items(), closeMenu);

  const describedBy = [props['aria-describedby'], bad ? msgId : undefined].filter(Boolean).join(' ');
  const hasMenu = shortcuts.length > 0;
  return (
    <>
      <span
        className="date-input"
        ref={rootRef}
        onBlur={(e) => {
          if (open && !(e.relatedTarget instanceof Node && rootRef.current?.contains(e.relatedTarget))) setOpen(false);
        }}
      >
        <input
          ref={textRef}
          type="text"
          className="date-input-text"
          id={props.id}
          value={text}
          onChange={(e) => typed(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            else if (e.key === 'ArrowDown' && e.altKey && hasMenu) {
              e.preventDefault();
              openMenu();
            }
          }}
          inputMode="numeric"
          placeholder={DATE_PLACEHOLDER}
          autoComplete="off"
          required={props.required}
          aria-label={props['aria-label']}
          aria-invalid={bad || props['aria-invalid'] ? true : undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
        />
        <input type="hidden" className="date-input-value" name={props.name} value={value} />
        {hasMenu ? (
          <>
            <button
              ref={toggleRef}
              type="button"
              className="date-input-btn"
              aria-label="Date shortcuts"
              aria-haspopup="menu"
              aria-expanded={open}
              onClick={() => (open ? closeMenu(false) : openMenu())}
            >
              <CalendarIcon />
            </button>
            <span className="date-menu" role="menu" ref={menuRef} hidden={!open} onKeyDown={onMenuKey}>
              {shortcuts.map((s) => (
                <button
                  key={s.label}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  onClick={() => {
                    closeMenu(false);
                    choose(s.value);
                    textRef.current?.focus();
                  }}
                >
                  {s.label}
                </button>
              ))}
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                data-calendar
                onClick={() => {
                  closeMenu(false);
                  openCalendar();
                }}
              >
                {PICK_ON_CALENDAR}
              </button>
            </span>
          </>
        ) : (
          <button type="button" className="date-input-btn" aria-label="Pick on calendar" onClick={openCalendar}>
            <CalendarIcon />
          </button>
        )}
        <input
          ref={pickerRef}
          type="date"
          className="date-input-picker"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            // A day, or '' from the calendar's Clear.
            choose(e.target.value);
            textRef.current?.focus();
          }}
        />
      </span>
      {bad ? (
        <span id={msgId} className="date-input-msg field-error">
          {DATE_MESSAGE}
        </span>
      ) : null}
    </>
  );
}
