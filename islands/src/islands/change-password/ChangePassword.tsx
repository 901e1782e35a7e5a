import * as Dialog from '@radix-ui/react-dialog';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiError, apiFetch, toast, TOAST_SHORT_MS } from '../../lib/api';

export interface ChangePasswordProps {
  userName: string;
  /** Start with the dialog open (the lazy island was mounted by a click on its fallback). */
  defaultOpen?: boolean;
}

export const MSG_PASSWORD_EMPTY = 'Password can not be empty';
export const MSG_CONFIRM_DIFFERENT = 'Confirm Password is not the same';
export const MSG_PASSWORD_CHANGED = 'Password has been changed successfully';

type Field = 'password' | 'confirm';
type FieldErrors = Partial<Record<Field, string>>;

export function validatePassword(password: string): string | undefined {
  return password === '' ? MSG_PASSWORD_EMPTY : undefined;
}

export function validateConfirm(password: string, confirm: string): string | undefined {
  return confirm !== password ? MSG_CONFIRM_DIFFERENT : undefined;
}

/** Server field names → this form's fields. */
const SERVER_FIELDS: Record<string, Field> = {
  password: 'password',
  confirm: 'confirm',
  password_confirmation: 'confirm',
};

// SSR-safe: no browser globals during render; the API is only called from handlers.
// The initial open state comes from props only.
export function ChangePassword({ userName, defaultOpen = false }: ChangePasswordProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const passwordId = `${id}-password`;
  const confirmId = `${id}-confirm`;

  const setFieldError = (field: Field, message: string | undefined) =>
    setErrors((prev) => ({ ...prev, [field]: message }));

  const reset = () => {
    setPassword('');
    setConfirm('');
    setErrors({});
    setSubmitting(false);
  };

  const onOpenChange = (next: boolean) => {
    if (!next && submitting) return;
    setOpen(next);
    if (!next) reset();
  };

  const onPasswordChange = (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setPassword(value);
    // Once a message shows, it follows the typing.
    if (errors.password) setFieldError('password', validatePassword(value));
    if (errors.confirm) setFieldError('confirm', validateConfirm(value, confirm));
  };

  const onConfirmChange = (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setConfirm(value);
    if (errors.confirm) setFieldError('confirm', validateConfirm(password, value));
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    const next: FieldErrors = {
      password: validatePassword(password),
      confirm: validateConfirm(password, confirm),
    };
    setErrors(next);
    if (next.password) {
      passwordRef.current?.focus();
      return;
    }
    if (next.confirm) {
      confirmRef.current?.focus();
      return;
    }

    setSubmitting(true);
    try {
      await apiFetch('/password', { method: 'POST', json: { password } });
    } catch (err) {
      // apiFetch has already reported the error; keep the dialog open with field messages.
      setSubmitting(false);
      if (err instanceof ApiError) {
        const fieldErrors: FieldErrors = {};
        for (const [name, message] of Object.entries(err.errors)) {
          const field = SERVER_FIELDS[name];
          if (field) fieldErrors[field] = message;
        }
        setErrors(fieldErrors);
      }
      return;
    }
    toast(MSG_PASSWORD_CHANGED, 'success', TOAST_SHORT_MS);
    setOpen(false);
    reset();
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger type="button" className="btn link">
        Change Password
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          {...(userName ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title>Change Password</Dialog.Title>
          {userName ? (
            <Dialog.Description className="dialog-description">
              New password for {userName}.
            </Dialog.Description>
          ) : null}
          <form noValidate onSubmit={onSubmit}>
            <div className="field">
              <label htmlFor={passwordId}>Password</label>
              <input
                ref={passwordRef}
                id={passwordId}
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={onPasswordChange}
                onBlur={() => setFieldError('password', validatePassword(password))}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? `${passwordId}-error` : undefined}
              />
              {errors.password ? (
                <div className="field-error" id={`${passwordId}-error`} role="alert">
                  {errors.password}
                </div>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={confirmId}>Confirm Password</label>
              <input
                ref={confirmRef}
                id={confirmId}
                name="confirm"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={onConfirmChange}
                onBlur={() => setFieldError('confirm', validateConfirm(password, confirm))}
                aria-invalid={errors.confirm ? true : undefined}
                aria-describedby={errors.confirm ? `${confirmId}-error` : undefined}
              />
              {errors.confirm ? (
                <div className="field-error" id={`${confirmId}-error`} role="alert">
                  {errors.confirm}
                </div>
              ) : null}
            </div>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn" disabled={submitting}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn primary" disabled={submitting}>
                Submit
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
