// The cell checks both catalogue formats share (ours and Shopify's), and the separators of our list cells. Each check
// returns the value, or a reason in plain words naming the column and the value.
import type { RowError } from './draft.js';

export const LIST_SEPARATOR = '|';
export const PATH_SEPARATOR = ' > ';

export type Checked<T> = { value: T } | { reason: string };
const fail = (column: string, text: string, problem: string): { reason: string } => ({ reason: `column '${column}': '${text}' ${problem}` });

export function decimalCell(column: string, text: string): Checked<string> {
  if (/^\d{1,15}(\.\d{1,4})?$/.test(text)) return { value: text };
  if (/^\d+,\d+$/.test(text)) return fail(column, text, `has a comma; write decimals with a point, e.g. ${text.replace(',', '.')}`);
  if (/^-/.test(text)) return fail(column, text, 'is negative');
  if (/^\d+\.\d{5,}$/.test(text)) return fail(column, text, 'has more than 4 decimal places');
  if (/^\d{16,}(\.\d*)?$/.test(text)) return fail(column, text, 'has more than 15 digits before the point');
  return fail(column, text, 'is not a decimal number such as 19.99');
}

export function integerCell(column: string, text: string): Checked<number> {
  if (!/^[-+]?\d+$/.test(text)) return fail(column, text, 'is not a whole number');
  const value = Number(text);
  if (Math.abs(value) > 1_000_000_000) return fail(column, text, 'is out of range (at most 1000000000)');
  return { value };
}

export function booleanCell(column: string, text: string): Checked<boolean> {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return { value: lower === 'true' };
  return fail(column, text, 'is not true or false');
}

export function choiceCell(column: string, text: string, allowed: readonly string[]): Checked<string> {
  const lower = text.toLowerCase();
  if (allowed.includes(lower)) return { value: lower };
  return fail(column, text, `is not one of ${allowed.join(', ')}`);
}

export function urlCell(column: string, text: string): Checked<string> {
  if (/^https?:\/\/\S+$/i.test(text) && text.length <= 2048) return { value: text };
  return fail(column, text, text.length > 2048 ? 'is longer than 2048 characters' : 'is not an http(s) URL');
}

export function currencyCell(column: string, text: string): Checked<string> {
  return /^[A-Z]{3}$/.test(text) ? { value: text } : fail(column, text, 'is not a three-letter currency code such as EUR');
}

export function eanCell(column: string, text: string): Checked<string> {
  if (/^\d{8,14}$/.test(text)) return { value: text };
  // Spreadsheets rewrite long numbers as 4.00638E+12: the digits are lost, so only the user can fix it.
  if (/^\d(\.\d+)?e\+\d+$/i.test(text)) return fail(column, text, 'was turned into scientific notation by a spreadsheet; format the column as text');
  return fail(column, text, 'is not a barcode of 8 to 14 digits');
}

/** `a|b|c`: every value non-empty. */
export function listCell(column: string, text: string): Checked<string[]> {
  const values = text.split(LIST_SEPARATOR).map((v) => v.trim());
  if (values.some((v) => v === '')) return fail(column, text, `has an empty value between '${LIST_SEPARATOR}' separators`);
  return { value: values };
}

export function urlListCell(column: string, text: string): Checked<string[]> {
  const list = listCell(column, text);
  if ('reason' in list) return list;
  for (const url of list.value) {
    const checked = urlCell(column, url);
    if ('reason' in checked) return checked;
  }
  return list;
}

/** `Apparel > Tops|Sale` → [["Apparel", "Tops"], ["Sale"]]. */
export function categoryPathsCell(column: string, text: string): Checked<string[][]> {
  const list = listCell(column, text);
  if ('reason' in list) return list;
  const paths = list.value.map((path) => path.split(/\s*>\s*/));
  const bad = paths.find((levels) => levels.some((name) => name === ''));
  if (bad) return fail(column, text, `has a category path with an empty level: '${bad.join(PATH_SEPARATOR)}'`);
  return { value: paths };
}

/** A row with non-empty cells beyond the header is misaligned (most often an unquoted comma in a value). */
export function extraCellsReason(cells: string[], width: number): string | null {
  if (cells.length <= width || cells.slice(width).every((c) => c.trim() === '')) return null;
  return `the row has ${cells.length} cells but the header has ${width} columns (a value with a comma that is not in quotes?)`;
}

/** A file cell as a value: trimmed, and a formula escaped on export (`'=…`, see escapeFormula) unescaped. */
export function cleanCell(cell: string | undefined): string {
  const text = (cell ?? '').trim();
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1).trim() : text;
}

/**
 * A product is imported whole or not at all: its bad rows keep their reasons, every other row of it is reported as
 * not imported because of them (in line order).
 */
export function refusedWhole(rows: { line: number }[], key: string, errors: RowError[]): RowError[] {
  const bad = new Map(errors.map((e) => [e.line, e]));
  const lines = [...bad.keys()].sort((a, b) => a - b);
  const why = `not imported: its product has ${lines.length === 1 ? 'a bad row' : 'bad rows'} (line ${lines.join(', ')})`;
  return rows.map((r) => bad.get(r.line) ?? { line: r.line, sku: key, reason: why });
}

/** A variant's name when its cell is empty: its option values ("M / Red"), else its SKU. The importer uses it too. */
export function defaultVariantName(sku: string, attributes: { value: string }[] | undefined): string {
  return attributes && attributes.length > 0 ? attributes.map((a) => a.value).join(' / ') : sku;
}
