import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, navigation } from '../src/lib/api';
import { captureToasts, mockFetch, sentHeaders, setMeta } from './helpers';

let capture: ReturnType<typeof captureToasts>;

beforeEach(() => {
  capture = captureToasts();
});
afterEach(() => {
  capture.stop();
  vi.useRealTimers();
});

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('apiFetch request', () => {
  it('calls /api + path with the cookie, JSON headers, CSRF token and org id from the meta tags', async () => {
    setMeta('csrf-token', 'tok-123');
    setMeta('org-id', '9');
    const fetch = mockFetch(200, { data: { ok: true } });

    const result = await apiFetch('/password', { method: 'POST', json: { password: 's3cret' } });

    expect(result).toEqual({ data: { ok: true } });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/password');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"password":"s3cret"}');
    expect(sentHeaders(init)).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      'x-csrf-token': 'tok-123',
      'x-org-id': '9',
    });
    expect(capture.toasts).toEqual([]);
  });

  it('reads the meta tags at call time, not when the module loaded', async () => {
    const fetch = mockFetch(200, {});
    await apiFetch('brands');
    expect(fetch.mock.calls[0]![0]).toBe('/api/brands');
    expect(fetch.mock.calls[0]![1]?.method).toBe('GET');
    expect(fetch.mock.calls[0]![1]?.body).toBeUndefined();
    expect(sentHeaders(fetch.mock.calls[0]![1])['x-csrf-token']).toBeUndefined();

    setMeta('csrf-token', 'later');
    setMeta('org-id', '4');
    await apiFetch('/brands');
    expect(sentHeaders(fetch.mock.calls[1]![1])['x-csrf-token']).toBe('later');
    expect(sentHeaders(fetch.mock.calls[1]![1])['x-org-id']).toBe('4');
  });

  it('resolves null for an empty success body', async () => {
    mockFetch(204);
    await expect(apiFetch('/orders/1/void', { method: 'POST' })).resolves.toBeNull();
  });
});

describe('apiFetch error catalogue', () => {
  it('401: toasts the login-expired message for 5 s, then goes to /login', async () => {
    vi.useFakeTimers();
    const toLogin = vi.spyOn(navigation, 'toLogin').mockImplementation(() => {});
    mockFetch(401, { message: 'Unauthenticated.' });

    const err = await failure(apiFetch('/account'));

    expect(err.status).toBe(401);
    expect(capture.toasts).toEqual([
      { text: 'Login info expired, please login again', level: 'error', ms: 5000 },
    ]);
    expect(toLogin).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(toLogin).toHaveBeenCalledTimes(1);
  });

  it('429: toasts the slow-down message for 5 s', async () => {
    mockFetch(429, { message: 'Too Many Attempts.' });
    const err = await failure(apiFetch('/password', { method: 'POST', json: {} }));
    expect(err.status).toBe(429);
    expect(capture.toasts).toEqual([
      { text: 'Too many attempts, please slow down the fresh pace', level: 'error', ms: 5000 },
    ]);
  });

  it('500: toasts the server message', async () => {
    mockFetch(500, { message: 'Database is locked' });
    const err = await failure(apiFetch('/orders'));
    expect(err.status).toBe(500);
    expect(err.message).toBe('Database is locked');
    expect(capture.toasts).toEqual([{ text: 'Database is locked', level: 'error', ms: 5000 }]);
  });

  it('500: a message list is passed on as paragraphs', async () => {
    mockFetch(500, { message: ['First problem', 'Second problem'] });
    await failure(apiFetch('/orders'));
    expect(capture.toasts).toEqual([
      { text: ['First problem', 'Second problem'], level: 'error', ms: 5000 },
    ]);
  });

  it('other statuses: the message (validation 3.5 s) and the field errors on the ApiError', async () => {
    mockFetch(422, { message: 'The given data was invalid.', errors: { password: 'Too short', confirm: ['Nope', 'x'] } });
    const err = await failure(apiFetch('/password', { method: 'POST', json: { password: 'a' } }));
    expect(err.status).toBe(422);
    expect(err.message).toBe('The given data was invalid.');
    expect(err.errors).toEqual({ password: 'Too short', confirm: 'Nope' });
    expect(capture.toasts).toEqual([
      { text: 'The given data was invalid.', level: 'error', ms: 3500 },
    ]);
  });

  it('other statuses without a JSON message: the raw text for 5 s', async () => {
    mockFetch(502, 'Bad gateway from proxy');
    const err = await failure(apiFetch('/orders'));
    expect(err.status).toBe(502);
    expect(capture.toasts).toEqual([{ text: 'Bad gateway from proxy', level: 'error', ms: 5000 }]);
  });

  it('no response: toasts "Http Error" and throws status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const err = await failure(apiFetch('/orders'));
    expect(err.status).toBe(0);
    expect(err.message).toBe('Http Error');
    expect(capture.toasts).toEqual([{ text: 'Http Error', level: 'error', ms: 5000 }]);
  });

  it('an aborted request is rethrown without a toast', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))),
    );
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(apiFetch('/orders', { signal: ctrl.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(capture.toasts).toEqual([]);
  });

  it('409 org_changed: dispatches td:org-changed instead of a toast', async () => {
    const orgChanged = vi.fn();
    document.addEventListener('td:org-changed', orgChanged);
    mockFetch(409, { message: 'Organization has been changed, reload the page ?', code: 'org_changed' });
    try {
      const err = await failure(apiFetch('/orders'));
      expect(err.status).toBe(409);
      expect(err.code).toBe('org_changed');
      expect(orgChanged).toHaveBeenCalledTimes(1);
      expect(capture.toasts).toEqual([]);
    } finally {
      document.removeEventListener('td:org-changed', orgChanged);
    }
  });

  it('a 409 without the org_changed code is an ordinary error', async () => {
    const orgChanged = vi.fn();
    document.addEventListener('td:org-changed', orgChanged);
    mockFetch(409, { message: 'Confirm Approve' });
    try {
      await failure(apiFetch('/orders/1/approve', { method: 'POST' }));
      expect(orgChanged).not.toHaveBeenCalled();
      expect(capture.toasts).toEqual([{ text: 'Confirm Approve', level: 'error', ms: 5000 }]);
    } finally {
      document.removeEventListener('td:org-changed', orgChanged);
    }
  });
});
