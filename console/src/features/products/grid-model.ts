// The bulk-edit grid's logic, pure (console/test/grid-model.test.ts): the cells, the cursor and the keys that move it,
// a column copied as text, text pasted from a spreadsheet (tab and newline separated) from the cursor on, fill down,
// each cell checked as the server checks it, and the one batch the save sends (only what changed).

export const GRID_FIELDS = ['name', 'price', 'sale_price', 'compare_at_price', 'stock', 'status'] as const;
export type GridField = (typeof GRID_FIELDS)[number];

export const GRID_LABEL: Record<GridField, string> = {
  name: 'Name',
  price: 'Price',
  sale_price: 'Sale price',
  compare_at_price: 'Compare-at price',
  stock: 'Stock',
  status: 'Status',
};

const STATUSES = ['draft', 'active', 'archived', 'out_of_stock'];
const DECIMAL = /^\d{1,15}(\.\d{1,4})?$/;

export interface GridRow {
  id: number;
  sku: string;
  /** The values as the server has them (text; '' for none). */
  original: Record<GridField, string>;
  values: Record<GridField, string>;
}

export interface Cursor {
  row: number;
  col: number;
}

export interface GridProduct {
  id: number;
  sku: string;
  name: string;
  price: string | null;
  sale_price: string | null;
  compare_at_price?: string | null;
  stock: number;
  status: string;
}

/** A price as the merchant reads it: the server's `19.9000` is `19.90`. */
const money = (value: string | null | undefined) => {
  if (value === null || value === undefined) return '';
  const [whole, fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
};

export function gridRows(products: GridProduct[]): GridRow[] {
  return products.map((p) => {
    const original = {
      name: p.name,
      price: money(p.price),
      sale_price: money(p.sale_price),
      compare_at_price: money(p.compare_at_price),
      stock: String(p.stock),
      status: p.status,
    };
    return { id: p.id, sku: p.sku, original, values: { ...original } };
  });
}

/** Where an arrow key (or Home/End) takes the cursor; it stays inside the grid. */
export function moveCursor(cursor: Cursor, key: string, rows: number, cols = GRID_FIELDS.length): Cursor {
  const clamp = (n: number, max: number) => Math.max(0, Math.min(max - 1, n));
  switch (key) {
    case 'ArrowUp':
      return { ...cursor, row: clamp(cursor.row - 1, rows) };
    case 'ArrowDown':
      return { ...cursor, row: clamp(cursor.row + 1, rows) };
    case 'ArrowLeft':
      return { ...cursor, col: clamp(cursor.col - 1, cols) };
    case 'ArrowRight':
      return { ...cursor, col: clamp(cursor.col + 1, cols) };
    case 'Home':
      return { ...cursor, col: 0 };
    case 'End':
      return { ...cursor, col: cols - 1 };
    default:
      return cursor;
  }
}

/** Text cleaned as a cell takes it: trimmed, a decimal comma read as a point in the money and stock columns. */
export function cellText(field: GridField, text: string): string {
  const t = text.trim();
  if (field === 'name' || field === 'status') return field === 'status' ? t.toLowerCase().replace(/ /g, '_') : t;
  return t.replace(/^[€$£]\s*/, '').replace(',', '.');
}

export function setCell(rows: GridRow[], at: Cursor, text: string): GridRow[] {
  const field = GRID_FIELDS[at.col];
  return rows.map((r, i) => (i === at.row ? { ...r, values: { ...r.values, [field]: cellText(field, text) } } : r));
}

/** The cursor's column, from the cursor's row down, as text one value a line (what a spreadsheet pastes back). */
export function copyColumn(rows: GridRow[], at: Cursor): string {
  const field = GRID_FIELDS[at.col];
  return rows
    .slice(at.row)
    .map((r) => r.values[field])
    .join('\n');
}

/**
 * Pasted text (lines of tab-separated cells, as a spreadsheet copies them) written from the cursor down and to the
 * right; what falls outside the grid is left out. A trailing newline (spreadsheets add one) is no extra line.
 */
export function paste(rows: GridRow[], at: Cursor, text: string): GridRow[] {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  let next = rows;
  lines.forEach((line, i) => {
    line.split('\t').forEach((cell, j) => {
      const row = at.row + i;
      const col = at.col + j;
      if (row < rows.length && col < GRID_FIELDS.length) next = setCell(next, { row, col }, cell);
    });
  });
  return next;
}

/** The cursor cell's value copied into every row below it, in its column. */
export function fillDown(rows: GridRow[], at: Cursor): GridRow[] {
  const field = GRID_FIELDS[at.col];
  const value = rows[at.row]?.values[field] ?? '';
  return rows.map((r, i) => (i > at.row ? { ...r, values: { ...r.values, [field]: value } } : r));
}

/** What is wrong with a cell's value, in the merchant's words; null: nothing. */
export function cellError(field: GridField, value: string): string | null {
  switch (field) {
    case 'name':
      return value === '' ? 'A name is needed' : value.length > 255 ? 'At most 255 characters' : null;
    case 'price':
    case 'sale_price':
    case 'compare_at_price':
      return value === '' || DECIMAL.test(value) ? null : 'An amount such as 19.99';
    case 'stock':
      return /^-?\d{1,10}$/.test(value) && Math.abs(Number(value)) <= 1_000_000_000 ? null : 'A whole number';
    case 'status':
      return STATUSES.includes(value) ? null : `One of ${STATUSES.join(', ')}`;
  }
}

export const isChanged = (row: GridRow, field: GridField) => row.values[field] !== row.original[field];

export function gridErrors(rows: GridRow[]): { row: number; field: GridField; message: string }[] {
  return rows.flatMap((r, row) =>
    GRID_FIELDS.filter((f) => isChanged(r, f))
      .map((field) => ({ row, field, message: cellError(field, r.values[field]) }))
      .filter((e): e is { row: number; field: GridField; message: string } => e.message !== null),
  );
}

export type BatchRow = { id: number } & Partial<Record<'name' | 'status', string>> &
  Partial<Record<'price' | 'sale_price' | 'compare_at_price', string | null>> & { stock?: number };

/** PATCH /api/products/batch's body: one row per product with a change, only the fields changed. */
export function batchBody(rows: GridRow[]): { products: BatchRow[] } {
  const products: BatchRow[] = [];
  for (const r of rows) {
    const row: Record<string, unknown> = { id: r.id };
    for (const field of GRID_FIELDS) {
      if (!isChanged(r, field)) continue;
      const v = r.values[field];
      row[field] = field === 'stock' ? Number(v) : field === 'name' || field === 'status' ? v : v === '' ? null : v;
    }
    if (Object.keys(row).length > 1) products.push(row as BatchRow);
  }
  return { products };
}

export const changedCount = (rows: GridRow[]) => rows.reduce((n, r) => n + GRID_FIELDS.filter((f) => isChanged(r, f)).length, 0);
