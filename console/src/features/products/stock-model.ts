// The Stock section's table, pure: one row per variant (or the product itself, without variants) and one column per
// warehouse, each cell the stored level or the merchant's edit; totals per row, per warehouse and for the product.
// Warehouse id 0 is a row's own count, kept without warehouses (a product's stock, a variant's stock_quantity).

export interface StockLevel {
  warehouse_id: number;
  quantity: number;
}

/** A row as the server answers it: the product (variantId null) or one of its variants. */
export interface StockRow {
  variantId: number | null;
  label: string;
  /** Its count: the sum of its levels once it has any, else set directly. */
  count: number;
  levels: StockLevel[];
}

/** A cell's key in the edits: `p:<warehouse>` for the product, `<variant>:<warehouse>` for a variant. */
export const cellKey = (row: Pick<StockRow, 'variantId'>, warehouseId: number) => `${row.variantId ?? 'p'}:${warehouseId}`;

export function parseCellKey(key: string): { variantId: number | null; warehouseId: number } {
  const [row, warehouse] = key.split(':');
  return { variantId: row === 'p' ? null : Number(row), warehouseId: Number(warehouse) };
}

/** A quantity as typed: a whole number, not below zero for a warehouse level. */
export function quantityProblem(text: string, warehouseId: number): string | null {
  if (!/^-?\d{1,10}$/.test(text.trim())) return 'must be a whole number';
  if (warehouseId !== 0 && Number(text) < 0) return 'must be 0 or more';
  if (Math.abs(Number(text)) > 1_000_000_000) return 'must be at most 1,000,000,000';
  return null;
}

export const storedQuantity = (row: StockRow, warehouseId: number) =>
  warehouseId === 0 ? row.count : (row.levels.find((l) => l.warehouse_id === warehouseId)?.quantity ?? 0);

/** What a cell shows: the edit, else the stored quantity. */
export const cellText = (row: StockRow, warehouseId: number, edits: Record<string, string>) =>
  edits[cellKey(row, warehouseId)] ?? String(storedQuantity(row, warehouseId));

/** A cell's value for the totals: the edit when it is a number, else the stored quantity. */
const cellValue = (row: StockRow, warehouseId: number, edits: Record<string, string>) => {
  const text = edits[cellKey(row, warehouseId)];
  return text !== undefined && quantityProblem(text, warehouseId) === null ? Number(text) : storedQuantity(row, warehouseId);
};

/**
 * A row's total with the edits: with warehouses, the sum of its levels, unless it has none and none is edited (then its
 * own count, kept without warehouses); without warehouses, its own count.
 */
export function rowTotal(row: StockRow, warehouseIds: number[], edits: Record<string, string>): number {
  if (warehouseIds.length === 0) return cellValue(row, 0, edits);
  const leveled = row.levels.length > 0 || warehouseIds.some((id) => edits[cellKey(row, id)] !== undefined);
  return leveled ? warehouseIds.reduce((sum, id) => sum + cellValue(row, id, edits), 0) : row.count;
}

export const warehouseTotal = (rows: StockRow[], warehouseId: number, edits: Record<string, string>) =>
  rows.reduce((sum, row) => sum + cellValue(row, warehouseId, edits), 0);

export const grandTotal = (rows: StockRow[], warehouseIds: number[], edits: Record<string, string>) =>
  rows.reduce((sum, row) => sum + rowTotal(row, warehouseIds, edits), 0);

/** The edits that change something, as [cell key, quantity]; the problems of those that cannot be read, by cell key. */
export function pendingChanges(rows: StockRow[], edits: Record<string, string>): { changes: [string, number][]; problems: Record<string, string> } {
  const changes: [string, number][] = [];
  const problems: Record<string, string> = {};
  for (const [key, text] of Object.entries(edits)) {
    const { variantId, warehouseId } = parseCellKey(key);
    const row = rows.find((r) => r.variantId === variantId);
    if (!row) continue;
    const problem = quantityProblem(text, warehouseId);
    if (problem) problems[key] = problem;
    else if (Number(text) !== storedQuantity(row, warehouseId)) changes.push([key, Number(text)]);
  }
  return { changes, problems };
}
