// What one product of a file does to the catalogue: its fields merged onto the current product (a column missing from
// the file leaves the field as it is), checked against the organization's data, and compared with what is stored, so
// that a second import of the same file writes nothing. Pure: the service gathers the context and writes the plan.
import { normaliseDecimal, type ProductDraft, type RowError } from '../../catalogue-csv/draft.js';
import { gtinForms, isValidGtin } from '../../lib/gtin.js';
import { checkValues } from '../attributes/attribute.service.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import { PUBLISHING_CHANNELS } from '../pim.schemas.js';
import { categoryPaths, pathKey, type ProductSnapshot } from './catalogue-snapshot.js';
import type { KeyColumn } from './catalogue.repository.js';
import { sameProduct, sameSet, sameValues } from './plan-compare.js';
import type { Outcome, PlanContext, ProductPlan, TargetProduct, TargetVariant } from './plan-types.js';
import { planVariants } from './plan-variants.js';

// The import service takes the plan's types from here, with the plan.
export type { Outcome, PlanContext, ProductPlan };

/** A draft's key in the format's terms: our format's SKU, Shopify's Handle. */
export const keyOf = (draft: ProductDraft, keyColumn: KeyColumn): string => (keyColumn === 'slug' ? (draft.fields.slug ?? draft.sku) : draft.sku);

export function planProduct(draft: ProductDraft, ctx: PlanContext): { plan: ProductPlan | null; errors: RowError[] } {
  const key = keyOf(draft, ctx.keyColumn);
  const refuse = (reason: string) => ({
    plan: null,
    errors: draft.lines.map((line) => ({
      line,
      sku: key,
      reason: line === draft.line ? reason : `not imported: its product (line ${draft.line}) was refused`,
    })),
  });
  const ex = ctx.existing.get(key) ?? null;
  if (!ex && !draft.fields.name) return refuse(`product '${key}' is new and has no name`);
  const target = targetOf(draft, key, ex, ctx);
  const problem = targetProblem(draft, target, key, ctx) ?? attributesProblem(draft, target, ex, ctx);
  if (problem !== null) return refuse(problem);
  const stock = stockPlan(draft, ex, ctx);
  if (typeof stock === 'string') return refuse(stock);
  const categories = categoriesPlan(draft, ex, ctx);
  const translations = translationsPlan(draft, ex);
  const { newImages, imageAlts } = imagesPlan(draft, ex);
  const planned = planVariants(draft, key, ex, ctx);
  if ('errors' in planned) return { plan: null, errors: planned.errors };
  const { variants, byLine } = planned;
  const [levelColumn] = Object.keys(draft.stock ?? {});
  if (levelColumn !== undefined && (variants.length > 0 || (ex?.variants.length ?? 0) > 0)) {
    return refuse(`column 'stock:${levelColumn}': product '${key}' has variants; its stock is kept per variant and warehouse, not per product`);
  }

  const productChanged = !ex || !sameProduct(ex, target);
  const productLevel = productChanged || categories !== null || stock.length > 0 || translations.length > 0 || newImages.length > 0 || imageAlts.length > 0;
  const plan: ProductPlan = {
    draft,
    key,
    existingId: ex?.id ?? null,
    target,
    productChanged,
    categories,
    stock,
    translations,
    variants,
    newImages,
    imageAlts,
    pendingImages: ex?.pending_images ?? [],
    outcomes: outcomesOf(draft, ex, byLine, productLevel),
    productOutcome: !ex ? 'created' : productLevel || variants.length > 0 ? 'updated' : 'unchanged',
    variantOutcomes: [...byLine.values()],
    changed: productLevel || variants.length > 0,
  };
  holdKeys(key, target, variants, ctx);
  return { plan, errors: [] };
}

/** The product as it will be: the file's fields merged onto the stored ones, with its channels. */
function targetOf(draft: ProductDraft, key: string, ex: ProductSnapshot | null, ctx: PlanContext): TargetProduct {
  const f = draft.fields;
  const pick = <K extends keyof TargetProduct>(k: K, fallback: TargetProduct[K]): TargetProduct[K] =>
    (k in f ? (f as Record<string, unknown>)[k] : ex ? (ex as unknown as Record<string, unknown>)[k] : fallback) as TargetProduct[K];
  // A product with stock per warehouse has the sum of its levels as its stock, one with variants the sum of theirs; the
  // file's own stock is for the others.
  const hasLevels = Object.keys(ex?.stock ?? {}).length > 0 || Object.keys(draft.stock ?? {}).length > 0 || (ex?.variants.length ?? 0) > 0;
  const target: TargetProduct = {
    ...productSku(draft, key, ex, ctx),
    slug: f.slug ?? ex?.slug ?? null,
    name: f.name ?? ex!.name,
    description: pick('description', null),
    short_description: pick('short_description', null),
    product_type: f.product_type ?? ex?.product_type ?? 'simple',
    price: normaliseDecimal(pick('price', null)),
    sale_price: normaliseDecimal(pick('sale_price', null)),
    cost_price: normaliseDecimal(pick('cost_price', null)),
    currency: f.currency ?? ex?.currency ?? ctx.defaultCurrency,
    status: f.status ?? ex?.status ?? 'draft',
    ean: pick('ean', null),
    brand: pick('brand', null),
    supplier: pick('supplier', null),
    publishing_channels: pick('publishing_channels', []),
    product_condition: f.product_condition ?? ex?.product_condition ?? 'new',
    attributes: ex?.attributes ?? {},
    tags: pick('tags', []),
    seo_title: pick('seo_title', null),
    seo_description: pick('seo_description', null),
    gift_card: f.gift_card ?? ex?.gift_card ?? false,
    taxonomy_category: pick('taxonomy_category', null),
    storefront_type: pick('storefront_type', null),
    weight: normaliseDecimal(pick('weight', null)),
    stock_quantity: hasLevels ? (ex?.stock_quantity ?? 0) : (f.stock_quantity ?? ex?.stock_quantity ?? 0),
    barcode: pick('barcode', null),
    compare_at_price: normaliseDecimal(pick('compare_at_price', null)),
    weight_unit: pick('weight_unit', null),
    inventory_policy: pick('inventory_policy', null),
    inventory_tracked: pick('inventory_tracked', null),
    taxable: pick('taxable', null),
    requires_shipping: pick('requires_shipping', null),
  };
  // Shopify's Published is the web channel; otherwise an active product that the file gives no channel gets the default ones.
  if (draft.published !== undefined && ctx.defaultChannels.includes('web')) {
    const others = target.publishing_channels.filter((c) => c !== 'web');
    target.publishing_channels =
      draft.published && !target.publishing_channels.includes('web') ? [...others, 'web'] : draft.published ? target.publishing_channels : others;
  } else if (!('publishing_channels' in f) && target.status === 'active' && target.publishing_channels.length === 0) {
    target.publishing_channels = [...ctx.defaultChannels];
  }
  return target;
}

/** Why the product's channels, EAN or slug cannot be taken; null when they can. */
function targetProblem(draft: ProductDraft, target: TargetProduct, key: string, ctx: PlanContext): string | null {
  const f = draft.fields;
  const badChannel = target.publishing_channels.find((c) => !(PUBLISHING_CHANNELS as readonly string[]).includes(c));
  if (badChannel !== undefined) return `column 'publishing_channels': '${badChannel}' is not a channel (one of: ${PUBLISHING_CHANNELS.join(', ')})`;
  if (target.ean !== null) {
    if (!isValidGtin(target.ean)) return `column 'ean': '${target.ean}' has an invalid check digit or length (GTIN-8, -12, -13 or -14 expected)`;
    const holder = gtinForms(target.ean)
      .map((form) => ctx.eanHolders.get(form))
      .find((k) => k !== undefined && k !== key);
    if (holder) return `column 'ean': product '${holder}' already has EAN ${target.ean}`;
  }
  if (f.slug !== undefined) {
    const holder = ctx.slugHolders.get(f.slug);
    if (holder !== undefined && holder !== key) return `column 'slug': product '${holder}' already has slug '${f.slug}'`;
  }
  return null;
}

/** The file's attribute values (its metafield columns among them) onto the target; why they do not fit, else null. */
function attributesProblem(draft: ProductDraft, target: TargetProduct, ex: ProductSnapshot | null, ctx: PlanContext): string | null {
  // Metafield columns are the attributes mapped to those metafields.
  let texts = draft.attributes;
  for (const [metafield, text] of Object.entries(draft.metafields ?? {})) {
    const code = ctx.metafieldCodes.get(metafield);
    if (code !== undefined) texts = { ...texts, [code]: text };
  }
  if (texts) {
    const problem = attributeProblem(texts, ctx.definitions, !ex);
    if (typeof problem === 'string') return problem;
    target.attributes = Object.fromEntries(Object.entries({ ...target.attributes, ...problem }).filter(([, v]) => v !== null));
  } else if (!ex) {
    const problem = attributeProblem({}, ctx.definitions, true);
    if (typeof problem === 'string') return problem;
  }
  return null;
}

/** The warehouse levels that change; why, when a column names no warehouse. */
function stockPlan(draft: ProductDraft, ex: ProductSnapshot | null, ctx: PlanContext): ProductPlan['stock'] | string {
  const stock: ProductPlan['stock'] = [];
  for (const [code, quantity] of Object.entries(draft.stock ?? {})) {
    const warehouseId = ctx.warehouses.get(code);
    if (warehouseId === undefined) return `column 'stock:${code}': no warehouse has the code '${code}'`;
    if (ex?.stock[code] !== quantity) stock.push({ warehouseId, quantity });
  }
  return stock;
}

/** The category paths to assign, when they change (null: left as they are). */
function categoriesPlan(draft: ProductDraft, ex: ProductSnapshot | null, ctx: PlanContext): string[][] | null {
  const f = draft.fields;
  let categories: string[][] | null = null;
  if (f.categories) {
    const wanted = [...new Map(f.categories.map((p) => [pathKey(p), p])).values()];
    const current = ex ? categoryPaths(ex.category_ids, ctx.tree) : [];
    if (!sameSet(wanted.map(pathKey), current.map(pathKey))) categories = wanted;
  }
  return categories;
}

/** The translations that change. */
function translationsPlan(draft: ProductDraft, ex: ProductSnapshot | null): ProductPlan['translations'] {
  const translations: ProductPlan['translations'] = [];
  for (const [locale, given] of Object.entries(draft.translations ?? {})) {
    const current = ex?.translations[locale];
    const next = {
      name: given.name !== undefined ? given.name : (current?.name ?? null),
      description: given.description !== undefined ? given.description : (current?.description ?? null),
      short_description: given.short_description !== undefined ? given.short_description : (current?.short_description ?? null),
    };
    const empty = next.name === null && next.description === null && next.short_description === null;
    if (current ? !sameValues({ ...current }, next) : !empty) translations.push({ locale, ...next });
  }
  return translations;
}

/** The images the product does not have yet, and those whose alt text the file changes. */
function imagesPlan(draft: ProductDraft, ex: ProductSnapshot | null): Pick<ProductPlan, 'newImages' | 'imageAlts'> {
  // A pending URL is the product's already (only its download is missing): naming it again changes nothing.
  const altOf = new Map<string, string | null>();
  for (const [i, url] of (ex?.images ?? []).entries()) altOf.set(url, ex!.image_alts[i] ?? null);
  for (const [i, url] of (ex?.pending_images ?? []).entries()) if (!altOf.has(url)) altOf.set(url, ex!.pending_image_alts[i] ?? null);
  const newImages: ProductPlan['newImages'] = [];
  const imageAlts: ProductPlan['imageAlts'] = [];
  (draft.images ?? []).forEach((url, position) => {
    const alt = draft.imageAlts?.[position] ?? null;
    if (!altOf.has(url)) newImages.push({ url, position, alt });
    else if (draft.imageAlts && altOf.get(url) !== alt) imageAlts.push({ url, alt });
  });
  return { newImages, imageAlts };
}

/** Each row's outcome: a new product's are created; a variant row's is its variant's; the others follow the product. */
function outcomesOf(draft: ProductDraft, ex: ProductSnapshot | null, byLine: Map<number, Outcome>, productLevel: boolean): Map<number, Outcome> {
  const outcomes = new Map<number, Outcome>();
  for (const line of draft.lines) {
    const variant = byLine.get(line);
    if (!ex) outcomes.set(line, 'created');
    else if (variant && variant !== 'unchanged') outcomes.set(line, variant);
    else outcomes.set(line, (variant === undefined || line === draft.line) && productLevel ? 'updated' : 'unchanged');
  }
  return outcomes;
}

/** The product's EAN, slug, SKU and variant SKUs are its own from now on, for the batch's later products. */
function holdKeys(key: string, target: TargetProduct, variants: TargetVariant[], ctx: PlanContext): void {
  if (target.ean !== null) for (const form of gtinForms(target.ean)) ctx.eanHolders.set(form, key);
  if (target.slug !== null) ctx.slugHolders.set(target.slug, key);
  if (target.sku !== null) ctx.skuHolders.set(target.sku, key);
  for (const v of variants) if (v.sku !== null) ctx.variantOwners.set(v.sku, key);
}

/**
 * The product's SKU. Our format: the file's (the key). Shopify's: the file's when no other product has it; else the
 * stored product's; else, for a new product, one made from the Handle (marked generated: never written to a shop).
 */
function productSku(draft: ProductDraft, key: string, ex: ProductSnapshot | null, ctx: PlanContext): Pick<TargetProduct, 'sku' | 'skuBase' | 'sku_generated'> {
  if (ctx.keyColumn === 'sku') return { sku: draft.sku, skuBase: draft.sku, sku_generated: draft.skuGenerated ?? ex?.sku_generated ?? false };
  const free = (sku: string) => {
    const holder = ctx.skuHolders.get(sku);
    return holder === undefined || holder === key;
  };
  const wanted = draft.skuGenerated ? null : draft.sku;
  if (wanted !== null && free(wanted)) return { sku: wanted, skuBase: wanted, sku_generated: false };
  if (ex) return { sku: ex.sku, skuBase: ex.sku, sku_generated: ex.sku_generated };
  return { sku: free(key) ? key : null, skuBase: key, sku_generated: true };
}

/** The file's attribute texts as typed values (checked against the definitions), or why they do not fit. */
function attributeProblem(texts: Record<string, string | null>, definitions: AttributeDefinition[], creating: boolean): Record<string, unknown> | string {
  const byCode = new Map(definitions.map((d) => [d.code, d]));
  const values: Record<string, unknown> = {};
  for (const [code, text] of Object.entries(texts)) {
    const def = byCode.get(code);
    if (!def) return `column 'attribute:${code}': no product attribute has the code '${code}'`;
    if (text === null) values[code] = null;
    else if (def.type === 'number') values[code] = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
    else if (def.type === 'boolean') values[code] = /^(true|false)$/i.test(text) ? text.toLowerCase() === 'true' : text;
    else if (def.type === 'multiselect')
      values[code] = text
        .split('|')
        .map((v) => v.trim())
        .filter((v) => v !== '');
    else values[code] = text;
  }
  try {
    checkValues(definitions, values, creating);
  } catch (err) {
    return (err as Error).message.replace(/field 'attributes\.([^']*)'/g, "column 'attribute:$1'");
  }
  return values;
}
