// The product attributes a Shopify file's metafield columns become (`Label (product.metafields.ns.key)`, and the Google
// Shopping columns, metafields of mm-google-shopping). An attribute made so keeps its metafield (`product_attributes.
// metafield`, `ns.key`): the import finds it again by it, and the export writes its values back under that metafield's
// column. Its type is inferred from the file's values, as Shopify's CSV does not say it: boolean, number, date when
// every value is one (numbers only in their canonical form, so that nothing written back differs: `007`, `1.50` stay
// text), textarea for multi-line or longer values, text else. Google Shopping columns are text (Custom Product:
// boolean), whatever their values look like (a Google product category is sometimes a number, sometimes a path).
// Pure: the import service reads the file and writes the definitions.
import { GOOGLE_NAMESPACE } from '../../catalogue-csv/shopify-format.js';
import type { AttributeType } from '../attributes/attribute.schemas.js';

/** What the values of one metafield column looked like, over the whole file. */
export class TypeGuess {
  private seen = 0;
  private boolean = true;
  private number = true;
  private date = true;
  private long = false;

  add(text: string | null): void {
    if (text === null) return;
    this.seen++;
    if (!/^(true|false)$/i.test(text)) this.boolean = false;
    if (!isCanonicalNumber(text)) this.number = false;
    if (!isCalendarDate(text)) this.date = false;
    if (/[\r\n]/.test(text) || text.length > 255) this.long = true;
  }

  type(metafield: string): AttributeType {
    const long: AttributeType = this.long ? 'textarea' : 'text';
    if (this.seen === 0) return 'text';
    if (metafield.startsWith(`${GOOGLE_NAMESPACE}.`)) return this.boolean ? 'boolean' : long;
    if (this.boolean) return 'boolean';
    if (this.number) return 'number';
    if (this.date) return 'date';
    return long;
  }
}

/** A number written as JSON writes it back: no leading zeros, no trailing decimal zeros, exact in a double. */
function isCanonicalNumber(text: string): boolean {
  return /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/.test(text) && String(Number(text)) === text;
}

function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().startsWith(text);
}

/**
 * The attribute code of a metafield, free among `taken` (which it joins): the key for the `custom` namespace,
 * `google_{key}` for Google Shopping's, `{namespace}_{key}` else; lower-case letters, digits and _ (the API's rule),
 * `_2`, `_3`… when taken.
 */
export function metafieldCode(metafield: string, taken: Set<string>): string {
  const dot = metafield.indexOf('.');
  const [namespace, key] = [metafield.slice(0, dot), metafield.slice(dot + 1)];
  const base = namespace === 'custom' ? key : namespace === GOOGLE_NAMESPACE ? `google_${key}` : `${namespace}_${key}`;
  let code = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[a-z]/.test(code)) code = `mf_${code}`;
  code = code.slice(0, 58);
  let candidate = code;
  for (let n = 2; taken.has(candidate); n++) candidate = `${code}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** The definitions to make for metafield columns that no attribute is mapped to yet. */
export function metafieldDefinitions(
  columns: { metafield: string; label: string; guess: TypeGuess }[],
  takenCodes: Set<string>,
): { code: string; name: string; type: AttributeType; metafield: string }[] {
  return columns.map((c) => ({
    code: metafieldCode(c.metafield, takenCodes),
    name: (c.label.trim() || c.metafield).slice(0, 255),
    type: c.guess.type(c.metafield),
    metafield: c.metafield,
  }));
}
