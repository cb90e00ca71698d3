// The lists productSet replaces whole ("deletes existing entries that aren't included"): tags, metafields and custom
// collections. Ours are merged with the merchant's as read before the push, so only what the bridge wrote is ever removed.
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { SyncPlacement } from '../port/placement.js';
import type { ProductSetInput, StorefrontMetafield, StorefrontTags } from './product-set-input.js';

export const METAFIELD_NAMESPACE = 'pimbridge';
export const PIM_ID_KEY = 'pim_product_id';
/** The PIM tags we sent last time (JSON list): only these tags are ours to remove. */
export const PIM_TAGS_KEY = 'pim_tags';
/**
 * Before PIM tags, pushes sent the category names as tags and recorded them here (JSON list): the first push after that
 * change removes those tags (unless the PIM has them as tags now) and this metafield.
 */
export const CATEGORY_TAGS_KEY = 'category_tags';

/**
 * Tags: the PIM's tags, plus every tag already on the storefront product that is not one we sent before (the merchant's
 * tags survive; a tag removed in the PIM goes; so do the category names older pushes sent as tags). Shopify compares
 * tags without case.
 */
export function mergeTags(pimTags: string[], current: StorefrontTags | null): string[] {
  const ours = new Set(pimTags.map((t) => t.toLowerCase()));
  const previous = new Set((current?.previousTags ?? []).map((t) => t.toLowerCase()));
  const kept = (current?.tags ?? []).filter((t) => !previous.has(t.toLowerCase()) && !ours.has(t.toLowerCase()));
  return [...kept, ...pimTags];
}

/** The product's PIM tags: trimmed, distinct without case, in the PIM's order (categories are collections, not tags). */
export function pimTagsOf(product: Pick<PimProductSnapshot, 'tags'>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of Array.isArray(product.tags) ? product.tags : []) {
    if (typeof t !== 'string') continue;
    const tag = t.trim();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/**
 * The tags our previous pushes sent, from our metafields' JSON lists (`pimbridge.pim_tags`, and the category names an
 * older push recorded in `pimbridge.category_tags`); null when neither is there (no tag is then taken for ours).
 */
export function previousTagsOf(...values: (string | null | undefined)[]): string[] | null {
  let out: string[] | null = null;
  for (const value of values) {
    if (!value) continue;
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) out = [...(out ?? []), ...parsed.filter((t): t is string => typeof t === 'string')];
    } catch {
      // Not ours to read: treated as absent.
    }
  }
  return out;
}

/** Same tags, whatever the order and case (a mapping that recorded none: not the same). */
export function sameTags(previous: string[] | undefined, now: string[]): boolean {
  if (!previous) return false;
  const norm = (tags: string[]) => [...new Set(tags.map((t) => t.toLowerCase()))].sort().join('\n');
  return norm(previous) === norm(now);
}

export function ourMetafields(pimId: number, pimTags: string[]): StorefrontMetafield[] {
  return [
    { namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY, type: 'single_line_text_field', value: String(pimId) },
    { namespace: METAFIELD_NAMESPACE, key: PIM_TAGS_KEY, type: 'json', value: JSON.stringify(pimTags) },
  ];
}

/**
 * productSet replaces the metafield list it is sent. A new product gets ours; an existing one gets nothing when ours are
 * unchanged (the list is kept as it is), else its own metafields as read with ours replaced — merchant metafields survive.
 */
export function withMetafields(
  ours: StorefrontMetafield[],
  current: StorefrontTags | null,
  own: AttributeMetafieldOwnership,
): Pick<ProductSetInput, 'metafields'> {
  if (!current?.metafields) return { metafields: ours };
  const same = (a: StorefrontMetafield, b: StorefrontMetafield) => a.namespace === b.namespace && a.key === b.key;
  // A metafield of the bridge's attributes (its namespace, or an attribute's own key) that we no longer send is an
  // attribute value the PIM dropped: removed; so is the category tags' record of older pushes (mergeTags).
  const bridgeOwned = (m: StorefrontMetafield) => own.namespaces.includes(m.namespace) || own.keys.includes(`${m.namespace}.${m.key}`);
  const stale = (m: StorefrontMetafield) =>
    (bridgeOwned(m) && !ours.some((o) => same(m, o))) || (m.namespace === METAFIELD_NAMESPACE && m.key === CATEGORY_TAGS_KEY);
  const unchanged =
    !current.metafields.some(stale) &&
    ours.every((o) => current.metafields!.some((m) => same(m, o) && (m.value === o.value || (o.type === 'json' && jsonEqual(m.value, o.value)))));
  if (unchanged) return {};
  return { metafields: [...current.metafields.filter((m) => !ours.some((o) => same(m, o)) && !stale(m)), ...ours] };
}

interface AttributeMetafieldOwnership {
  /** Namespaces every metafield of which is the bridge's (the integration's attribute namespace). */
  namespaces: string[];
  /** `namespace.key` of attributes with a metafield of their own, in namespaces shared with the merchant. */
  keys: string[];
}

/** Which metafields are the bridge's attribute metafields. */
export function attributeOwnership(placement: SyncPlacement): AttributeMetafieldOwnership {
  const specs = placement.attributeMetafields ?? [];
  return {
    namespaces: [...new Set(specs.filter((s) => !s.home).map((s) => s.namespace))],
    keys: specs.filter((s) => s.home).map((s) => `${s.namespace}.${s.key}`),
  };
}

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/**
 * The collections of the product's categories (placement.categoryCollections), sorted; undefined when the integration
 * does not manage collections (then the product's membership is left as it is).
 */
export function collectionIdsOf(product: Pick<PimProductSnapshot, 'categories'>, placement: Pick<SyncPlacement, 'categoryCollections'>): string[] | undefined {
  const byCategory = placement.categoryCollections;
  if (!byCategory) return undefined;
  return [...new Set((product.categories ?? []).flatMap((c) => (byCategory[String(c.id)] ? [byCategory[String(c.id)]] : [])))].sort();
}

/** True when the product's category collections are those the last push sent (so `collections` needs no read and no send). */
export function sameCollections(
  known: KnownStorefrontProduct,
  product: Pick<PimProductSnapshot, 'categories'>,
  placement: Pick<SyncPlacement, 'categoryCollections'>,
): boolean {
  const now = collectionIdsOf(product, placement);
  if (!now) return true;
  const before = known.owned?.collections;
  return !!before && before.length === now.length && before.every((id, i) => id === now[i]);
}

/** The collections that are the bridge's: any of the integration's categories, and those the last push sent. */
export function bridgeCollectionIds(placement: Pick<SyncPlacement, 'categoryCollections'>, known: KnownStorefrontProduct): Set<string> {
  return new Set([...Object.values(placement.categoryCollections ?? {}), ...(known.owned?.collections ?? [])]);
}

/**
 * productSet replaces the product's collection list ("deletes existing entries that aren't included", shopify.dev
 * productSet). A new product gets ours; an existing one keeps the merchant's custom collections as read, loses the
 * bridge's collections it left (any collection of the integration's categories, and those the last push sent) and
 * joins ours.
 */
export function withCollections(
  ours: string[],
  current: StorefrontTags | null,
  placement: Pick<SyncPlacement, 'categoryCollections'>,
  known: KnownStorefrontProduct,
): Pick<ProductSetInput, 'collections'> {
  if (!current?.collections) return { collections: ours };
  const bridge = bridgeCollectionIds(placement, known);
  const merchant = current.collections.filter((id) => !bridge.has(id));
  return { collections: [...new Set([...merchant, ...ours])] };
}
