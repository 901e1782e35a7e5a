// The one dialog frame of the islands (Radix Dialog): overlay, title, optional description,
// the body, and the footer (Cancel / Close, a form's primary button). While a request runs
// the dialog is busy: it cannot be closed and its buttons are disabled.
// SSR-safe: Radix renders the portal only in the browser; a trigger renders as a button.
import * as Dialog from '@radix-ui/react-dialog';
import type { CSSProperties, FormEvent, ReactElement, ReactNode } from 'react';
import { SubmitButton } from './form';

/** A dialog opened from inside another sits above it (app.css puts dialogs at 50/51). */
const NESTED_OVERLAY: CSSProperties = { zIndex: 52 };
const NESTED_CONTENT: CSSProperties = { zIndex: 53 };

export interface DialogFrameProps {
  open: boolean;
  /** Radix asks to open or close; a close is not passed on while `busy`. */
  onOpenChange: (open: boolean) => void;
  /** A request runs: the dialog stays open. */
  busy?: boolean;
  title: ReactNode;
  /** The line under the title; null leaves the dialog without a description. */
  description?: ReactNode;
  /** The button that opens the dialog, when the island shows one. */
  trigger?: ReactElement;
  /** Classes after "dialog". */
  className?: string;
  style?: CSSProperties;
  /** Opened from inside another dialog. */
  nested?: boolean;
  onEscapeKeyDown?: (e: KeyboardEvent) => void;
  /** Where focus goes on close, for a dialog opened without its own `trigger`. */
  onCloseAutoFocus?: (e: Event) => void;
  children: ReactNode;
}

export function DialogFrame(props: DialogFrameProps) {
  const { open, onOpenChange, busy = false, title, description = null, trigger, nested = false } = props;
  const described = description !== null && description !== undefined;
  const onRootOpenChange = (next: boolean) => {
    // A running request keeps the dialog open.
    if (next || !busy) onOpenChange(next);
  };
  return (
    <Dialog.Root open={open} onOpenChange={onRootOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" style={nested ? NESTED_OVERLAY : undefined} />
        <Dialog.Content
          className={props.className ? `dialog ${props.className}` : 'dialog'}
          style={nested ? { ...NESTED_CONTENT, ...props.style } : props.style}
          // Radix points aria-describedby at the description; without one, say so.
          {...(described ? {} : { 'aria-describedby': undefined })}
          onEscapeKeyDown={props.onEscapeKeyDown}
          onCloseAutoFocus={props.onCloseAutoFocus}
        >
          <Dialog.Title>{title}</Dialog.Title>
          {described ? <Dialog.Description className="dialog-description">{description}</Dialog.Description> : null}
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export interface DialogFooterProps {
  /** The button that closes the dialog: "Cancel" (the default) or "Close". */
  close?: string;
  busy?: boolean;
  /** Buttons after the close button. */
  children?: ReactNode;
}

/** The dialog's buttons, right-aligned; the first one closes the dialog. */
export function DialogFooter({ close = 'Cancel', busy = false, children }: DialogFooterProps) {
  return (
    <div className="dialog-actions">
      <Dialog.Close asChild>
        <button type="button" className="btn" disabled={busy}>
          {close}
        </button>
      </Dialog.Close>
      {children}
    </div>
  );
}

export interface DialogFormProps {
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  /** The primary button's label, e.g. "Save", and its label while busy, e.g. "Saving…". */
  submit: string;
  busyLabel: string;
  busy: boolean;
  children: ReactNode;
}

/**
 * A dialog's form: the fields, then Cancel and the primary button. The island checks the
 * fields itself (`noValidate`) and says when the request runs (`busy`).
 */
export function DialogForm({ onSubmit, submit, busyLabel, busy, children }: DialogFormProps) {
  return (
    <form noValidate onSubmit={onSubmit}>
      {children}
      <DialogFooter busy={busy}>
        <SubmitButton label={submit} busyLabel={busyLabel} busy={busy} />
      </DialogFooter>
    </form>
  );
}

/** What a dialog shows while its data loads. */
export function Loading() {
  return (
    <p className="muted" role="status">
      Loading…
    </p>
  );
}
