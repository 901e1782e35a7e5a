// Pieces every island form shares: the message under a field (wired to its input with
// aria-invalid / aria-describedby) and the primary submit button with its busy state.
import type { CSSProperties } from 'react';

/** The id of the message shown under the field whose input has id `id`. */
export function errorIdOf(id: string): string {
  return `${id}-error`;
}

/**
 * aria-invalid and aria-describedby for the input `id` while it shows `error`; without an
 * error the input is described by `hintId`, if any.
 */
export function errorAria(id: string, error: string | null | undefined, hintId?: string) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorIdOf(id) : hintId,
  } as const;
}

export interface FieldErrorProps {
  /** The id of the input the message belongs to. */
  of: string;
  message: string | null | undefined;
  /** Classes besides `field-error`. */
  className?: string;
  style?: CSSProperties;
}

/** The message under a field, announced when it appears; nothing while there is none. */
export function FieldError({ of, message, className, style }: FieldErrorProps) {
  return message ? (
    <div className={className ? `field-error ${className}` : 'field-error'} id={errorIdOf(of)} role="alert" style={style}>
      {message}
    </div>
  ) : null;
}

export interface SubmitButtonProps {
  label: string;
  /** Shown instead of `label` while the request runs, e.g. "Saving…". */
  busyLabel: string;
  busy: boolean;
}

/** The form's primary button; disabled, marked busy and relabelled while a request runs. */
export function SubmitButton({ label, busyLabel, busy }: SubmitButtonProps) {
  return (
    <button type="submit" className="btn primary" disabled={busy} aria-busy={busy || undefined}>
      {busy ? busyLabel : label}
    </button>
  );
}
