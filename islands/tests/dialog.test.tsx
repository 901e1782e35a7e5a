// The shared dialog frame (lib/dialog.tsx): title and description, the footer, and the busy
// state while a request runs.
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { DialogFooter, DialogForm, DialogFrame } from '../src/lib/dialog';

function renderForm(busy: boolean, description: string | null = 'For one product.') {
  const onOpenChange = vi.fn();
  const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
  const ui = (b: boolean) => (
    <DialogFrame open onOpenChange={onOpenChange} busy={b} title="Edit" description={description} className="extra">
      <DialogForm onSubmit={onSubmit} submit="Save" busyLabel="Saving…" busy={b}>
        <input aria-label="Price" />
      </DialogForm>
    </DialogFrame>
  );
  const { rerender } = render(ui(busy));
  const dialog = screen.getByRole('dialog', { name: 'Edit' });
  return { dialog, onOpenChange, onSubmit, setBusy: (b: boolean) => rerender(ui(b)) };
}

describe('dialog frame', () => {
  it('names and describes the dialog, with the form, Cancel and the primary button', () => {
    const { dialog } = renderForm(false);
    expect(dialog.className).toBe('dialog extra');
    expect(dialog.querySelector('h2')?.textContent).toBe('Edit');
    const description = dialog.querySelector('.dialog-description')!;
    expect(description.textContent).toBe('For one product.');
    expect(dialog.getAttribute('aria-describedby')).toBe(description.id);
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.className, b.getAttribute('type')])).toEqual([
      ['Cancel', 'btn', 'button'],
      ['Save', 'btn primary', 'submit'],
    ]);
    expect(buttons[0]!.parentElement?.className).toBe('dialog-actions');
    expect(buttons[1]!.closest('form')?.noValidate).toBe(true);
  });

  it('has no aria-describedby without a description', () => {
    const { dialog } = renderForm(false, null);
    expect(dialog.hasAttribute('aria-describedby')).toBe(false);
    expect(dialog.querySelector('.dialog-description')).toBeNull();
  });

  it('while busy: buttons disabled, the busy label, and no closing', () => {
    const { dialog, onOpenChange, setBusy } = renderForm(false);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();

    setBusy(true);
    const save = within(dialog).getByRole('button', { name: 'Saving…' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect((within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onOpenChange).not.toHaveBeenCalled();

    setBusy(false);
    const again = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);
    expect(again.hasAttribute('aria-busy')).toBe(false);
  });

  it('a footer without a form closes with its one button', () => {
    const onOpenChange = vi.fn();
    render(
      <DialogFrame open onOpenChange={onOpenChange} title="History">
        <DialogFooter close="Close" />
      </DialogFrame>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
