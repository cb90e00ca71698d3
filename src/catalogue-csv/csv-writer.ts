// Drafts → CSV text, for the exporter: csvHeader once, then draftRows per product, each batch through stringifyRows.
import { stringify } from 'csv-stringify/sync';
import type { CsvFormat, ProductDraft } from './draft.js';
import { oursHeader, oursRows } from './ours-format.js';
import { shopifyHeader, shopifyRows } from './shopify-format.js';

export interface HeaderContext {
  attributeCodes: string[];
  warehouseCodes: string[];
  locales: string[];
  optionNames: string[];
  /** The attributes mapped to a storefront metafield (`ns.key`) and their names: Shopify's metafield columns. */
  metafields?: { metafield: string; name: string }[];
}

/**
 * The header of an export: ours has a column per attribute, warehouse, locale field and option name; Shopify's has
 * its export's columns and one per mapped metafield.
 */
export function csvHeader(format: CsvFormat, context: HeaderContext): string[] {
  return format === 'ours' ? oursHeader(context) : shopifyHeader(context.metafields ?? []);
}

/**
 * One product's rows under `header`, formula-escaped in both formats (our reader unescapes both). A Shopify file is
 * escaped too: it is opened in spreadsheets as often as ours, and a title starting with `=` is rare enough that
 * Shopify's own importer keeping the apostrophe is the lesser harm.
 */
export function draftRows(format: CsvFormat, draft: ProductDraft, header: string[]): string[][] {
  const rows = format === 'ours' ? oursRows(draft, header) : shopifyRows(draft, header);
  return rows.map((row) => row.map(escapeFormula));
}

/**
 * CSV injection (OWASP): a spreadsheet runs a cell starting with = + - @ (or tab, carriage return) as a formula, so
 * such a cell gets a leading apostrophe. Plain numbers (-5, -0.25) stay as they are: no formula, and stock can be
 * negative. A cell already starting with apostrophes before one of those characters gets one more, so that reading
 * (which removes one apostrophe, see cleanCell) gives back exactly the value written.
 */
export function escapeFormula(cell: string): string {
  if (/^-?\d+(\.\d+)?$/.test(cell)) return cell;
  return /^'*[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** Rows as CSV text: quoted where needed, `\n` after every row (so batches concatenate). */
export function stringifyRows(rows: string[][]): string {
  return stringify(rows, { record_delimiter: '\n', eof: true });
}

/** The header context covering these drafts (for a file written from drafts alone, e.g. by the connector). */
export function headerContextOf(drafts: ProductDraft[]): HeaderContext {
  const distinct = (values: string[]) => [...new Set(values)];
  return {
    attributeCodes: distinct(drafts.flatMap((d) => Object.keys(d.attributes ?? {}))),
    warehouseCodes: distinct(drafts.flatMap((d) => Object.keys(d.stock ?? {}))),
    locales: distinct(drafts.flatMap((d) => Object.keys(d.translations ?? {}))),
    optionNames: distinct(drafts.flatMap((d) => d.variants.flatMap((v) => (v.fields.attributes ?? []).map((a) => a.attribute_name)))),
    metafields: distinct(drafts.flatMap((d) => Object.keys(d.metafields ?? {}))).map((metafield) => ({
      metafield,
      name: metafield.slice(metafield.indexOf('.') + 1),
    })),
  };
}
