// PIM attributes → product metafields (docs/shopify-fidelity.md, "Attributes"). Pure: which Shopify type fits each PIM
// attribute type, the definition the bridge creates for it, the value as Shopify stores it (always a string), and whether
// a value fits a definition — the bridge's own one or one the shop had already, which may differ — before sending.
// Types and ranges: https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types; validation options:
// https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-validation-options.
import { createHash } from 'node:crypto';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { AttributeMetafieldSpec } from '../port/placement.js';
import type { StorefrontMetafield } from './product-set-input.js';

/** A metafield definition as the shop has it (or as we will create it). */
export interface ShopMetafieldDefinition {
  namespace: string;
  key: string;
  type: string;
  validations: { name: string; value: string }[];
}

/** Choices: "A list of up to 128 predefined options" (list-of-validation-options): a larger select gets no choices. */
export const MAX_CHOICES = 128;

/**
 * The Shopify type of a PIM attribute type: text → single_line_text_field, textarea → multi_line_text_field, number →
 * number_decimal (a PIM number may have decimals; number_integer would refuse them), boolean, date, select →
 * single_line_text_field limited to its options (choices), multiselect → list.single_line_text_field.
 */
export function shopifyTypeOf(pimType: string): string {
  switch (pimType) {
    case 'textarea':
      return 'multi_line_text_field';
    case 'number':
      return 'number_decimal';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'multiselect':
      return 'list.single_line_text_field';
    default:
      return 'single_line_text_field';
  }
}

/** The definition the bridge creates for a synced attribute. */
export function definitionFor(spec: AttributeMetafieldSpec): ShopMetafieldDefinition & { name: string } {
  const type = shopifyTypeOf(spec.pimType);
  const validations =
    spec.pimType === 'select' && spec.options.length > 0 && spec.options.length <= MAX_CHOICES
      ? [{ name: 'choices', value: JSON.stringify(spec.options) }]
      : [];
  return { namespace: spec.namespace, key: spec.key, name: spec.name, type, validations };
}

/** A PIM value as a metafield value string of `type`; null when the PIM has no value (nothing is sent). */
export function metafieldValue(type: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (type.startsWith('list.')) {
    const items = Array.isArray(value) ? value : [value];
    return items.length === 0 ? null : JSON.stringify(items.map((v) => String(v)));
  }
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? numberText(value) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? null : value.map((v) => String(v)).join(', ');
  return JSON.stringify(value);
}

/** A number without an exponent where it can be written so (1e21 → "1000000000000000000000"). */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return Math.abs(n) >= 1 ? BigInt(Math.trunc(n)).toString() : n.toFixed(20).replace(/0+$/, '');
}

/** Why `value` does not fit `definition` (Shopify would refuse it); null when it fits. */
export function valueProblem(definition: Pick<ShopMetafieldDefinition, 'type' | 'validations'>, value: string): string | null {
  const base = definition.type.replace(/^list\./, '');
  const items: string[] = [];
  if (definition.type.startsWith('list.')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return `is not a JSON list, as ${definition.type} needs`;
    }
    if (!Array.isArray(parsed)) return `is not a JSON list, as ${definition.type} needs`;
    for (const v of parsed) items.push(typeof v === 'string' ? v : JSON.stringify(v));
  } else items.push(value);
  const choices = definition.validations.find((v) => v.name === 'choices');
  let allowed: string[] | null = null;
  if (choices) {
    try {
      const parsed: unknown = JSON.parse(choices.value);
      if (Array.isArray(parsed)) allowed = parsed.map(String);
    } catch {
      allowed = null;
    }
  }
  for (const item of items) {
    const problem = scalarProblem(base, item);
    if (problem) return problem;
    if (allowed && !allowed.includes(item))
      return `'${item}' is not one of the definition's choices (${allowed.slice(0, 10).join(', ')}${allowed.length > 10 ? ', …' : ''})`;
  }
  return null;
}

const INTEGER = /^[-+]?\d+$/;
/** number_integer: "A whole number in the range of +/-9,007,199,254,740,991" (list-of-data-types). */
const MAX_INTEGER = 9_007_199_254_740_991n;
/** number_decimal: "A number with decimal places in the range of +/-9999999999999.999999999" (list-of-data-types). */
const DECIMAL = /^[-+]?(\d{1,13})(?:\.(\d{1,9}))?$/;
/** date: "A date in ISO 8601 format without a presumed timezone" (list-of-data-types). */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function scalarProblem(type: string, value: string): string | null {
  switch (type) {
    case 'number_integer':
      return INTEGER.test(value) && BigInt(value) <= MAX_INTEGER && BigInt(value) >= -MAX_INTEGER
        ? null
        : `${value} is not a whole number within ±9,007,199,254,740,991 (Shopify's number_integer)`;
    case 'number_decimal':
      return DECIMAL.test(value) ? null : `${value} is not a number within ±9999999999999.999999999 (Shopify's number_decimal)`;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `${value} is not true or false (Shopify's boolean)`;
    case 'date': {
      const m = DATE.exec(value);
      const ok =
        m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
      return ok ? null : `${value} is not a date written YYYY-MM-DD (Shopify's date)`;
    }
    case 'single_line_text_field':
      // "A single line of text" (list-of-data-types): a line break does not fit it.
      return /[\r\n]/.test(value) ? `holds a line break, which Shopify's single_line_text_field does not take` : null;
    default:
      return null;
  }
}

/**
 * The product's attribute metafields, checked against the shop's definitions (`definitions` by `namespace.key`; a spec
 * without one is checked against the definition the bridge would create). `problems`: one line per value that does not
 * fit, naming the attribute.
 */
export function attributeMetafields(
  product: PimProductSnapshot,
  specs: AttributeMetafieldSpec[],
  definitions: ReadonlyMap<string, ShopMetafieldDefinition> = new Map(),
  options: { keepInvalid?: boolean } = {},
): { metafields: StorefrontMetafield[]; problems: string[] } {
  const metafields: StorefrontMetafield[] = [];
  const problems: string[] = [];
  const attrs = product.attributes ?? {};
  for (const spec of specs) {
    if (!(spec.code in attrs)) continue;
    // MetafieldDefinitionInput.key: "Must be 2-64 characters long and only contain alphanumeric, hyphen, and underscore
    // characters" (schema 2026-10); a one-letter PIM code needs a key of its own (PUT /api/integration/attributes).
    if (!/^[A-Za-z0-9_-]{2,64}$/.test(spec.key)) {
      problems.push(
        `attribute '${spec.code}': '${spec.key}' is not a Shopify metafield key (2-64 letters, digits, - or _): give it one in the integration's attribute keys`,
      );
      continue;
    }
    const definition = definitions.get(`${spec.namespace}.${spec.key}`) ?? definitionFor(spec);
    const value = metafieldValue(definition.type, attrs[spec.code]);
    if (value === null) continue;
    const problem = valueProblem(definition, value);
    if (problem) {
      problems.push(`attribute '${spec.code}' (metafield ${spec.namespace}.${spec.key}, ${definition.type}): ${problem}`);
      // keepInvalid (a bulk line, which cannot be left out of its file): sent, for the shop to refuse that product alone.
      if (!options.keepInvalid) continue;
    }
    metafields.push({ namespace: spec.namespace, key: spec.key, type: definition.type, value });
  }
  return { metafields, problems };
}

/** A fingerprint of the attribute metafields sent (undefined for none): the mapping keeps it, the next push compares. */
export function metafieldsFingerprint(metafields: StorefrontMetafield[]): string | undefined {
  if (metafields.length === 0) return undefined;
  const sorted = [...metafields].sort((a, b) => `${a.namespace}.${a.key}`.localeCompare(`${b.namespace}.${b.key}`));
  return createHash('sha256')
    .update(JSON.stringify(sorted.map((m) => [m.namespace, m.key, m.type, m.value])))
    .digest('hex')
    .slice(0, 16);
}

/** The product type: the attribute's value when the integration says so, else the first category's name; "" for none. */
export function productTypeOf(product: PimProductSnapshot, attributeCode: string | null | undefined): string {
  if (attributeCode) {
    const v = product.attributes?.[attributeCode];
    if (v === null || v === undefined) return '';
    return (Array.isArray(v) ? v.map(String).join(', ') : String(v)).trim();
  }
  return (product.categories ?? []).map((c) => c.name.trim()).find(Boolean) ?? '';
}
