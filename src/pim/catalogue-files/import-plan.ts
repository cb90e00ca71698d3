// What one product of a file does to the catalogue: its fields merged onto the current product (a column missing from
// the file leaves the field as it is), checked against the organization's data, and compared with what is stored, so
// that a second import of the same file writes nothing. Pure: the service gathers the context and writes the plan.
import { defaultVariantName } from '../../catalogue-csv/cells.js';
import { normaliseDecimal, type ProductDraft, type ProductFields, type RowError, type SellingFields, type VariantDraft } from '../../catalogue-csv/draft.js';
import { maxOf } from '../../lib/arrays.js';
import { gtinForms, isValidGtin } from '../../lib/gtin.js';
import { checkValues } from '../attributes/attribute.service.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import { PUBLISHING_CHANNELS } from '../pim.schemas.js';
import { categoryPaths, pathKey, type CategoryTree, type ProductSnapshot, type VariantSnapshot } from './catalogue-snapshot.js';
import type { KeyColumn } from './catalogue.repository.js';

export type Outcome = 'created' | 'updated' | 'unchanged';

export interface PlanContext {
  /** What a file's products are matched by: our format's SKU, Shopify's Handle (the slug). */
  keyColumn: KeyColumn;
  definitions: AttributeDefinition[];
  /** Storefront metafield (`ns.key`) → the code of the attribute mapped to it. */
  metafieldCodes: Map<string, string>;
  /** Warehouse code → id. */
  warehouses: Map<string, number>;
  tree: CategoryTree;
  /** The stored products of the batch, by key. */
  existing: Map<string, ProductSnapshot>;
  /** Variant SKU → the key of the product holding it, stored or earlier in this batch. */
  variantOwners: Map<string, string>;
  /** EAN (every GTIN spelling), slug and product SKU → the key of the product holding it, stored or earlier in this batch. */
  eanHolders: Map<string, string>;
  slugHolders: Map<string, string>;
  skuHolders: Map<string, string>;
  /** The currency of a new product the file names none for (the organization's default, else EUR). */
  defaultCurrency: string;
  /** The channels an active product gets when the file names none: `web`, when the organization has it. */
  defaultChannels: string[];
}

/** The product row as it will be, in names (brand, supplier), not ids; categories apart. */
export interface TargetProduct extends Omit<ProductFields, 'categories' | 'slug'> {
  /** null: a SKU made when written, from `skuBase` (free among the stored ones and this batch's). */
  sku: string | null;
  skuBase: string;
  sku_generated: boolean;
  /** null: a new product without a slug in the file (generated from the name when written). */
  slug: string | null;
  attributes: Record<string, unknown>;
}

export interface TargetVariant extends Omit<VariantSnapshot, 'id' | 'sku'> {
  /** The stored variant it overwrites; null: a new one. */
  id: number | null;
  /** null: a SKU made when written, from `skuBase`. */
  sku: string | null;
  skuBase: string;
  line: number;
  outcome: Outcome;
}

export interface ProductPlan {
  draft: ProductDraft;
  /** The product's key (its SKU in our format, its Handle in Shopify's): how rows and errors name it. */
  key: string;
  existingId: number | null;
  target: TargetProduct;
  productChanged: boolean;
  /** Category paths to assign, when they change. */
  categories: string[][] | null;
  /** Stock by warehouse id, the levels that change. */
  stock: { warehouseId: number; quantity: number }[];
  translations: { locale: string; name: string | null; description: string | null; short_description: string | null }[];
  /** Variants to write (new or changed). */
  variants: TargetVariant[];
  /** Image URLs the product does not have yet, with their position in the file's list and their alt text. */
  newImages: { url: string; position: number; alt: string | null }[];
  /** Images the product has whose alt text the file changes. */
  imageAlts: { url: string; alt: string | null }[];
  /** URLs whose download failed in an earlier import: tried again with this import's downloads (no change by itself). */
  pendingImages: string[];
  /** Every row of the product that was not refused: its outcome. */
  outcomes: Map<number, Outcome>;
  /** Anything to write at all. */
  changed: boolean;
}

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
  const shopify = ctx.keyColumn === 'slug';
  const ex = ctx.existing.get(key) ?? null;
  const f = draft.fields;
  if (!ex && !f.name) return refuse(`product '${key}' is new and has no name`);

  const pick = <K extends keyof TargetProduct>(k: K, fallback: TargetProduct[K]): TargetProduct[K] =>
    (k in f ? (f as Record<string, unknown>)[k] : ex ? (ex as unknown as Record<string, unknown>)[k] : fallback) as TargetProduct[K];
  // A product with stock per warehouse has the sum of its levels as its stock; the file's own stock is for the others.
  const hasLevels = Object.keys(ex?.stock ?? {}).length > 0 || Object.keys(draft.stock ?? {}).length > 0;
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

  const badChannel = target.publishing_channels.find((c) => !(PUBLISHING_CHANNELS as readonly string[]).includes(c));
  if (badChannel !== undefined) return refuse(`column 'publishing_channels': '${badChannel}' is not a channel (one of: ${PUBLISHING_CHANNELS.join(', ')})`);
  if (target.ean !== null) {
    if (!isValidGtin(target.ean)) return refuse(`column 'ean': '${target.ean}' has an invalid check digit or length (GTIN-8, -12, -13 or -14 expected)`);
    const holder = gtinForms(target.ean)
      .map((form) => ctx.eanHolders.get(form))
      .find((k) => k !== undefined && k !== key);
    if (holder) return refuse(`column 'ean': product '${holder}' already has EAN ${target.ean}`);
  }
  if (f.slug !== undefined) {
    const holder = ctx.slugHolders.get(f.slug);
    if (holder !== undefined && holder !== key) return refuse(`column 'slug': product '${holder}' already has slug '${f.slug}'`);
  }

  // Metafield columns are the attributes mapped to those metafields.
  let texts = draft.attributes;
  for (const [metafield, text] of Object.entries(draft.metafields ?? {})) {
    const code = ctx.metafieldCodes.get(metafield);
    if (code !== undefined) texts = { ...texts, [code]: text };
  }
  if (texts) {
    const problem = attributeProblem(texts, ctx.definitions, !ex);
    if (typeof problem === 'string') return refuse(problem);
    target.attributes = Object.fromEntries(Object.entries({ ...target.attributes, ...problem }).filter(([, v]) => v !== null));
  } else if (!ex) {
    const problem = attributeProblem({}, ctx.definitions, true);
    if (typeof problem === 'string') return refuse(problem);
  }

  const stock: ProductPlan['stock'] = [];
  for (const [code, quantity] of Object.entries(draft.stock ?? {})) {
    const warehouseId = ctx.warehouses.get(code);
    if (warehouseId === undefined) return refuse(`column 'stock:${code}': no warehouse has the code '${code}'`);
    if (ex?.stock[code] !== quantity) stock.push({ warehouseId, quantity });
  }

  let categories: string[][] | null = null;
  if (f.categories) {
    const wanted = [...new Map(f.categories.map((p) => [pathKey(p), p])).values()];
    const current = ex ? categoryPaths(ex.category_ids, ctx.tree) : [];
    if (!sameSet(wanted.map(pathKey), current.map(pathKey))) categories = wanted;
  }

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

  const outcomes = new Map<number, Outcome>();
  const variants: TargetVariant[] = [];
  const byLine = new Map<number, Outcome>();
  let nextPosition =
    maxOf(
      (ex?.variants ?? []).map((v) => v.position),
      -1,
    ) + 1;
  const matched = new Set<number>();
  const chosen = new Set<string>();
  for (const [n, vd] of draft.variants.entries()) {
    let current: VariantSnapshot | null;
    let sku: { sku: string | null; skuBase: string; sku_generated: boolean };
    if (shopify) {
      // Shopify knows a product's variants by their options (its SKUs need not be unique, nor given).
      const free = ex?.variants.filter((v) => !matched.has(v.id)) ?? [];
      current =
        free.find((v) => optionsText(v.attributes) === optionsText(vd.fields.attributes ?? [])) ??
        (vd.skuGenerated ? undefined : free.find((v) => v.sku === vd.sku)) ??
        null;
      sku = variantSku(vd, n, key, current, ex, chosen, ctx);
    } else {
      current = ex?.variants.find((v) => v.sku === vd.sku) ?? null;
      const owner = ctx.variantOwners.get(vd.sku);
      if (owner !== undefined && owner !== key) {
        const others = draft.lines.filter((l) => l !== vd.line);
        return {
          plan: null,
          errors: [
            { line: vd.line, sku: vd.sku, reason: `variant SKU '${vd.sku}' belongs to product '${owner}'` },
            ...others.map((line) => ({ line, sku: key, reason: `not imported: its product has a variant SKU of another product (line ${vd.line})` })),
          ].sort((a, b) => a.line - b.line),
        };
      }
      sku = { sku: vd.sku, skuBase: vd.sku, sku_generated: vd.skuGenerated ?? current?.sku_generated ?? false };
    }
    if (current) matched.add(current.id);
    if (sku.sku !== null) chosen.add(sku.sku);
    const next = { ...mergeVariant(vd, current, current ? current.position : nextPosition++), ...sku, id: current?.id ?? null };
    const outcome: Outcome = !current ? 'created' : sameVariant(current, next) ? 'unchanged' : 'updated';
    byLine.set(vd.line, outcome);
    if (outcome !== 'unchanged') variants.push({ ...next, line: vd.line, outcome });
  }

  const productChanged = !ex || !sameProduct(ex, target);
  const productLevel = productChanged || categories !== null || stock.length > 0 || translations.length > 0 || newImages.length > 0 || imageAlts.length > 0;
  for (const line of draft.lines) {
    const variant = byLine.get(line);
    if (!ex) outcomes.set(line, 'created');
    else if (variant && variant !== 'unchanged') outcomes.set(line, variant);
    else outcomes.set(line, (variant === undefined || line === draft.line) && productLevel ? 'updated' : 'unchanged');
  }
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
    outcomes,
    changed: productLevel || variants.length > 0,
  };
  if (target.ean !== null) for (const form of gtinForms(target.ean)) ctx.eanHolders.set(form, key);
  if (target.slug !== null) ctx.slugHolders.set(target.slug, key);
  if (target.sku !== null) ctx.skuHolders.set(target.sku, key);
  for (const v of variants) if (v.sku !== null) ctx.variantOwners.set(v.sku, key);
  return { plan, errors: [] };
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

/** A Shopify variant's SKU: the file's when free, else the stored variant's, else one made from `{handle}-{n}`. */
function variantSku(
  vd: VariantDraft,
  n: number,
  key: string,
  current: VariantSnapshot | null,
  ex: ProductSnapshot | null,
  chosen: Set<string>,
  ctx: PlanContext,
): { sku: string | null; skuBase: string; sku_generated: boolean } {
  const free = (sku: string) => {
    if (chosen.has(sku)) return false;
    const owner = ctx.variantOwners.get(sku);
    if (owner === undefined) return true;
    // This product's own: free when it is the matched variant's (or no other variant of the product keeps it).
    return owner === key && (current?.sku === sku || !ex?.variants.some((v) => v.sku === sku));
  };
  const wanted = vd.skuGenerated ? null : vd.sku;
  if (wanted !== null && free(wanted)) return { sku: wanted, skuBase: wanted, sku_generated: false };
  if (current) return { sku: current.sku, skuBase: current.sku, sku_generated: current.sku_generated };
  const base = `${key}-${n + 1}`;
  return { sku: free(base) ? base : null, skuBase: base, sku_generated: true };
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

function mergeVariant(d: VariantDraft, cur: VariantSnapshot | null, position: number): Omit<VariantSnapshot, 'id' | 'sku' | 'sku_generated'> {
  const f = d.fields;
  const has = (k: keyof typeof f) => k in f;
  const quantity = f.stock_quantity ?? cur?.stock_quantity ?? 0;
  const derived = quantity > 0 ? 'in_stock' : 'out_of_stock';
  const options = f.attributes ?? cur?.attributes ?? [];
  const pick = <K extends keyof SellingFields>(k: K): SellingFields[K] => (has(k) ? (f[k] as SellingFields[K]) : (cur?.[k] ?? null));
  return {
    name: f.name ?? cur?.name ?? defaultVariantName(d.sku, options),
    price: normaliseDecimal(has('price') ? f.price : cur?.price),
    sale_price: normaliseDecimal(has('sale_price') ? f.sale_price : cur?.sale_price),
    cost: normaliseDecimal(has('cost') ? f.cost : cur?.cost),
    weight: normaliseDecimal(has('weight') ? f.weight : cur?.weight),
    stock_quantity: quantity,
    // As the variants API does: a new quantity re-derives the status unless the variant is on backorder.
    stock_status: f.stock_status ?? (cur && (f.stock_quantity === undefined || cur.stock_status === 'on_backorder') ? cur.stock_status : derived),
    is_enabled: f.is_enabled ?? cur?.is_enabled ?? true,
    position,
    image: has('image') ? (f.image ?? null) : (cur?.image ?? null),
    attributes: options,
    barcode: pick('barcode'),
    compare_at_price: normaliseDecimal(pick('compare_at_price')),
    weight_unit: pick('weight_unit'),
    inventory_policy: pick('inventory_policy'),
    inventory_tracked: pick('inventory_tracked'),
    taxable: pick('taxable'),
    requires_shipping: pick('requires_shipping'),
  };
}

function sameVariant(a: VariantSnapshot, b: Omit<TargetVariant, 'line' | 'outcome' | 'id' | 'skuBase'>): boolean {
  return (
    a.sku === b.sku &&
    a.sku_generated === b.sku_generated &&
    sameSelling(a, b) &&
    a.name === b.name &&
    normaliseDecimal(a.price) === b.price &&
    normaliseDecimal(a.sale_price) === b.sale_price &&
    normaliseDecimal(a.cost) === b.cost &&
    normaliseDecimal(a.weight) === b.weight &&
    a.stock_quantity === b.stock_quantity &&
    a.stock_status === b.stock_status &&
    a.is_enabled === b.is_enabled &&
    a.image === b.image &&
    optionsText(a.attributes) === optionsText(b.attributes)
  );
}

/** Option values compared by content: jsonb hands objects back with its own key order. */
const optionsText = (options: { attribute_name: string; value: string }[]) => JSON.stringify(options.map((o) => [o.attribute_name, o.value]));

/** The selling fields compared (decimals at 4 places). */
function sameSelling(a: SellingFields, b: SellingFields): boolean {
  return (
    a.barcode === b.barcode &&
    normaliseDecimal(a.compare_at_price) === normaliseDecimal(b.compare_at_price) &&
    a.weight_unit === b.weight_unit &&
    a.inventory_policy === b.inventory_policy &&
    a.inventory_tracked === b.inventory_tracked &&
    a.taxable === b.taxable &&
    a.requires_shipping === b.requires_shipping
  );
}

function sameProduct(a: ProductSnapshot, b: TargetProduct): boolean {
  return (
    a.sku === b.sku &&
    a.sku_generated === b.sku_generated &&
    sameSelling(a, b) &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
    a.seo_title === b.seo_title &&
    a.seo_description === b.seo_description &&
    a.gift_card === b.gift_card &&
    a.taxonomy_category === b.taxonomy_category &&
    a.storefront_type === b.storefront_type &&
    normaliseDecimal(a.weight) === b.weight &&
    a.stock_quantity === b.stock_quantity &&
    a.slug === b.slug &&
    a.name === b.name &&
    a.description === b.description &&
    a.short_description === b.short_description &&
    a.product_type === b.product_type &&
    normaliseDecimal(a.price) === b.price &&
    normaliseDecimal(a.sale_price) === b.sale_price &&
    normaliseDecimal(a.cost_price) === b.cost_price &&
    a.currency === b.currency &&
    a.status === b.status &&
    a.ean === b.ean &&
    a.brand === b.brand &&
    a.supplier === b.supplier &&
    JSON.stringify(a.publishing_channels) === JSON.stringify(b.publishing_channels) &&
    a.product_condition === b.product_condition &&
    sameValues(a.attributes, b.attributes)
  );
}

/** Same keys with the same values (JSON-equal), whatever the key order. */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function sameSet(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}
