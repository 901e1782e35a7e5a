// Multipart upload of a line spreadsheet (POST /api/ag/lines). apiFetch sends JSON only, so
// this sends FormData itself with the same CSRF / company headers and error reporting.
import {
  LOGIN_REDIRECT_DELAY_MS,
  MSG_HTTP_ERROR,
  MSG_LOGIN_EXPIRED,
  MSG_TOO_MANY,
  ORG_CHANGED_EVENT,
  TOAST_LONG_MS,
  TOAST_SHORT_MS,
  navigation,
  toast,
} from '../../lib/api';
import type { ImportedLine } from './types';

export const IMPORT_URL = '/api/ag/lines';

function meta(name: string): string | null {
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  return value ? value : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

function messages(body: unknown, fallback: string): string | string[] {
  const r = record(body);
  const lines = [...strings(r?.message), ...strings(r?.errors)];
  if (lines.length === 0) return fallback;
  return lines.length === 1 ? (lines[0] as string) : lines;
}

/**
 * Uploads `file` for a sheet of `orderType`. Resolves with the imported lines, or null after
 * reporting the failure (a 422 shows the server's message and errors in an error toast).
 */
export async function importLines(file: File, orderType: number): Promise<ImportedLine[] | null> {
  const form = new FormData();
  form.append('file', file);
  form.append('orderType', String(orderType));
  const headers: Record<string, string> = { Accept: 'application/json' };
  const csrf = meta('csrf-token');
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const org = meta('org-id');
  if (org) headers['X-Org-Id'] = org;

  let response: Response;
  let text: string;
  try {
    response = await fetch(IMPORT_URL, { method: 'POST', headers, body: form, credentials: 'same-origin' });
    text = await response.text();
  } catch {
    toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
    return null;
  }
  let body: unknown = null;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    body = text;
  }
  if (response.ok) {
    const data = record(body)?.data;
    if (Array.isArray(data)) return data as ImportedLine[];
    toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
    return null;
  }
  const status = response.status;
  if (status === 401) {
    toast(MSG_LOGIN_EXPIRED, 'error', TOAST_LONG_MS);
    setTimeout(() => navigation.toLogin(), LOGIN_REDIRECT_DELAY_MS);
    return null;
  }
  if (status === 429) {
    toast(MSG_TOO_MANY, 'error', TOAST_LONG_MS);
    return null;
  }
  if (status === 409 && record(body)?.code === 'org_changed') {
    document.dispatchEvent(new CustomEvent(ORG_CHANGED_EVENT));
    return null;
  }
  const raw = typeof body === 'string' ? body.trim().slice(0, 300) : '';
  const short = status === 400 || status === 403 || status === 422;
  toast(messages(body, raw || `HTTP ${status}`), 'error', short ? TOAST_SHORT_MS : TOAST_LONG_MS);
  return null;
}
