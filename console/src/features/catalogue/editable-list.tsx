// A catalogue list whose rows are edited in a form beside it (the reference lists, the attributes): its table, a column
// each, the first naming the row, then each row's Edit and Delete buttons (the row being edited is marked); and the end
// of the form.
import type { ReactNode } from 'react';

export interface TableColumn<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

export function EditableTable<Row>({
  caption,
  columns,
  rows,
  keyOf,
  nameOf,
  editing,
  onEdit,
  onDelete,
}: {
  caption: string;
  columns: TableColumn<Row>[];
  rows: Row[];
  keyOf: (row: Row) => string | number;
  /** The row's name, which the buttons say to a screen reader. */
  nameOf: (row: Row) => string;
  editing: Row | null;
  onEdit: (row: Row) => void;
  /** Absent: the rows cannot be deleted (no Delete button). */
  onDelete?: (row: Row) => void;
}) {
  const editingKey = editing === null ? null : keyOf(editing);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const name = nameOf(row);
            return (
              <tr key={keyOf(row)} aria-current={editingKey === keyOf(row) ? 'true' : undefined}>
                {columns.map((c, i) =>
                  i === 0 ? (
                    <th key={c.label} scope="row" className={c.className}>
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.label} className={c.className}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
                <td>
                  <div className="actions nowrap">
                    <button type="button" className="button secondary small" onClick={() => onEdit(row)}>
                      Edit<span className="visually-hidden"> {name}</span>
                    </button>
                    {onDelete && (
                      <button type="button" className="button secondary small danger-text" onClick={() => onDelete(row)}>
                        Delete<span className="visually-hidden"> {name}</span>
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The end of the form: why the save failed (a problem of no field; one beside a field is said again to a screen
 * reader), then the submit button and, while a row is edited, Cancel.
 */
export function FormEnd({
  general,
  fieldMessage,
  saving,
  submitLabel,
  onCancel,
}: {
  general: string | null;
  fieldMessage?: string | null;
  saving: boolean;
  submitLabel: string;
  /** Absent: nothing to cancel (a new row). */
  onCancel?: () => void;
}) {
  return (
    <>
      {general && (
        <p role="alert" className="banner error">
          {general}
        </p>
      )}
      {fieldMessage && (
        <p role="alert" className="visually-hidden">
          {fieldMessage}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}
