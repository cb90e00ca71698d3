// Metafield types and definition validations as the sandbox enforces them, each rule with its source on shopify.dev:
// - types and their value formats: https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types
//   ("the value is always entered and stored as a string, regardless of type"; the definition's type "is enforced
//   across every instance of the resource");
// - validation options: https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-validation-options.
// A value that does not fit is a productSet userError with ProductSetUserErrorCode.INVALID_METAFIELD ("Metafield is not
// valid.", schema 2026-10); metafieldsSet's code for the same case is INVALID_VALUE ("The value is invalid for the
// metafield type or for the definition options", https://shopify.dev/docs/api/admin-graphql/2025-01/enums/metafieldssetusererrorcode).

/** The basic types the sandbox checks (the list-of-data-types page); a `list.` of each is a JSON array of its values. */
export const CHECKED_TYPES = ['single_line_text_field', 'multi_line_text_field', 'number_integer', 'number_decimal', 'boolean', 'date', 'json', 'url'];
/** Other types of the same page the sandbox stores without checking their values. */
const UNCHECKED_TYPES = [
  'color',
  'date_time',
  'dimension',
  'volume',
  'weight',
  'rating',
  'money',
  'link',
  'rich_text_field',
  'id',
  'file_reference',
  'product_reference',
  'variant_reference',
  'collection_reference',
  'page_reference',
  'metaobject_reference',
  'mixed_reference',
  'customer_reference',
  'company_reference',
];

/** Whether `type` is a metafield type (list.* of the list-capable ones included). */
export function knownType(type: string): boolean {
  const base = type.replace(/^list\./, '');
  if (type.startsWith('list.') && ['multi_line_text_field', 'boolean', 'json', 'money', 'rich_text_field', 'id'].includes(base)) return false;
  return CHECKED_TYPES.includes(base) || UNCHECKED_TYPES.includes(base);
}

/**
 * Validation options by type (list-of-validation-options): `choices` "A list of up to 128 predefined options … |
 * single_line_text_field"; min/max length and regex for text; min/max for numbers; max_precision for number_decimal;
 * min/max for date. A list type takes its base type's options (the admin's "list of" a type keeps its validations).
 */
const VALIDATIONS: Record<string, string[]> = {
  single_line_text_field: ['min', 'max', 'regex', 'choices'],
  multi_line_text_field: ['min', 'max', 'regex'],
  number_integer: ['min', 'max'],
  number_decimal: ['min', 'max', 'max_precision'],
  date: ['min', 'max'],
};
export const MAX_CHOICES = 128;

/** Why the definition's validations do not fit its type (a MetafieldDefinitionCreate userError), or null. */
export function validationsProblem(type: string, validations: { name: string; value: string }[]): { message: string; code: string } | null {
  const allowed = VALIDATIONS[type.replace(/^list\./, '')] ?? [];
  for (const v of validations) {
    if (!allowed.includes(v.name))
      return { message: `Validations contains an invalid value: '${v.name}' isn't supported for ${type}.`, code: 'INVALID_OPTION' };
    if (v.name === 'choices') {
      let list: unknown;
      try {
        list = JSON.parse(v.value);
      } catch {
        list = null;
      }
      if (!Array.isArray(list) || list.some((x) => typeof x !== 'string'))
        return { message: 'Validations value for option choices must be a JSON array of strings.', code: 'INVALID_OPTION' };
      if (list.length > MAX_CHOICES) return { message: `Validations choices can have at most ${MAX_CHOICES} options.`, code: 'INVALID_OPTION' };
    }
  }
  return null;
}

const INTEGER = /^[-+]?\d+$/;
/** number_integer: "A whole number in the range of +/-9,007,199,254,740,991". */
const MAX_INTEGER = 9_007_199_254_740_991n;
/** number_decimal: "A number with decimal places in the range of +/-9999999999999.999999999". */
const DECIMAL = /^[-+]?\d{1,13}(?:\.\d{1,9})?$/;
/** date: "A date in ISO 8601 format without a presumed timezone" (YYYY-MM-DD). */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function scalarProblem(type: string, value: string): string | null {
  switch (type) {
    case 'single_line_text_field':
      // "A single-line text field": a line break makes it multi-line.
      return /[\r\n]/.test(value) ? 'must be a single line of text' : null;
    case 'number_integer':
      return INTEGER.test(value) && BigInt(value) <= MAX_INTEGER && BigInt(value) >= -MAX_INTEGER
        ? null
        : 'must be an integer between -9007199254740991 and 9007199254740991';
    case 'number_decimal':
      return DECIMAL.test(value) ? null : 'must be a decimal between -9999999999999.999999999 and 9999999999999.999999999';
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'must be true or false';
    case 'date': {
      const m = DATE.exec(value);
      const ok =
        m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
      return ok ? null : 'must be a date in ISO 8601 format (YYYY-MM-DD)';
    }
    case 'json':
      try {
        JSON.parse(value);
        return null;
      } catch {
        return 'must be valid JSON';
      }
    case 'url':
      // "A URL with one of the allowed schemes: https, http, mailto, sms, tel."
      return /^(https?:\/\/|mailto:|sms:|tel:)\S+$/i.test(value) ? null : 'must be a URL with the scheme https, http, mailto, sms or tel';
    default:
      return null;
  }
}

/** Why `value` does not fit `type` and the definition's validations (only `choices` is enforced); null when it fits. */
export function metafieldValueProblem(type: string, value: string, validations: { name: string; value: string }[] = []): string | null {
  const base = type.replace(/^list\./, '');
  let items: string[] = [value];
  if (type.startsWith('list.')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
    if (!Array.isArray(parsed)) return `Value must be a JSON array for the type ${type}.`;
    items = parsed.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  }
  const choices = validations.find((v) => v.name === 'choices');
  const allowed = choices ? (JSON.parse(choices.value) as string[]) : null;
  for (const item of items) {
    const problem = scalarProblem(base, item);
    if (problem) return `Value ${problem} (type ${type}).`;
    if (allowed && !allowed.includes(item)) return `Value '${item}' is not one of the definition's choices.`;
  }
  return null;
}
