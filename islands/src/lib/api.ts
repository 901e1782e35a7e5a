// JSON API client for islands (spec §7, error catalogue spec §8).
// SSR-safe: the DOM is only read inside functions, never when the module loads.

export type ToastLevel = 'success' | 'error' | 'warning' | 'info';

export interface ToastDetail {
  text: string | string[];
  level: ToastLevel;
  ms: number;
}

/** Validation and access messages. */
export const TOAST_SHORT_MS = 3500;
/** Every other message. */
export const TOAST_LONG_MS = 5000;

export const TOAST_EVENT = 'td:toast';
export const ORG_CHANGED_EVENT = 'td:org-changed';

export const MSG_LOGIN_EXPIRED = 'Login info expired, please login again';
export const MSG_TOO_MANY = 'Too many attempts, please slow down the fresh pace';
export const MSG_HTTP_ERROR = 'Http Error';

/** Delay between the 401 toast and the move to the sign-in page, so the toast is seen. */
export const LOGIN_REDIRECT_DELAY_MS = 1000;

/** A non-JSON error body is shown as is, cut to this length. */
const MAX_RAW_TEXT = 300;

/** Asks the page to show a toast (the page's own script renders it). */
export function toast(text: string | string[], level: ToastLevel, ms: number): void {
  const detail: ToastDetail = { text, level, ms };
  document.dispatchEvent(new CustomEvent<ToastDetail>(TOAST_EVENT, { detail }));
}

/** Navigation seam, replaceable in tests (jsdom cannot navigate). */
export const navigation = {
  toLogin(): void {
    window.location.href = '/login';
  },
};

export class ApiError extends Error {
  readonly status: number;
  /** Field name → message, from the server's `errors` object. */
  readonly errors: Record<string, string>;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(
    status: number,
    message: string,
    errors: Record<string, string> = {},
    code?: string,
    body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.code = code;
    this.body = body;
  }
}

export interface ApiOptions {
  method?: string;
  json?: unknown;
  signal?: AbortSignal;
}

function metaContent(name: string): string | null {
  const el = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  const value = el?.content;
  return value ? value : null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** `message` as the server sent it: a string, or a list of strings. */
function bodyMessage(body: unknown): string | string[] | null {
  const message = asRecord(body)?.message;
  if (typeof message === 'string' && message !== '') return message;
  if (Array.isArray(message)) {
    const lines = message.filter((m): m is string => typeof m === 'string' && m !== '');
    if (lines.length > 0) return lines;
  }
  return null;
}

/** `errors: {field: "msg"}` (a list per field keeps its first message). */
function bodyErrors(body: unknown): Record<string, string> {
  const raw = asRecord(asRecord(body)?.errors);
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (const [field, value] of Object.entries(raw)) {
    if (typeof value === 'string') out[field] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') out[field] = value[0];
  }
  return out;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true ||
    (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError')
  );
}

/**
 * Calls `/api` + path with the session cookie, the CSRF token and the current company.
 * Resolves with the parsed JSON body (null when empty). On failure it reports as the
 * error catalogue says (toast, sign-in redirect or org-changed event), then throws an
 * ApiError so the caller can show field errors.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = 'GET', json, signal } = options;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  const csrf = metaContent('csrf-token');
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const orgId = metaContent('org-id');
  if (orgId) headers['X-Org-Id'] = orgId;

  const url = '/api' + (path.startsWith('/') ? path : '/' + path);
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (json !== undefined) init.body = JSON.stringify(json);
  if (signal) init.signal = signal;

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, init);
    text = await response.text();
  } catch (err) {
    if (isAbort(err, signal)) throw err;
    toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
    throw new ApiError(0, MSG_HTTP_ERROR);
  }

  const body = parseBody(text);
  if (response.ok) return body as T;

  const status = response.status;
  const errors = bodyErrors(body);
  const codeValue = asRecord(body)?.code;
  const code = typeof codeValue === 'string' ? codeValue : undefined;
  const serverMessage = bodyMessage(body);
  const fallback = text.trim() !== '' ? text.trim().slice(0, MAX_RAW_TEXT) : `HTTP ${status}`;
  const firstLine = (m: string | string[] | null): string =>
    m === null ? fallback : typeof m === 'string' ? m : m.join('\n');

  if (status === 401) {
    toast(MSG_LOGIN_EXPIRED, 'error', TOAST_LONG_MS);
    setTimeout(() => navigation.toLogin(), LOGIN_REDIRECT_DELAY_MS);
    throw new ApiError(status, MSG_LOGIN_EXPIRED, errors, code, body);
  }
  if (status === 409 && code === 'org_changed') {
    document.dispatchEvent(new CustomEvent(ORG_CHANGED_EVENT));
    throw new ApiError(status, firstLine(serverMessage), errors, code, body);
  }
  if (status === 429) {
    toast(MSG_TOO_MANY, 'error', TOAST_LONG_MS);
    throw new ApiError(status, MSG_TOO_MANY, errors, code, body);
  }

  // 500 and every other status: the server's message (string or paragraphs), else the raw text.
  const shown: string | string[] = serverMessage ?? fallback;
  const isValidationOrAccess = status === 400 || status === 403 || status === 422;
  toast(shown, 'error', isValidationOrAccess ? TOAST_SHORT_MS : TOAST_LONG_MS);
  throw new ApiError(status, firstLine(serverMessage), errors, code, body);
}
