// Shopify's limits, checked before anything is sent: each failure is one readable line of a StorefrontValidationError
// (the product's `validation_errors`), so a product Shopify would refuse — or silently truncate — costs no call.
import type { PimProductSnapshot, PimSellingFields } from '../port/pim-product.js';

/** The PIM's weight units (selling-fields.ts): g, kg, lb, oz. */
const WEIGHT_UNITS: readonly string[] = ['g', 'kg', 'lb', 'oz'];
import { productOptions, sortedVariants, variantOptionValues } from './product-options.js';
import { toMoney } from './variant-inputs.js';
import type { ProductSetInput } from './product-set-input.js';

export const LIMITS = {
  titleLength: 255,
  options: 3,
  variants: 2048,
  optionNameLength: 255,
  optionValueLength: 255,
  skuLength: 255,
  barcodeLength: 255,
  /** The admin's hints, not API rules: longer SEO fields are accepted and reported as warnings (search engines cut them). */
  seoTitleLength: 70,
  seoDescriptionLength: 320,
  tags: 250,
  tagLength: 255,
  files: 250,
} as const;

export interface ShopLimits {
  maxProductOptions: number;
  maxProductVariants: number;
}

/** The shop's currency, and whether prices are converted by something else (then any currency goes). */
export interface ShopCurrency {
  currencyCode: string;
  pricesConvertedElsewhere: boolean;
}

/** Every problem of the product, or [] when Shopify should accept it. `input` is the mapped productSet input. */
export function preflight(
  product: PimProductSnapshot,
  input: ProductSetInput,
  limits: ShopLimits = { maxProductOptions: LIMITS.options, maxProductVariants: LIMITS.variants },
  currency?: ShopCurrency,
): string[] {
  const errors: string[] = [];
  // Shopify takes prices in the shop's currency and converts nothing: a EUR price in a USD shop would sell at the number.
  if (currency && !currency.pricesConvertedElsewhere && product.currency && product.currency.toUpperCase() !== currency.currencyCode.toUpperCase()) {
    errors.push(
      `currency: the product's prices are in ${product.currency.toUpperCase()}, the shop sells in ${currency.currencyCode.toUpperCase()} (set prices_converted_elsewhere on the integration if something else converts them)`,
    );
  }
  const maxOptions = Math.min(limits.maxProductOptions, LIMITS.options);
  const maxVariants = limits.maxProductVariants;

  if (!product.name || product.name.trim() === '') errors.push('title: is required');
  else if (input.title.length > LIMITS.titleLength) errors.push(`title: is ${input.title.length} characters, Shopify allows at most ${LIMITS.titleLength}`);

  const options = productOptions(product);
  if (options.length > maxOptions)
    errors.push(`options: ${options.length} options (${options.map((o) => o.name).join(', ')}), Shopify allows at most ${maxOptions}`);
  checkOptions(errors, options);
  const variantCount = Math.max(1, product.variants.length);
  if (variantCount > maxVariants) errors.push(`variants: ${variantCount} variants, Shopify allows at most ${maxVariants}`);

  const variants = product.variants.length === 0 ? [] : sortedVariants(product);
  checkVariants(errors, product, variants, options.length <= maxOptions ? options : null);
  checkPrices(errors, product, variants, input.status === 'ACTIVE');
  checkTagsAndFiles(errors, input);
  return errors;
}

/** Each option's name and values within Shopify's lengths. */
function checkOptions(errors: string[], options: ReturnType<typeof productOptions>): void {
  for (const o of options) {
    if (o.name.length > LIMITS.optionNameLength)
      errors.push(`options: option name '${o.name.slice(0, 40)}…' is longer than ${LIMITS.optionNameLength} characters`);
    for (const v of o.values)
      if (v.length > LIMITS.optionValueLength) errors.push(`options: a value of '${o.name}' is longer than ${LIMITS.optionValueLength} characters`);
    if (o.values.some((v) => v.trim() === '')) errors.push(`options: option '${o.name}' has an empty value`);
  }
}

/** SKUs present, unique and within length; each variant with a value for every option (`options`; null: too many to check) and a combination of its own. */
function checkVariants(
  errors: string[],
  product: PimProductSnapshot,
  variants: ReturnType<typeof sortedVariants>,
  options: ReturnType<typeof productOptions> | null,
): void {
  const skus = new Set<string>();
  const combos = new Map<string, string>();
  if (!product.sku || product.sku.trim() === '') errors.push('sku: is required');
  for (const v of variants) {
    const label = `variant ${v.sku || `#${v.id}`}`;
    if (!v.sku || v.sku.trim() === '') errors.push(`variant #${v.id}: sku is required`);
    else if (skus.has(v.sku)) errors.push(`${label}: sku is used by another variant of the product`);
    skus.add(v.sku);
    if (v.sku && v.sku.length > LIMITS.skuLength) errors.push(`${label}: sku is longer than ${LIMITS.skuLength} characters`);
    if (options) {
      const values = variantOptionValues(product, v, options);
      const missing = options.filter((o) => !values.some((x) => x.optionName === o.name)).map((o) => o.name);
      if (missing.length > 0) errors.push(`${label}: has no value for option ${missing.map((m) => `'${m}'`).join(', ')}`);
      else {
        const key = JSON.stringify(values.map((x) => x.name));
        const other = combos.get(key);
        if (other !== undefined) errors.push(`${label}: has the same option values (${values.map((x) => x.name).join(' / ')}) as variant ${other}`);
        else combos.set(key, v.sku);
      }
    }
  }
  if (product.sku && product.sku.length > LIMITS.skuLength && variants.length === 0) errors.push(`sku: is longer than ${LIMITS.skuLength} characters`);
}

function checkPrices(errors: string[], product: PimProductSnapshot, variants: ReturnType<typeof sortedVariants>, active: boolean): void {
  // Prices: non-negative decimals with at most 2 places (trailing zeros of the PIM's 4 places are fine); nothing is rounded.
  const checkPrice = (label: string, field: string, value: string | null | undefined, required: boolean) => {
    if (value === null || value === undefined) {
      if (required) errors.push(`${label}: ${field} is required for an active product`);
      return;
    }
    if (toMoney(value) === null) errors.push(`${label}: ${field} '${value}' is not a non-negative decimal with at most 2 decimal places`);
  };
  // The selling fields beyond the spec (PimSellingFields): a value the PIM gives must mean something to Shopify; nothing
  // given (null) is fine (the shop's value stays).
  const checkSelling = (label: string, from: PimSellingFields, weight: unknown) => {
    checkPrice(label, 'compare_at_price', from.compare_at_price, false);
    if (typeof from.barcode === 'string' && from.barcode.length > LIMITS.barcodeLength)
      errors.push(`${label}: barcode is longer than ${LIMITS.barcodeLength} characters`);
    if (from.weight_unit != null && !WEIGHT_UNITS.includes(from.weight_unit as string))
      errors.push(`${label}: weight_unit '${from.weight_unit}' is not one of ${WEIGHT_UNITS.join(', ')}`);
    if (from.inventory_policy != null && from.inventory_policy !== 'deny' && from.inventory_policy !== 'continue')
      errors.push(`${label}: inventory_policy '${from.inventory_policy}' is not deny or continue`);
    if (weight != null && !/^\d{1,15}(\.\d+)?$/.test(String(weight).trim())) errors.push(`${label}: weight '${String(weight)}' is not a non-negative decimal`);
  };
  if (variants.length === 0) {
    checkPrice('product', 'price', product.price, active);
    checkPrice('product', 'sale_price', product.sale_price, false);
    if (product.ean && product.ean.length > LIMITS.barcodeLength) errors.push(`product: ean is longer than ${LIMITS.barcodeLength} characters`);
    checkSelling('product', product, product.weight);
  } else {
    for (const v of variants) {
      const label = `variant ${v.sku || `#${v.id}`}`;
      checkPrice(label, 'price', v.price ?? product.price, active);
      checkPrice(label, 'sale_price', v.sale_price, false);
      checkSelling(label, v, v.weight);
    }
  }
}

function checkTagsAndFiles(errors: string[], input: ProductSetInput): void {
  const tags = input.tags ?? [];
  if (tags.length > LIMITS.tags) errors.push(`tags: ${tags.length} tags, Shopify allows at most ${LIMITS.tags}`);
  for (const t of tags) if (t.length > LIMITS.tagLength) errors.push(`tags: '${t.slice(0, 40)}…' is longer than ${LIMITS.tagLength} characters`);

  const files = input.files ?? [];
  if (files.length > LIMITS.files) errors.push(`images: ${files.length} images, Shopify allows at most ${LIMITS.files}`);
  for (const f of files) {
    if (f.originalSource === undefined) continue;
    let ok = false;
    try {
      const u = new URL(f.originalSource);
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) errors.push(`images: '${f.originalSource}' is not an absolute http(s) URL`);
  }
}

/** What Shopify takes but search engines or the admin shorten: reported with the push, never refused. */
export function preflightWarnings(input: ProductSetInput): string[] {
  const warnings: string[] = [];
  const title = input.seo?.title;
  const description = input.seo?.description;
  if (title && title.length > LIMITS.seoTitleLength)
    warnings.push(`seo.title: ${title.length} characters; Shopify's admin suggests at most ${LIMITS.seoTitleLength} (search engines may cut it)`);
  if (description && description.length > LIMITS.seoDescriptionLength) {
    warnings.push(
      `seo.description: ${description.length} characters; Shopify's admin suggests at most ${LIMITS.seoDescriptionLength} (search engines may cut it)`,
    );
  }
  return warnings;
}

/** productSet's userErrors as validation lines: `field: message (CODE)`. */
export function userErrorLines(userErrors: { field: string[] | null; message: string; code: string | null }[]): string[] {
  return userErrors.map((e) => `${e.field && e.field.length > 0 ? `${e.field.join('.')}: ` : ''}${e.message}${e.code ? ` (${e.code})` : ''}`);
}
