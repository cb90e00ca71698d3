// What one product of a file does to the catalogue: its fields merged onto the current product (a column missing from
// the file leaves the field as it is), checked against the organization's data, and compared with what is stored, so
// that a second import of the same file writes nothing. Pure: the service gathers the context and writes the plan.
import { defaultVariantName } from '../../catalogue-csv/ours-format.js';
import { normaliseDecimal, type ProductDraft, type ProductFields, type RowError, type VariantDraft } from '../../catalogue-csv/draft.js';
import { gtinForms, isValidGtin } from '../../lib/gtin.js';
import { checkValues } from '../attributes/attribute.service.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import { PUBLISHING_CHANNELS } from '../pim.schemas.js';
import { categoryPaths, pathKey, type CategoryTree, type ProductSnapshot, type VariantSnapshot } from './catalogue-snapshot.js';

export type Outcome = 'created' | 'updated' | 'unchanged';

export interface PlanContext {
  definitions: AttributeDefinition[];
  /** Warehouse code → id. */
  warehouses: Map<string, number>;
  tree: CategoryTree;
  /** The stored products of the batch, by SKU. */
  existing: Map<string, ProductSnapshot>;
  /** Variant SKU → the SKU of the product holding it. */
  variantOwners: Map<string, string>;
  /** EAN (every GTIN spelling) and slug → the SKU of the product holding it, stored or earlier in this batch. */
  eanHolders: Map<string, string>;
  slugHolders: Map<string, string>;
}

/** The product row as it will be, in names (brand, supplier), not ids; categories apart. */
export interface TargetProduct extends Omit<ProductFields, 'categories' | 'slug'> {
  sku: string;
  /** null: a new product without a slug in the file (generated from the name when written). */
  slug: string | null;
  attributes: Record<string, unknown>;
}

export interface TargetVariant extends Omit<VariantSnapshot, 'id'> {
  line: number;
  outcome: Outcome;
}

export interface ProductPlan {
  draft: ProductDraft;
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
  /** Image URLs the product does not have yet, with their position in the file's list. */
  newImages: { url: string; position: number }[];
  /** Every row of the product that was not refused: its outcome. */
  outcomes: Map<number, Outcome>;
  /** Anything to write at all. */
  changed: boolean;
}

export function planProduct(draft: ProductDraft, ctx: PlanContext): { plan: ProductPlan | null; errors: RowError[] } {
  const refuse = (reason: string) => ({
    plan: null,
    errors: draft.lines.map((line) => ({
      line,
      sku: draft.sku,
      reason: line === draft.line ? reason : `not imported: its product (line ${draft.line}) was refused`,
    })),
  });
  const ex = ctx.existing.get(draft.sku) ?? null;
  const f = draft.fields;
  if (!ex && !f.name) return refuse(`product '${draft.sku}' is new and has no name`);

  const pick = <K extends keyof TargetProduct>(key: K, fallback: TargetProduct[K]): TargetProduct[K] =>
    (key in f ? (f as Record<string, unknown>)[key] : ex ? (ex as unknown as Record<string, unknown>)[key] : fallback) as TargetProduct[K];
  const target: TargetProduct = {
    sku: draft.sku,
    slug: f.slug ?? ex?.slug ?? null,
    name: f.name ?? ex!.name,
    description: pick('description', null),
    short_description: pick('short_description', null),
    product_type: f.product_type ?? ex?.product_type ?? 'simple',
    price: normaliseDecimal(pick('price', null)),
    sale_price: normaliseDecimal(pick('sale_price', null)),
    cost_price: normaliseDecimal(pick('cost_price', null)),
    currency: f.currency ?? ex?.currency ?? 'EUR',
    status: f.status ?? ex?.status ?? 'draft',
    ean: pick('ean', null),
    brand: pick('brand', null),
    supplier: pick('supplier', null),
    publishing_channels: pick('publishing_channels', []),
    product_condition: f.product_condition ?? ex?.product_condition ?? 'new',
    attributes: ex?.attributes ?? {},
  };

  const badChannel = target.publishing_channels.find((c) => !(PUBLISHING_CHANNELS as readonly string[]).includes(c));
  if (badChannel !== undefined) return refuse(`column 'publishing_channels': '${badChannel}' is not a channel (one of: ${PUBLISHING_CHANNELS.join(', ')})`);
  if (target.ean !== null) {
    if (!isValidGtin(target.ean)) return refuse(`column 'ean': '${target.ean}' has an invalid check digit or length (GTIN-8, -12, -13 or -14 expected)`);
    const holder = gtinForms(target.ean)
      .map((form) => ctx.eanHolders.get(form))
      .find((sku) => sku !== undefined && sku !== draft.sku);
    if (holder) return refuse(`column 'ean': product '${holder}' already has EAN ${target.ean}`);
  }
  if (f.slug !== undefined) {
    const holder = ctx.slugHolders.get(f.slug);
    if (holder !== undefined && holder !== draft.sku) return refuse(`column 'slug': product '${holder}' already has slug '${f.slug}'`);
  }

  if (draft.attributes) {
    const problem = attributeProblem(draft.attributes, ctx.definitions, !ex);
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

  const have = new Set(ex?.images ?? []);
  const newImages = (draft.images ?? []).map((url, position) => ({ url, position })).filter((i) => !have.has(i.url));

  const outcomes = new Map<number, Outcome>();
  const errors: RowError[] = [];
  const variants: TargetVariant[] = [];
  const byLine = new Map<number, Outcome>();
  let nextPosition = Math.max(-1, ...(ex?.variants ?? []).map((v) => v.position)) + 1;
  for (const vd of draft.variants) {
    const owner = ctx.variantOwners.get(vd.sku);
    if (owner !== undefined && owner !== draft.sku) {
      errors.push({ line: vd.line, sku: vd.sku, reason: `variant SKU '${vd.sku}' belongs to product '${owner}'` });
      continue;
    }
    const current = ex?.variants.find((v) => v.sku === vd.sku) ?? null;
    const next = mergeVariant(vd, current, current ? current.position : nextPosition++);
    const outcome: Outcome = !current ? 'created' : sameVariant(current, next) ? 'unchanged' : 'updated';
    byLine.set(vd.line, outcome);
    if (outcome !== 'unchanged') variants.push({ ...next, line: vd.line, outcome });
  }

  const productChanged = !ex || !sameProduct(ex, target);
  const productLevel = productChanged || categories !== null || stock.length > 0 || translations.length > 0 || newImages.length > 0;
  const failedLines = new Set(errors.map((e) => e.line));
  for (const line of draft.lines) {
    if (failedLines.has(line)) continue;
    const variant = byLine.get(line);
    if (!ex) outcomes.set(line, 'created');
    else if (variant && variant !== 'unchanged') outcomes.set(line, variant);
    else outcomes.set(line, (variant === undefined || line === draft.line) && productLevel ? 'updated' : 'unchanged');
  }
  const plan: ProductPlan = {
    draft,
    existingId: ex?.id ?? null,
    target,
    productChanged,
    categories,
    stock,
    translations,
    variants,
    newImages,
    outcomes,
    changed: productLevel || variants.length > 0,
  };
  if (target.ean !== null) for (const form of gtinForms(target.ean)) ctx.eanHolders.set(form, draft.sku);
  if (target.slug !== null) ctx.slugHolders.set(target.slug, draft.sku);
  return { plan, errors };
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

function mergeVariant(d: VariantDraft, cur: VariantSnapshot | null, position: number): Omit<VariantSnapshot, 'id'> {
  const f = d.fields;
  const has = (k: keyof typeof f) => k in f;
  const quantity = f.stock_quantity ?? cur?.stock_quantity ?? 0;
  const derived = quantity > 0 ? 'in_stock' : 'out_of_stock';
  const options = f.attributes ?? cur?.attributes ?? [];
  return {
    sku: d.sku,
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
  };
}

function sameVariant(a: VariantSnapshot, b: Omit<VariantSnapshot, 'id'>): boolean {
  return (
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

function sameProduct(a: ProductSnapshot, b: TargetProduct): boolean {
  return (
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
