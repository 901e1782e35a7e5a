import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type RefObject } from 'react';
import { ApiError, apiFetch, toast, TOAST_SHORT_MS } from '../../lib/api';
import { DialogForm, DialogFrame } from '../../lib/dialog';
import { errorAria, FieldError } from '../../lib/form';

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
// The first render is always the closed dialog (the server's HTML); `defaultOpen` opens it
// right after mounting or hydrating.
export function ChangePassword({ userName, defaultOpen = false }: ChangePasswordProps) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (defaultOpen) setOpen(true);
  }, [defaultOpen]);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const inputs: Record<Field, RefObject<HTMLInputElement | null>> = { password: passwordRef, confirm: confirmRef };
  const id = useId();

  const setFieldError = (field: Field, message: string | undefined) =>
    setErrors((prev) => ({ ...prev, [field]: message }));

  const reset = () => {
    setPassword('');
    setConfirm('');
    setErrors({});
    setSubmitting(false);
  };

  const onOpenChange = (next: boolean) => {
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

  /** A password input with its label and message; `check` gives its message on leaving it. */
  const passwordField = (
    field: Field,
    label: string,
    value: string,
    onChange: (e: ChangeEvent<HTMLInputElement>) => void,
    check: () => string | undefined,
  ) => {
    const fieldId = `${id}-${field}`;
    return (
      <div className="field">
        <label htmlFor={fieldId}>{label}</label>
        <input
          ref={inputs[field]}
          id={fieldId}
          name={field}
          type="password"
          autoComplete="new-password"
          value={value}
          onChange={onChange}
          onBlur={() => setFieldError(field, check())}
          {...errorAria(fieldId, errors[field])}
        />
        <FieldError of={fieldId} message={errors[field]} />
      </div>
    );
  };

  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      busy={submitting}
      title="Change Password"
      description={userName ? `New password for ${userName}.` : null}
      trigger={
        <button type="button" className="btn link">
          Change Password
        </button>
      }
    >
      <DialogForm onSubmit={onSubmit} submit="Submit" busyLabel="Submitting…" busy={submitting}>
        {passwordField('password', 'Password', password, onPasswordChange, () => validatePassword(password))}
        {passwordField('confirm', 'Confirm Password', confirm, onConfirmChange, () => validateConfirm(password, confirm))}
      </DialogForm>
    </DialogFrame>
  );
}
