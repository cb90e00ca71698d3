// The bulk-edit grid: the chosen products in a spreadsheet. Arrow keys move between cells, Enter or F2 edits (Enter
// again or Tab keeps the text, Escape drops it), Ctrl+C copies the cell's column from it down, Ctrl+V pastes a
// spreadsheet's cells from it, Ctrl+D fills down. Nothing is saved until Save, which sends every change as one batch:
// all of it is saved, or none (the server names each row it refused). The logic is grid-model.ts.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/errors';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import {
  batchBody,
  type Cursor,
  cellError,
  changedCount,
  copyColumn,
  fillDown,
  GRID_FIELDS,
  GRID_LABEL,
  type GridProduct,
  type GridRow,
  gridErrors,
  gridRows,
  isChanged,
  moveCursor,
  paste,
  setCell,
} from './grid-model';
import { STATUS_LABEL, STATUSES } from './product-model';
import { useBatchSave } from './workbench-api';

export function ProductGrid({ products, onClose }: { products: GridProduct[]; onClose: () => void }) {
  const [rows, setRows] = useState<GridRow[]>(() => gridRows(products));
  const [cursor, setCursor] = useState<Cursor>({ row: 0, col: 0 });
  const [editing, setEditing] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const save = useBatchSave();
  const table = useRef<HTMLTableElement>(null);
  const changes = changedCount(rows);
  const errors = gridErrors(rows);
  useUnsavedChanges(changes > 0 && !save.isSuccess);

  useEffect(() => {
    // The cursor's cell has the focus (one tab stop for the whole grid, as a spreadsheet).
    if (editing === null) table.current?.querySelector<HTMLElement>(`[data-cell="${cursor.row}-${cursor.col}"]`)?.focus();
  }, [cursor, editing]);

  const commit = (text: string, then: Cursor = cursor) => {
    setRows((r) => setCell(r, cursor, text));
    setEditing(null);
    setCursor(then);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (editing !== null) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'c') {
      e.preventDefault();
      void navigator.clipboard?.writeText(copyColumn(rows, cursor)).then(
        () => setNote(`Copied the ${GRID_LABEL[GRID_FIELDS[cursor.col]]} column from row ${cursor.row + 1} down.`),
        () => setNote('The clipboard is not available here.'),
      );
    } else if (mod && e.key.toLowerCase() === 'd') {
      e.preventDefault();
      setRows((r) => fillDown(r, cursor));
      setNote(`Filled ${GRID_LABEL[GRID_FIELDS[cursor.col]]} down from row ${cursor.row + 1}.`);
    } else if (e.key === 'Enter' || e.key === 'F2') {
      e.preventDefault();
      setEditing(rows[cursor.row].values[GRID_FIELDS[cursor.col]]);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      setRows((r) => setCell(r, cursor, ''));
    } else if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      setCursor((c) => moveCursor(c, e.key, rows.length));
    } else if (e.key.length === 1 && !mod && !e.altKey) {
      // Typing over a cell starts editing it with that character, as a spreadsheet does (the status is picked instead).
      e.preventDefault();
      setEditing(GRID_FIELDS[cursor.col] === 'status' ? rows[cursor.row].values.status : e.key);
    }
  };

  const submit = () => {
    setNote('');
    save.mutate(batchBody(rows).products, {
      onSuccess: (done) => {
        setNote(`Saved ${done.updated.toLocaleString()} ${done.updated === 1 ? 'product' : 'products'}.`);
        setRows((r) => r.map((row) => ({ ...row, original: { ...row.values } })));
      },
    });
  };

  return (
    <section className="bulk-grid" aria-labelledby="grid-title">
      <div className="grid-head">
        <h2 id="grid-title">Edit {rows.length.toLocaleString()} products</h2>
        <p className="hint">Arrow keys move, Enter edits, Ctrl+C copies a column, Ctrl+V pastes from a spreadsheet, Ctrl+D fills down.</p>
      </div>
      <div className="table-wrap">
        <table
          ref={table}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a data grid (WAI-ARIA's grid pattern): the table's keys move a cursor over its cells
          role="grid"
          aria-labelledby="grid-title"
          className="grid-table"
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            if (editing !== null) return;
            e.preventDefault();
            setRows((r) => paste(r, cursor, e.clipboardData.getData('text/plain')));
            setNote(`Pasted into ${GRID_LABEL[GRID_FIELDS[cursor.col]]} from row ${cursor.row + 1}.`);
          }}
        >
          <thead>
            <tr>
              <th scope="col">SKU</th>
              {GRID_FIELDS.map((f) => (
                <th key={f} scope="col">
                  {GRID_LABEL[f]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.id}>
                <th scope="row" className="mono">
                  {r.sku}
                </th>
                {GRID_FIELDS.map((f, j) => {
                  const here = cursor.row === i && cursor.col === j;
                  const error = isChanged(r, f) ? cellError(f, r.values[f]) : null;
                  return (
                    // biome-ignore lint/a11y/useKeyWithClickEvents: a grid's cell; its keys are the grid's (onKeyDown on the table)
                    <td
                      key={f}
                      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the data grid above
                      role="gridcell"
                      data-cell={`${i}-${j}`}
                      tabIndex={here && editing === null ? 0 : -1}
                      aria-selected={here}
                      aria-invalid={error ? true : undefined}
                      title={error ?? undefined}
                      className={`${isChanged(r, f) ? 'changed' : ''}${error ? ' invalid' : ''}${here ? ' cursor' : ''}`}
                      onClick={() => setCursor({ row: i, col: j })}
                      onDoubleClick={() => setEditing(r.values[f])}
                    >
                      {here && editing !== null && f === 'status' ? (
                        <select
                          aria-label={`${GRID_LABEL[f]} of ${r.sku}`}
                          value={editing}
                          // biome-ignore lint/a11y/noAutofocus: the cell being edited takes the focus, as in a spreadsheet
                          autoFocus
                          onChange={(e) => setEditing(e.target.value)}
                          onBlur={() => editing !== null && commit(editing)}
                          onKeyDown={(e) => {
                            if (e.key === 'Enter' || e.key === 'Tab') {
                              e.preventDefault();
                              commit(editing, moveCursor(cursor, e.key === 'Enter' ? 'ArrowDown' : e.shiftKey ? 'ArrowLeft' : 'ArrowRight', rows.length));
                            } else if (e.key === 'Escape') {
                              e.preventDefault();
                              setEditing(null);
                            }
                          }}
                        >
                          {STATUSES.map((st) => (
                            <option key={st} value={st}>
                              {STATUS_LABEL[st]}
                            </option>
                          ))}
                        </select>
                      ) : here && editing !== null ? (
                        <input
                          aria-label={`${GRID_LABEL[f]} of ${r.sku}`}
                          value={editing}
                          // biome-ignore lint/a11y/noAutofocus: the cell being edited takes the focus, as in a spreadsheet
                          autoFocus
                          onChange={(e) => setEditing(e.target.value)}
                          onBlur={() => editing !== null && commit(editing)}
                          onKeyDown={(e) => {
                            if (e.key === 'Enter') {
                              e.preventDefault();
                              commit(editing, moveCursor(cursor, 'ArrowDown', rows.length));
                            } else if (e.key === 'Tab') {
                              e.preventDefault();
                              commit(editing, moveCursor(cursor, e.shiftKey ? 'ArrowLeft' : 'ArrowRight', rows.length));
                            } else if (e.key === 'Escape') {
                              e.preventDefault();
                              setEditing(null);
                            }
                          }}
                        />
                      ) : f === 'status' ? (
                        (STATUS_LABEL[r.values[f]] ?? r.values[f])
                      ) : (
                        r.values[f]
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="grid-actions">
        <button type="button" className="button primary" disabled={changes === 0 || errors.length > 0 || save.isPending} onClick={submit}>
          {save.isPending ? 'Saving…' : `Save ${changes.toLocaleString()} ${changes === 1 ? 'change' : 'changes'}`}
        </button>
        <button type="button" className="button secondary" onClick={onClose}>
          Back to the list
        </button>
        <span role="status" aria-live="polite">
          {errors.length > 0 ? `${errors.length} ${errors.length === 1 ? 'cell needs' : 'cells need'} fixing before saving.` : note}
        </span>
      </div>
      {save.error && (
        <p className="error" role="alert">
          {save.error instanceof ApiError ? save.error.message : 'The changes could not be saved'}
        </p>
      )}
    </section>
  );
}
