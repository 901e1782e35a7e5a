// A line's CHK button, apart from the History dialog it opens (HistoryDialog.tsx): the rows
// need the button at once, the dialog's code (Radix) loads once the editor is live (issue 37).

export interface HistoryButtonProps {
  lineNo: number;
  productId: number | null;
  /** This row's history is showing. */
  open: boolean;
  onOpen: () => void;
}

/** A line's CHK: opens the editor's History dialog for the line's product. */
export function HistoryButton({ lineNo, productId, open, onOpen }: HistoryButtonProps) {
  return (
    <button
      type="button"
      className="btn small"
      disabled={productId === null}
      aria-label={`CHK history, line ${lineNo}`}
      aria-haspopup="dialog"
      aria-expanded={open}
      data-state={open ? 'open' : 'closed'}
      onClick={onOpen}
    >
      CHK
    </button>
  );
}
