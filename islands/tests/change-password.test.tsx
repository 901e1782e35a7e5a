import { act, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangePassword } from '../src/islands/change-password/ChangePassword';
import { mount } from '../src/islands/change-password/index';
import { captureToasts, mockFetch, sentHeaders, setMeta } from './helpers';

let capture: ReturnType<typeof captureToasts>;

beforeEach(() => {
  capture = captureToasts();
  setMeta('csrf-token', 'csrf-abc');
  setMeta('org-id', '3');
});
afterEach(() => capture.stop());

async function openDialog() {
  const user = userEvent.setup();
  render(<ChangePassword userName="Ann Lee" />);
  const trigger = screen.getByRole('button', { name: 'Change Password' });
  expect(trigger.className).toBe('btn link');
  expect(screen.queryByRole('dialog')).toBeNull();
  await user.click(trigger);
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  const password = within(dialog).getByLabelText('Password') as HTMLInputElement;
  const confirm = within(dialog).getByLabelText('Confirm Password') as HTMLInputElement;
  return { user, dialog, password, confirm };
}

const fieldErrors = (dialog: HTMLElement) =>
  Array.from(dialog.querySelectorAll('.field-error')).map((e) => e.textContent);

describe('change-password island', () => {
  it('starts closed and opens a dialog with the two password fields', async () => {
    const { dialog, password, confirm } = await openDialog();
    expect(dialog.classList.contains('dialog')).toBe(true);
    expect(document.querySelector('.dialog-overlay')).not.toBeNull();
    expect(dialog.querySelector('h2')?.textContent).toBe('Change Password');
    expect(dialog.textContent).toContain('Ann Lee');
    expect(password.name).toBe('password');
    expect(password.type).toBe('password');
    expect(confirm.name).toBe('confirm');
    expect(confirm.type).toBe('password');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Submit' }).className).toBe('btn primary');
  });

  it('validates on blur: empty password, then a different confirmation', async () => {
    const fetch = mockFetch(200, {});
    const { user, dialog, password, confirm } = await openDialog();
    expect(fieldErrors(dialog)).toEqual([]);

    await user.click(password);
    await user.tab(); // blur the empty password
    expect(fieldErrors(dialog)).toEqual(['Password can not be empty']);
    expect(password.closest('.field')?.querySelector('.field-error')?.textContent).toBe(
      'Password can not be empty',
    );

    await user.type(password, 'abc123');
    expect(fieldErrors(dialog)).toEqual([]);
    await user.type(confirm, 'abc124');
    await user.tab();
    expect(fieldErrors(dialog)).toEqual(['Confirm Password is not the same']);
    expect(confirm.closest('.field')?.querySelector('.field-error')?.textContent).toBe(
      'Confirm Password is not the same',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('validates on submit and does not call the API when invalid', async () => {
    const fetch = mockFetch(200, {});
    const { user, dialog, password, confirm } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(fieldErrors(dialog)).toEqual(['Password can not be empty']);

    await user.type(password, 'new-pass');
    await user.type(confirm, 'new-pasz');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(fieldErrors(dialog)).toEqual(['Confirm Password is not the same']);

    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(capture.toasts).toEqual([]);
  });

  it('posts {password} with the CSRF and org headers, toasts success, closes and clears', async () => {
    const fetch = mockFetch(200, { message: 'ok' });
    const { user, password, confirm } = await openDialog();

    await user.type(password, 'Tyre$2026');
    await user.type(confirm, 'Tyre$2026{Enter}'); // Enter in the confirm field submits

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/password');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(JSON.parse(String(init?.body))).toEqual({ password: 'Tyre$2026' });
    const headers = sentHeaders(init);
    expect(headers['x-csrf-token']).toBe('csrf-abc');
    expect(headers['x-org-id']).toBe('3');
    expect(headers['content-type']).toBe('application/json');
    expect(capture.toasts).toEqual([
      { text: 'Password has been changed successfully', level: 'success', ms: 3500 },
    ]);

    // Reopening shows empty fields.
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((within(dialog).getByLabelText('Confirm Password') as HTMLInputElement).value).toBe('');
  });

  it('on a server error keeps the dialog open and shows the field errors', async () => {
    mockFetch(422, { message: 'The given data was invalid.', errors: { password: 'Password is too short' } });
    const { user, dialog, password, confirm } = await openDialog();

    await user.type(password, 'a');
    await user.type(confirm, 'a');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(fieldErrors(dialog)).toEqual(['Password is too short']));
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(password.value).toBe('a');
    expect(capture.toasts).toEqual([{ text: 'The given data was invalid.', level: 'error', ms: 3500 }]);
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', false);
  });

  it('Cancel closes the dialog and clears what was typed', async () => {
    const { user, dialog, password } = await openDialog();
    await user.type(password, 'half-typed');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const reopened = await screen.findByRole('dialog');
    expect((within(reopened).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(fieldErrors(reopened)).toEqual([]);
  });

  it('defaultOpen starts with the dialog open; closing works as usual', async () => {
    const user = userEvent.setup();
    render(<ChangePassword userName="Ann Lee" defaultOpen />);
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(dialog.querySelector('h2')?.textContent).toBe('Change Password');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('mount() opens the dialog only for __activate: true', async () => {
    for (const [activate, opens] of [[true, true], ['true', false], [undefined, false]] as const) {
      const el = document.createElement('div');
      document.body.append(el);
      let unmount = () => {};
      await act(async () => {
        unmount = mount(el, { userName: 'Ann', __activate: activate });
      });
      expect(el.querySelector('button')?.textContent).toBe('Change Password');
      expect(screen.queryByRole('dialog') !== null).toBe(opens);
      await act(async () => unmount());
      el.remove();
    }
  });
});
