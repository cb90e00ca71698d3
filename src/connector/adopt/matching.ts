// The rules of an adoption's matching, pure: which shop product is which PIM product, and which storefront variant is
// which PIM SKU. Rules, in order, each over all products before the next (so a SKU match wins over a handle match of
// the same PIM product):
//   1. pim_id  — our `pimbridge.pim_product_id` metafield (a product an earlier push of ours made);
//   2. sku     — a shop variant's SKU = the PIM product's SKU (a PIM product without variants) or one of its variants'
//                SKUs (a PIM product with variants); a shop product whose SKUs name several PIM products takes the one
//                most of them name (the first such on a tie);
//   3. barcode — a shop variant's barcode = the PIM product's EAN, as the same GTIN (PIM variants have no barcode);
//   4. handle  — the shop product's handle = the PIM product's slug.
// A PIM product links to one shop product at most (the first, in the shop's order, that a rule pairs it with), and a
// product mapped already — on either side — is left as it is. A mapping that never reached the shop (no storefront
// product: a push the shop refused, e.g. because a merchant's product holds the PIM slug as its handle) links nothing,
// so its PIM product can be adopted. Archived PIM products are matched only by our metafield
// (linking one by SKU would archive the shop's product at the next sync).
import type { StorefrontCatalogueProduct } from '../../storefront/port/catalogue.js';
import type { PimVariant } from '../../storefront/port/pim-product.js';

export const MATCH_RULES = ['pim_id', 'sku', 'barcode', 'handle'] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

/** What matching needs of a PIM product (GET /api/products?include=variants). */
export interface PimCatalogueEntry {
  id: number;
  sku: string;
  slug?: string;
  name: string;
  ean?: string | null;
  status?: string;
  variants: Pick<PimVariant, 'sku' | 'attributes'>[];
  /** Its image URLs, in order (read for products an adoption imported: their media are the shop's). */
  images?: string[];
}

/** An existing mapping of the integration: its PIM product, its storefront product, and the adoption that made it. */
export interface ExistingLink {
  pimProductId: number;
  storefrontProductId: number | null;
  adoptionId: string | null;
}

export interface Match {
  shop: StorefrontCatalogueProduct;
  pim: PimCatalogueEntry;
  rule: MatchRule;
}

export interface UnmatchedShopProduct {
  shop: StorefrontCatalogueProduct;
  /** Why it was not linked (a candidate taken, or nothing found). */
  reason: string;
}

export interface MatchResult {
  /** New links to write (and, when this adoption wrote them already on an earlier try, links to count again). */
  matches: Match[];
  /** Shop products an existing mapping (made before this adoption) links already. */
  alreadyMapped: number;
  unmatchedShop: UnmatchedShopProduct[];
  /** PIM products (not archived, not mapped) no shop product was linked to. */
  unmatchedPim: PimCatalogueEntry[];
}

/** A GTIN as one key whatever its spelling (UPC-A 12 digits = EAN-13 with a leading 0): 14 digits; null if not one. */
export function gtinKey(code: string | null | undefined): string | null {
  const digits = code?.trim() ?? '';
  return /^\d{8,14}$/.test(digits) ? digits.padStart(14, '0') : null;
}

const skuKey = (sku: string | null | undefined) => (sku ?? '').trim();
const handleKey = (handle: string | null | undefined) => (handle ?? '').trim().toLowerCase();

export function matchCatalogues(
  shopProducts: StorefrontCatalogueProduct[],
  pimProducts: PimCatalogueEntry[],
  existing: ExistingLink[],
  adoptionId: string,
): MatchResult {
  const pimById = new Map(pimProducts.map((p) => [p.id, p]));
  const { ours, mappedPim, mappedShop } = existingLinks(existing, adoptionId);

  const claimed = new Map<number, StorefrontCatalogueProduct>(); // PIM id → the shop product it is linked to
  const linked = new Map<string, Match>(); // shop GID → its match
  const refusals = new Map<string, string>(); // shop GID → why a candidate was not taken
  let alreadyMapped = 0;
  const open: StorefrontCatalogueProduct[] = [];
  for (const shop of shopProducts) {
    const previous = ours.get(shop.numericId);
    const pim = previous === undefined ? undefined : pimById.get(previous);
    if (pim) {
      linked.set(shop.id, { shop, pim, rule: ruleOf(shop, pim) });
      claimed.set(pim.id, shop);
    } else if (mappedShop.has(shop.numericId)) alreadyMapped++;
    else open.push(shop);
  }

  const active = pimProducts.filter((p) => p.status !== 'archived');
  const { bySku, byGtin, byHandle } = indexesOf(active);

  const candidates: Record<MatchRule, (shop: StorefrontCatalogueProduct) => PimCatalogueEntry | undefined> = {
    pim_id: (shop) => (shop.pimProductId === null ? undefined : pimById.get(shop.pimProductId)),
    sku: (shop) => mostNamed(shop.variants.map((v) => bySku.get(skuKey(v.sku)))),
    barcode: (shop) => mostNamed(shop.variants.map((v) => byGtin.get(gtinKey(v.barcode) ?? ''))),
    handle: (shop) => byHandle.get(handleKey(shop.handle)),
  };
  for (const rule of MATCH_RULES) {
    for (const shop of open) {
      if (linked.has(shop.id)) continue;
      const pim = candidates[rule](shop);
      if (!pim) continue;
      if (mappedPim.has(pim.id)) {
        refusals.set(shop.id, refusals.get(shop.id) ?? `PIM product ${pim.id} (by ${rule}) is mapped to another storefront product already`);
        continue;
      }
      const first = claimed.get(pim.id);
      if (first) {
        refusals.set(
          shop.id,
          refusals.get(shop.id) ?? `PIM product ${pim.id} (by ${rule}) is linked to storefront product ${first.numericId}, which matched it first`,
        );
        continue;
      }
      linked.set(shop.id, { shop, pim, rule });
      claimed.set(pim.id, shop);
    }
  }

  const matches = shopProducts.flatMap((s) => (linked.has(s.id) ? [linked.get(s.id)!] : []));
  const unmatchedShop = open
    .filter((s) => !linked.has(s.id))
    .map((shop) => ({ shop, reason: refusals.get(shop.id) ?? 'no PIM product with its SKU, barcode or handle' }));
  const unmatchedPim = active.filter((p) => !claimed.has(p.id) && !mappedPim.has(p.id));
  return { matches, alreadyMapped, unmatchedShop, unmatchedPim };
}

/**
 * Existing links: a PIM product mapped already keeps its mapping; a storefront product mapped already is left alone.
 * A link this very adoption wrote (an earlier try of its job) counts as its match again (`ours`: storefront id → PIM id).
 */
function existingLinks(existing: ExistingLink[], adoptionId: string) {
  const ours = new Map<number, number>();
  const mappedPim = new Set<number>();
  const mappedShop = new Map<number, number>();
  for (const link of existing) {
    if (link.storefrontProductId === null) continue;
    if (link.adoptionId === adoptionId) ours.set(link.storefrontProductId, link.pimProductId);
    else {
      mappedPim.add(link.pimProductId);
      mappedShop.set(link.storefrontProductId, link.pimProductId);
    }
  }
  return { ours, mappedPim, mappedShop };
}

/** The active PIM products by SKU (theirs or their variants'), GTIN and handle; the first product holding a key keeps it. */
function indexesOf(active: PimCatalogueEntry[]) {
  const bySku = new Map<string, PimCatalogueEntry>();
  const byGtin = new Map<string, PimCatalogueEntry>();
  const byHandle = new Map<string, PimCatalogueEntry>();
  for (const p of active) {
    const skus = p.variants.length === 0 ? [p.sku] : p.variants.map((v) => v.sku);
    for (const sku of skus) if (skuKey(sku) && !bySku.has(skuKey(sku))) bySku.set(skuKey(sku), p);
    const gtin = gtinKey(p.ean);
    if (gtin && !byGtin.has(gtin)) byGtin.set(gtin, p);
    if (p.slug && !byHandle.has(handleKey(p.slug))) byHandle.set(handleKey(p.slug), p);
  }
  return { bySku, byGtin, byHandle };
}

/** The rule that pairs them (for a link found again): the first that holds. */
function ruleOf(shop: StorefrontCatalogueProduct, pim: PimCatalogueEntry): MatchRule {
  if (shop.pimProductId === pim.id) return 'pim_id';
  const skus = new Set(pim.variants.length === 0 ? [skuKey(pim.sku)] : pim.variants.map((v) => skuKey(v.sku)));
  if (shop.variants.some((v) => skus.has(skuKey(v.sku)))) return 'sku';
  const gtin = gtinKey(pim.ean);
  if (gtin && shop.variants.some((v) => gtinKey(v.barcode) === gtin)) return 'barcode';
  return 'handle';
}

/** The PIM product most of the list names (the first such on a tie); undefined when none. */
function mostNamed(found: (PimCatalogueEntry | undefined)[]): PimCatalogueEntry | undefined {
  const votes = new Map<PimCatalogueEntry, number>();
  let best: PimCatalogueEntry | undefined;
  for (const p of found) {
    if (!p) continue;
    const n = (votes.get(p) ?? 0) + 1;
    votes.set(p, n);
    if (!best || n > votes.get(best)!) best = p;
  }
  return best;
}

/**
 * Which storefront variant is which PIM SKU, so the next push updates the shop's variants instead of replacing them:
 * a PIM product without variants is its SKU on the variant with that SKU, else the shop's only variant, else the one
 * with its EAN as barcode, else the first; a PIM product's variants by SKU, then by their option values (Shopify
 * compares them without case).
 */
export function variantLinks(
  shop: StorefrontCatalogueProduct,
  pim: PimCatalogueEntry,
): { variantIds: Record<string, string>; inventoryItemIds: Record<string, string> } {
  const variantIds: Record<string, string> = {};
  const inventoryItemIds: Record<string, string> = {};
  const link = (sku: string, v: StorefrontCatalogueProduct['variants'][number] | undefined) => {
    if (!v) return;
    variantIds[sku] = v.id;
    if (v.inventoryItemId) inventoryItemIds[sku] = v.inventoryItemId;
  };
  if (shop.variants.length === 0) return { variantIds, inventoryItemIds };
  if (pim.variants.length === 0) {
    const gtin = gtinKey(pim.ean);
    link(
      pim.sku,
      shop.variants.find((v) => skuKey(v.sku) === skuKey(pim.sku)) ??
        (shop.variants.length === 1 ? shop.variants[0] : undefined) ??
        shop.variants.find((v) => gtin !== null && gtinKey(v.barcode) === gtin) ??
        shop.variants[0],
    );
    return { variantIds, inventoryItemIds };
  }
  const taken = new Set<string>();
  const pending: PimCatalogueEntry['variants'] = [];
  for (const pv of pim.variants) {
    const v = shop.variants.find((sv) => !taken.has(sv.id) && skuKey(sv.sku) === skuKey(pv.sku));
    if (v) {
      taken.add(v.id);
      link(pv.sku, v);
    } else pending.push(pv);
  }
  const norm = (pairs: { name: string; value: string }[]) =>
    pairs
      .map((p) => `${p.name.trim().toLowerCase()}\u0000${p.value.trim().toLowerCase()}`)
      .sort()
      .join('\u0001');
  for (const pv of pending) {
    const want = norm(pv.attributes.map((a) => ({ name: a.attribute_name, value: a.value })));
    if (!want) continue;
    const v = shop.variants.find((sv) => !taken.has(sv.id) && norm(sv.options) === want);
    if (v) {
      taken.add(v.id);
      link(pv.sku, v);
    }
  }
  return { variantIds, inventoryItemIds };
}
