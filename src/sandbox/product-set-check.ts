// productSet's checks that need no database, run before its transaction: the identifier, the product's own fields, the
// options, the variants' option values and prices, and the shape of the files and metafields sent.
import { err, MAX_OPTIONS, MAX_VARIANTS, MONEY, type ProductSetArgs, type ProductSetInput, type UserError } from './product-set-args.js';
import { TAXONOMY_GID_PREFIX, taxonomyNode } from './taxonomy-data.js';

type Options = NonNullable<ProductSetInput['productOptions']>;
type Variants = NonNullable<ProductSetInput['variants']>;

/** The user errors of a productSet call that need no database (none: it goes on to its transaction). */
export function checkProductSet(args: ProductSetArgs): UserError[] {
  const { input, identifier } = args;
  const errors: UserError[] = [];
  if (identifier && input.id != null) errors.push(err(['input', 'id'], 'The id field is not allowed if identifier is provided.', 'ID_NOT_ALLOWED'));
  if (identifier) {
    const given = ['id', 'handle', 'customId'].filter((k) => (identifier as Record<string, unknown>)[k] != null);
    if (given.length !== 1) errors.push(err(['identifier'], 'Exactly one of id, handle or customId must be provided.', 'INVALID_INPUT'));
  }
  if (input.title !== undefined && input.title !== null && input.title.trim() === '')
    errors.push(err(['input', 'title'], "Title can't be blank", 'INVALID_INPUT'));
  if (input.status != null && !['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED'].includes(input.status))
    errors.push(err(['input', 'status'], 'Status is invalid', 'INVALID_INPUT'));
  // ProductSetInput.category: "The ID of the category that's associated with the product" (schema 2026-10). An id the
  // taxonomy lacks: ProductSetUserErrorCode has no code of its own for it, INVALID_INPUT (the message is the sandbox's).
  if (input.category != null && !(input.category.startsWith(TAXONOMY_GID_PREFIX) && taxonomyNode(input.category)))
    errors.push(err(['input', 'category'], `Category ${input.category} does not exist in the product taxonomy.`, 'INVALID_INPUT'));
  const options = input.productOptions ?? [];
  checkOptions(options, errors);
  const variants = input.variants;
  if (variants && variants.length > MAX_VARIANTS)
    errors.push(err(['input', 'variants'], `Variants over limit: a product can have at most ${MAX_VARIANTS} variants.`, 'VARIANTS_OVER_LIMIT'));
  if (variants && variants.length > 0 && options.length === 0 && variants.some((v) => (v.optionValues ?? []).length > 0)) {
    errors.push(err(['input', 'productOptions'], 'Product options input is required when updating variants.', 'PRODUCT_OPTIONS_INPUT_MISSING'));
  }
  if (options.length > 0 && variants == null)
    errors.push(err(['input', 'variants'], 'Variants input is required when updating options.', 'VARIANTS_INPUT_MISSING'));
  if (errors.length || !variants) return errors;
  checkVariants(variants, options, errors);
  checkFilesAndMetafields(input, errors);
  return errors;
}

/** At most MAX_OPTIONS options, each named once and with values of its own, none twice. */
function checkOptions(options: Options, errors: UserError[]): void {
  if (options.length > MAX_OPTIONS)
    errors.push(err(['input', 'productOptions'], `Options over limit: a product can have at most ${MAX_OPTIONS} options.`, 'OPTIONS_OVER_LIMIT'));
  const names = new Set<string>();
  options.forEach((o, i) => {
    const name = (o.name ?? '').trim();
    if (!name) errors.push(err(['input', 'productOptions', String(i), 'name'], 'Option name is required.', 'INVALID_INPUT'));
    if (names.has(name.toLowerCase()))
      errors.push(err(['input', 'productOptions', String(i), 'name'], `Duplicated option name '${name}'.`, 'DUPLICATED_OPTION_NAME'));
    names.add(name.toLowerCase());
    const seen = new Set<string>();
    (o.values ?? []).forEach((v, j) => {
      const value = (v.name ?? '').trim();
      if (seen.has(value.toLowerCase())) {
        errors.push(err(['input', 'productOptions', String(i), 'values', String(j)], `Duplicated option value '${value}'.`, 'DUPLICATED_OPTION_VALUE'));
      }
      seen.add(value.toLowerCase());
    });
    if (!(o.values ?? []).length)
      errors.push(err(['input', 'productOptions', String(i), 'values'], `Option '${name}' must have at least one value.`, 'OPTION_VALUES_MISSING'));
  });
}

/** Each variant's prices, its one value of each option (an existing option and value), a combination of its own. */
function checkVariants(variants: Variants, options: Options, errors: UserError[]): void {
  const combos = new Set<string>();
  variants.forEach((v, i) => {
    const at = (...rest: string[]) => ['input', 'variants', String(i), ...rest];
    for (const [key, value] of [
      ['price', v.price],
      ['compareAtPrice', v.compareAtPrice],
    ] as const) {
      if (value != null && !MONEY.test(String(value)))
        errors.push(err(at(key), `${key === 'price' ? 'Price' : 'Compare at price'} is invalid.`, 'INVALID_INPUT'));
    }
    const ov = v.optionValues ?? [];
    if (options.length && ov.length !== options.length) {
      errors.push(err(at('optionValues'), 'The variant must have exactly one value for each option.', 'INVALID_VARIANT'));
      return;
    }
    const chosen: string[] = [];
    for (const [k, value] of ov.entries()) {
      const option = options.find((o) => (o.name ?? '').trim().toLowerCase() === (value.optionName ?? '').trim().toLowerCase());
      if (!option) {
        errors.push(err(at('optionValues', String(k)), `Option '${value.optionName ?? ''}' does not exist.`, 'OPTION_DOES_NOT_EXIST'));
        continue;
      }
      if (!(option.values ?? []).some((x) => (x.name ?? '').trim() === (value.name ?? '').trim())) {
        errors.push(err(at('optionValues', String(k)), `Option value '${value.name ?? ''}' does not exist.`, 'OPTION_VALUE_DOES_NOT_EXIST'));
        continue;
      }
      chosen.push(`${(option.name ?? '').trim().toLowerCase()}=${(value.name ?? '').trim()}`);
    }
    const combo = chosen.sort().join('/');
    if (combos.has(combo)) errors.push(err(at('optionValues'), `The variant '${chosen.join(' / ') || 'Default Title'}' already exists.`, 'INVALID_VARIANT'));
    combos.add(combo);
    for (const [k, q] of (v.inventoryQuantities ?? []).entries()) {
      // schema 2026-10, ProductSetInventoryInput.name: "Must be one of `available` or `on_hand`" (the sandbox keeps one count).
      if (q.name !== 'available' && q.name !== 'on_hand')
        errors.push(
          err(at('inventoryQuantities', String(k), 'name'), `Inventory quantity name '${q.name}' must be one of available or on_hand.`, 'INVALID_INPUT'),
        );
    }
  });
}

/** Each file (the product's, a variant's) has an id or a source, not both; each metafield a key, a type and a value. */
function checkFilesAndMetafields(input: ProductSetInput, errors: UserError[]): void {
  (input.files ?? []).forEach((f, i) => {
    if ((f.id == null) === (f.originalSource == null))
      errors.push(err(['input', 'files', String(i)], 'A file needs either an id or an originalSource.', 'INVALID_INPUT'));
  });
  (input.variants ?? []).forEach((v, i) => {
    if (v.file != null && (v.file.id == null) === (v.file.originalSource == null))
      errors.push(err(['input', 'variants', String(i), 'file'], 'A file needs either an id or an originalSource.', 'INVALID_INPUT'));
  });
  (input.metafields ?? []).forEach((m, i) => {
    if (!m.key || m.value == null || !m.type)
      errors.push(err(['input', 'metafields', String(i)], 'A metafield needs a key, a type and a value.', 'INVALID_METAFIELD'));
  });
}
