// The data tables' shared row.

export interface EmptyRowProps {
  /** How many columns the row spans. */
  columns: number;
  /** What the table says when it has no rows. */
  text?: string;
}

/** The row a table shows when it has nothing to list. */
export function EmptyRow({ columns, text = 'No Data' }: EmptyRowProps) {
  return (
    <tr>
      <td className="empty" colSpan={columns}>
        {text}
      </td>
    </tr>
  );
}
