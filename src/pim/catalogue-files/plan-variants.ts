// A product's variants in its import plan: matched to the stored ones, their SKUs chosen, merged onto what is stored.
import { defaultVariantName } from '../../catalogue-csv/cells.js';
import { normaliseDecimal, type ProductDraft, type RowError, type SellingFields, type VariantDraft } from '../../catalogue-csv/draft.js';
import { maxOf } from '../../lib/arrays.js';
import type { ProductSnapshot, VariantSnapshot } from './catalogue-snapshot.js';
import { optionsText, sameVariant } from './plan-compare.js';
import type { Outcome, PlanContext, TargetVariant } from './plan-types.js';

/**
 * The file's variants matched to the stored ones (Shopify's by their options, ours by SKU) and merged onto them: those
 * to write (new or changed), and each row's outcome; or the errors when a variant SKU is another product's.
 */
export function planVariants(
  draft: ProductDraft,
  key: string,
  ex: ProductSnapshot | null,
  ctx: PlanContext,
): { variants: TargetVariant[]; byLine: Map<number, Outcome> } | { errors: RowError[] } {
  const shopify = ctx.keyColumn === 'slug';
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
  return { variants, byLine };
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

function mergeVariant(d: VariantDraft, cur: VariantSnapshot | null, position: number): Omit<VariantSnapshot, 'id' | 'sku' | 'sku_generated'> {
  const f = d.fields;
  const has = (k: keyof typeof f) => k in f;
  // A variant with levels per warehouse keeps their sum: the file's count is for the others.
  const fileQuantity = cur?.has_levels ? undefined : f.stock_quantity;
  const quantity = fileQuantity ?? cur?.stock_quantity ?? 0;
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
    stock_status: f.stock_status ?? (cur && (fileQuantity === undefined || cur.stock_status === 'on_backorder') ? cur.stock_status : derived),
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
