// The variants grid: one line per variant with what is changed most (enabled, SKU, name, prices, stock, barcode,
// weight), moved about from the keyboard as in a spreadsheet (variant-grid-model.ts); "More" opens a line below with its
// options, its stock, tax and shipping settings, and moving or deleting it.
import { Fragment, type KeyboardEvent, useId, useState } from 'react';
import { Field } from '../../components/field';
import type { Variant, VariantDraft } from './product-model';
import { SellingFields } from './product-storefront';
import { cellName, cellOf, gridMove } from './variant-grid-model';

export interface GridRow {
  /** `v{id}` for a saved variant, `n{n}` for one added here and not saved yet. */
  key: string;
  variant: Variant | null;
  /** The variant as saved; null for a new one. */
  before: VariantDraft | null;
  draft: VariantDraft;
}

type TextColumn = 'sku' | 'name' | 'price' | 'sale_price' | 'stock_quantity';
type SellingColumn = 'barcode' | 'compare_at_price' | 'weight';
interface Column {
  field: TextColumn | SellingColumn;
  /** The column's head; `label` names its cells (with the currency where it is a price). */
  head: string;
  label: (currency: string) => string;
  numeric?: boolean;
}
const COLUMNS: Column[] = [
  { field: 'sku', head: 'SKU', label: () => 'SKU' },
  { field: 'name', head: 'Name', label: () => 'Name' },
  { field: 'price', head: 'Price', label: (c) => `Price (${c})`, numeric: true },
  { field: 'sale_price', head: 'Sale price', label: (c) => `Sale price (${c})`, numeric: true },
  { field: 'compare_at_price', head: 'Compare-at', label: (c) => `Compare-at price (${c})`, numeric: true },
  { field: 'stock_quantity', head: 'Stock', label: () => 'Stock', numeric: true },
  { field: 'barcode', head: 'Barcode', label: () => 'Barcode' },
  { field: 'weight', head: 'Weight', label: () => 'Weight', numeric: true },
];
const isSelling = (field: Column['field']): field is SellingColumn => field === 'barcode' || field === 'compare_at_price' || field === 'weight';
/** Cells per line: the switch, the columns, "More". */
const CELLS = COLUMNS.length + 2;

export function VariantGrid({
  rows,
  errors,
  currency,
  busy,
  onEdit,
  onMove,
  onDelete,
  onRemoveNew,
}: {
  rows: GridRow[];
  errors: Record<string, Record<string, string>>;
  currency: string;
  busy: boolean;
  onEdit: (row: GridRow, draft: VariantDraft) => void;
  onMove: (variant: Variant, direction: -1 | 1) => void;
  onDelete: (variant: Variant) => void;
  onRemoveNew: (row: GridRow) => void;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const navigate = (event: KeyboardEvent<HTMLTableElement>) => {
    const target = event.target as HTMLElement;
    const at = cellOf(target.dataset.cell);
    if (!at || (event.key === 'Enter' && target instanceof HTMLButtonElement)) return;
    const text = target instanceof HTMLInputElement && target.type === 'text' ? target : null;
    const to = gridMove(
      at,
      {
        key: event.key,
        shiftKey: event.shiftKey,
        atStart: text ? text.selectionStart === 0 && text.selectionEnd === 0 : true,
        atEnd: text ? text.selectionEnd === text.value.length : true,
      },
      { rows: rows.length, cols: CELLS },
    );
    if (!to) return;
    const cell = event.currentTarget.querySelector<HTMLElement>(`[data-cell="${cellName(to)}"]`);
    if (!cell) return;
    event.preventDefault();
    cell.focus();
    if (cell instanceof HTMLInputElement && cell.type === 'text') cell.select();
  };

  return (
    <div className="variant-grid-scroll">
      <p className="hint">Prices in {currency}. Arrow keys and Enter move between cells; More has a variant's options and settings.</p>
      <table className="variant-grid" onKeyDown={navigate}>
        <thead>
          <tr>
            <th scope="col">On</th>
            {COLUMNS.map((c) => (
              <th key={c.field} scope="col" className={c.numeric ? 'numeric' : undefined}>
                {c.head}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">More</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <Fragment key={row.key}>
              <GridLine
                row={row}
                index={i}
                errors={errors[row.key] ?? {}}
                currency={currency}
                open={open.has(row.key)}
                onToggle={() => toggle(row.key)}
                onEdit={(draft) => onEdit(row, draft)}
              />
              {open.has(row.key) && (
                <MoreLine
                  row={row}
                  errors={errors[row.key] ?? {}}
                  currency={currency}
                  busy={busy}
                  first={i === 0 || rows[i - 1].variant === null}
                  last={i === rows.length - 1 || rows[i + 1].variant === null}
                  onEdit={(draft) => onEdit(row, draft)}
                  onMove={onMove}
                  onDelete={onDelete}
                  onRemoveNew={() => onRemoveNew(row)}
                />
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How a line is named to a screen reader, and in its controls' names: the variant's SKU, or "new variant N". */
const lineName = (row: GridRow, index: number) => (row.variant ? row.variant.sku : `new variant ${index + 1}`);

function GridLine({
  row,
  index,
  errors,
  currency,
  open,
  onToggle,
  onEdit,
}: {
  row: GridRow;
  index: number;
  errors: Record<string, string>;
  currency: string;
  open: boolean;
  onToggle: () => void;
  onEdit: (draft: VariantDraft) => void;
}) {
  const id = useId();
  const name = lineName(row, index);
  const { draft } = row;
  const cellValue = (field: Column['field']) => (isSelling(field) ? draft.selling[field] : draft[field]);
  const put = (field: Column['field'], value: string) =>
    onEdit(isSelling(field) ? { ...draft, selling: { ...draft.selling, [field]: value } } : { ...draft, [field]: value });
  const moreProblem = ['attributes', 'weight_unit', 'inventory_policy', 'inventory_tracked', 'taxable', 'requires_shipping'].some((k) => errors[k]);
  // A count kept per warehouse is their sum, set in the Stock section: shown here, not typed.
  const byWarehouse = (row.variant?.warehouse_stock?.length ?? 0) > 0;
  return (
    <tr data-row-key={row.key} className={`${draft.is_enabled ? '' : 'disabled'}${row.variant ? '' : ' new'}`}>
      <td>
        <input
          type="checkbox"
          data-cell={cellName({ row: index, col: 0 })}
          checked={draft.is_enabled}
          onChange={(e) => onEdit({ ...draft, is_enabled: e.target.checked })}
          aria-label={`${name} enabled`}
        />
      </td>
      {COLUMNS.map((c, col) => {
        const problem = errors[c.field];
        return (
          <td key={c.field} className={problem ? 'invalid' : undefined}>
            <input
              type="text"
              data-cell={cellName({ row: index, col: col + 1 })}
              data-field={c.field}
              value={cellValue(c.field)}
              onChange={(e) => put(c.field, e.target.value)}
              aria-label={`${c.label(currency)} of ${name}`}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-${c.field}` : undefined}
              inputMode={c.numeric ? (c.field === 'stock_quantity' ? 'numeric' : 'decimal') : undefined}
              className={c.numeric ? 'numeric' : undefined}
              readOnly={c.field === 'stock_quantity' && byWarehouse}
              title={c.field === 'stock_quantity' && byWarehouse ? 'Kept by warehouse: set in Stock' : undefined}
              autoComplete="off"
              spellCheck={false}
            />
            {c.field === 'weight' && <span className="variant-grid-unit">{draft.selling.weight_unit}</span>}
            {problem && (
              <small id={`${id}-${c.field}`} className="field-error">
                {problem}
              </small>
            )}
          </td>
        );
      })}
      <td>
        <button
          type="button"
          className={`button secondary small${moreProblem ? ' invalid' : ''}`}
          data-cell={cellName({ row: index, col: CELLS - 1 })}
          aria-expanded={open}
          onClick={onToggle}
        >
          More<span className="visually-hidden"> of {name}</span>
          {moreProblem && <span aria-hidden="true"> !</span>}
        </button>
      </td>
    </tr>
  );
}

function MoreLine({
  row,
  errors,
  currency,
  busy,
  first,
  last,
  onEdit,
  onMove,
  onDelete,
  onRemoveNew,
}: {
  row: GridRow;
  errors: Record<string, string>;
  currency: string;
  busy: boolean;
  first: boolean;
  last: boolean;
  onEdit: (draft: VariantDraft) => void;
  onMove: (variant: Variant, direction: -1 | 1) => void;
  onDelete: (variant: Variant) => void;
  onRemoveNew: () => void;
}) {
  const { draft, variant } = row;
  const name = variant ? variant.sku : 'the new variant';
  return (
    <tr className="variant-grid-more">
      <td colSpan={CELLS}>
        <section aria-label={`More of ${name}`}>
          <div className="product-variant-more-grid">
            <Field label="Options" error={errors.attributes} hint="e.g. Size: M, Colour: Navy">
              <input value={draft.options} onChange={(e) => onEdit({ ...draft, options: e.target.value })} autoComplete="off" />
            </Field>
            <SellingFields
              form={draft.selling}
              set={(selling) => onEdit({ ...draft, selling })}
              errors={errors}
              currency={currency}
              settingsOnly
              wrap={(children) => children}
            />
          </div>
          <p className="hint product-not-set">“Not set” leaves the store's own setting as it is.</p>
          <div className="actions">
            {variant ? (
              <>
                <button type="button" className="button secondary small" disabled={busy || first} onClick={() => onMove(variant, -1)}>
                  <span aria-hidden="true">↑ </span>Move up<span className="visually-hidden"> {name}</span>
                </button>
                <button type="button" className="button secondary small" disabled={busy || last} onClick={() => onMove(variant, 1)}>
                  <span aria-hidden="true">↓ </span>Move down<span className="visually-hidden"> {name}</span>
                </button>
                <button type="button" className="button danger small" disabled={busy} onClick={() => onDelete(variant)}>
                  Delete<span className="visually-hidden"> variant {name}</span>
                </button>
              </>
            ) : (
              <button type="button" className="button secondary small" onClick={onRemoveNew}>
                Remove this new variant
              </button>
            )}
          </div>
        </section>
      </td>
    </tr>
  );
}
