// A remote search behind a combobox input: debounced, one request at a time (a newer
// search aborts the one before), and a suggestion list that ArrowDown / ArrowUp move
// through, Enter or a click picks from and Escape closes. `useRemoteSearch` and
// `SuggestionList` serve an input the caller renders itself (the line editor's cells);
// `SearchField` is the whole labelled field. Each caller keeps its delay and how an
// option reads. SSR-safe: timers and requests start in handlers only.
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MutableRefObject,
  type ReactNode,
} from 'react';
import { useLatestRequest } from './latest-request';

/** What a search finds: anything with an id (the option's key and element id). */
export interface Hit {
  id: number;
}

export interface RemoteSearchOptions<T extends Hit> {
  /** Fetches the hits for a trimmed, non-empty query. */
  search: (query: string, signal: AbortSignal) => Promise<T[]>;
  /** How long typing must pause before the search runs. */
  delayMs: number;
  /** Called with the picked hit, after the list has closed. */
  onPick: (hit: T) => void;
  /** Asked when hits arrive; false drops them (e.g. the user has left the input). */
  accept?: () => boolean;
  /**
   * For a search that Enter started (typed faster than the debounce): the hit to pick at
   * once when the hits arrive (e.g. the one whose code is the query), or null to show them.
   */
  pickOnEnter?: (query: string, hits: T[]) => T | null;
}

export interface RemoteSearch<T extends Hit> {
  listId: string;
  /** The hits shown; null while the list is closed. */
  hits: T[] | null;
  /** The highlighted hit's index. */
  active: number;
  loading: boolean;
  /** A search waits for typing to pause. */
  pending: () => boolean;
  /** Searches `text` once typing pauses; an empty text closes the list. */
  schedule: (text: string) => void;
  /** Searches `text` at once. */
  searchNow: (text: string) => void;
  close: () => void;
  pick: (hit: T) => void;
  setActive: (index: number) => void;
  /**
   * The list's keys: ArrowDown / ArrowUp move through the hits; Enter picks the highlighted
   * hit, else searches at once when a search waits or (with `searchOnEnter`) when no list
   * is shown; Escape closes the list. True when the key was used.
   */
  onListKey: (e: KeyboardEvent<HTMLInputElement>, text: string, searchOnEnter?: boolean) => boolean;
  /** The input's combobox attributes; leaving the input closes the list. */
  inputProps: {
    role: 'combobox';
    autoComplete: 'off';
    'aria-autocomplete': 'list';
    'aria-expanded': boolean;
    'aria-controls': string;
    'aria-activedescendant': string | undefined;
    'aria-busy': true | undefined;
    onBlur: () => void;
  };
}

const optionId = (listId: string, hit: Hit) => `${listId}-${hit.id}`;

export function useRemoteSearch<T extends Hit>({ search, delayMs, onPick, accept, pickOnEnter }: RemoteSearchOptions<T>): RemoteSearch<T> {
  const [hits, setHits] = useState<T[] | null>(null);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = useLatestRequest();
  const listId = useId();

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    request.abort();
    setLoading(false);
  };

  const close = () => {
    cancel();
    setHits(null);
  };

  const searchNow = (text: string, byEnter = false) => {
    cancel();
    const query = text.trim();
    if (query === '') return;
    setLoading(true);
    request.start(
      (signal) => search(query, signal),
      (found) => {
        setLoading(false);
        if (accept && !accept()) return;
        const chosen = byEnter && pickOnEnter ? pickOnEnter(query, found) : null;
        if (chosen) {
          setHits(null);
          onPick(chosen);
          return;
        }
        setHits(found);
        setActive(0);
      },
      // apiFetch has reported the failure.
      () => setLoading(false),
    );
  };

  const schedule = (text: string) => {
    cancel();
    if (text.trim() === '') {
      setHits(null);
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = null;
      searchNow(text);
    }, delayMs);
  };

  const pending = () => timer.current !== null;

  const pick = (hit: T) => {
    close();
    onPick(hit);
  };

  const onListKey = (e: KeyboardEvent<HTMLInputElement>, text: string, searchOnEnter = true): boolean => {
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const count = hits?.length ?? 0;
        if (count === 0) return false;
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : count - 1;
        setActive((a) => (a + step) % count);
        return true;
      }
      case 'Enter': {
        const hit = hits?.[active];
        if (hit) {
          e.preventDefault();
          pick(hit);
          return true;
        }
        // Typed faster than the debounce, or the list was closed: search now.
        if (pending() || (searchOnEnter && hits === null && text.trim() !== '')) {
          e.preventDefault();
          searchNow(text, true);
          return true;
        }
        return false;
      }
      case 'Escape':
        if (hits === null && !pending() && !loading) return false;
        e.preventDefault();
        close();
        return true;
      default:
        return false;
    }
  };

  const activeHit = hits?.[active];
  return {
    listId,
    hits,
    active,
    loading,
    pending,
    schedule,
    searchNow,
    close,
    pick,
    setActive,
    onListKey,
    inputProps: {
      role: 'combobox',
      autoComplete: 'off',
      'aria-autocomplete': 'list',
      'aria-expanded': hits !== null,
      'aria-controls': listId,
      'aria-activedescendant': activeHit ? optionId(listId, activeHit) : undefined,
      'aria-busy': loading || undefined,
      onBlur: close,
    },
  };
}

export interface SuggestionListProps<T extends Hit> {
  search: RemoteSearch<T>;
  /** The list's accessible name, e.g. "Customer suggestions". */
  label: string;
  /** What the open list says when nothing matched. */
  empty: string;
  className: string;
  style?: CSSProperties;
  /** Inline option styles (highlighted or not), for a list the stylesheet does not style. */
  optionStyle?: (active: boolean) => CSSProperties;
  /** An option's content. */
  children: (hit: T) => ReactNode;
}

/** The open list of a remote search; nothing while it is closed. */
export function SuggestionList<T extends Hit>(props: SuggestionListProps<T>) {
  const { search, optionStyle } = props;
  const { listId, hits, active } = search;
  if (hits === null) return null;
  return (
    <ul id={listId} role="listbox" aria-label={props.label} className={props.className} style={props.style}>
      {hits.length === 0 ? (
        <li role="presentation" className="muted" style={optionStyle?.(false)}>
          {props.empty}
        </li>
      ) : (
        hits.map((hit, n) => (
          <li
            key={hit.id}
            id={optionId(listId, hit)}
            role="option"
            aria-selected={n === active}
            className={n === active ? 'active' : undefined}
            style={optionStyle?.(n === active)}
            // Keep the focus in the input; the click picks.
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => search.setActive(n)}
            onClick={() => search.pick(hit)}
          >
            {props.children(hit)}
          </li>
        ))
      )}
    </ul>
  );
}

export interface SearchFieldProps<T extends Hit> extends Pick<RemoteSearchOptions<T>, 'search' | 'delayMs' | 'onPick'> {
  label: string;
  /** The suggestion list's accessible name; "<label> suggestions" by default. */
  listLabel?: string;
  placeholder: string;
  /** The field's classes ("field" by default) and style. */
  className?: string;
  style?: CSSProperties;
  disabled?: boolean;
  describedBy?: string | undefined;
  /** Kept true while the suggestion list is open (a dialog then leaves Esc to the list). */
  listOpen?: MutableRefObject<boolean>;
  /** An option's content. */
  children: (hit: T) => ReactNode;
}

/**
 * A labelled search field with its suggestion list. Picking a hit empties the field; Enter
 * never submits the surrounding form.
 */
export function SearchField<T extends Hit>(props: SearchFieldProps<T>) {
  const { label, listOpen, onPick } = props;
  const [text, setText] = useState('');
  const search = useRemoteSearch({
    search: props.search,
    delayMs: props.delayMs,
    onPick: (hit: T) => {
      setText('');
      onPick(hit);
    },
  });
  const inputId = useId();
  const open = search.hits !== null;

  // As the list is committed, not after the paint: an Escape pressed at once must find it open.
  useLayoutEffect(() => {
    if (listOpen) listOpen.current = open;
  }, [open, listOpen]);
  useEffect(
    () => () => {
      if (listOpen) listOpen.current = false;
    },
    [listOpen],
  );

  return (
    <div className={props.className ?? 'field'} style={props.style}>
      <label htmlFor={inputId}>{label}</label>
      <input
        {...search.inputProps}
        id={inputId}
        type="text"
        placeholder={props.placeholder}
        value={text}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(e) => {
          setText(e.target.value);
          search.schedule(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.preventDefault();
          search.onListKey(e, text);
        }}
      />
      <SuggestionList search={search} label={props.listLabel ?? `${label} suggestions`} empty="No Data" className="picker-list">
        {props.children}
      </SuggestionList>
    </div>
  );
}
