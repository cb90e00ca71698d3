// The PIM's `taxonomy_category` → ProductSetInput.category, an ID of Shopify's Standard Product Taxonomy
// ("The ID of the category that's associated with the product", schema 2026-10). The PIM keeps what was given: a
// category id (`aa-1-13-8`, as Shopify's taxonomy files and product CSV exports write it), its GID
// (`gid://shopify/TaxonomyCategory/aa-1-13-8`), or its full name (`Apparel & Accessories > Clothing > Clothing Tops >
// T-Shirts`, the product CSV's "Product Category"). An id needs no call; a full name is looked up with
// `taxonomy { categories(search:) }` (TaxonomyCategorySearch, by its last part) and kept for the life of the process
// per shop (the taxonomy changes with Shopify's releases, not between pushes). A name the taxonomy does not have is the
// product's validation error, before anything is sent.
import { StorefrontValidationError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import { TaxonomyCategorySearch, type TaxonomyCategorySearchData } from './operations.js';
import type { ShopifyClient } from './shopify-client.js';

const GID_PREFIX = 'gid://shopify/TaxonomyCategory/';
/** A taxonomy id: two letters (the vertical), then numbers (`aa`, `aa-1`, `aa-1-13-8`). */
const TAXONOMY_ID = /^[a-z]{2}(?:-\d+)*$/;
/** Requested cost of TaxonomyCategorySearch: taxonomy 1 + categories 2 + node 1 × floor(2·ln 25). */
const SEARCH_COST = 1 + 2 + Math.floor(2 * Math.log(25));
/** Names kept per process (a PIM's categories are few; a bound against a catalogue of typos). */
const MAX_CACHED = 10_000;

/** The GID of a taxonomy id or GID as given (no call); null when the value is a name. */
export function taxonomyGidOf(value: string): string | null {
  const v = value.trim();
  if (v.startsWith(GID_PREFIX) && TAXONOMY_ID.test(v.slice(GID_PREFIX.length))) return v;
  if (TAXONOMY_ID.test(v)) return `${GID_PREFIX}${v}`;
  return null;
}

/** A full name as Shopify writes it: parts trimmed, joined by ` > `, compared without case. */
const normalName = (name: string) =>
  name
    .split('>')
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join(' > ')
    .toLowerCase();

export class TaxonomyCategories {
  /** `domain \n normalised name` → the GID, or null when the shop's taxonomy has no such category. */
  private readonly byName = new Map<string, Promise<string | null>>();

  constructor(private readonly client: Pick<ShopifyClient, 'call'>) {}

  /**
   * The category GID for the PIM's `taxonomy_category` (undefined: the PIM has none, so the field is left out). Throws
   * StorefrontValidationError when the name is not a category of Shopify's taxonomy, StorefrontError when the shop
   * cannot be asked. `signal`: the caller's, for the search a full name needs.
   */
  async resolve(shop: StorefrontShop, value: string | null | undefined, signal?: AbortSignal): Promise<string | undefined> {
    if (typeof value !== 'string' || value.trim() === '') return undefined;
    const gid = taxonomyGidOf(value);
    if (gid) return gid;
    const wanted = normalName(value);
    const key = `${shop.domain}\n${wanted}`;
    let found = this.byName.get(key);
    if (!found) {
      if (this.byName.size >= MAX_CACHED) this.byName.clear();
      found = this.search(shop, value, wanted, signal);
      this.byName.set(key, found);
      // A failed call is not remembered (the next push asks again).
      found.catch(() => this.byName.delete(key));
    }
    const id = await found;
    if (!id) {
      throw new StorefrontValidationError([
        `taxonomy_category: '${value.trim()}' is not a category of Shopify's Standard Product Taxonomy (give its id, e.g. aa-1-13-8, or its full name)`,
      ]);
    }
    return id;
  }

  private async search(shop: StorefrontShop, value: string, wanted: string, signal?: AbortSignal): Promise<string | null> {
    const parts = value
      .split('>')
      .map((p) => p.trim())
      .filter(Boolean);
    const leaf = parts[parts.length - 1] ?? value.trim();
    const data = await this.client.call<TaxonomyCategorySearchData>(shop, TaxonomyCategorySearch, { search: leaf }, SEARCH_COST, { signal });
    const nodes = data.taxonomy?.categories.nodes ?? [];
    const exact = nodes.find((n) => normalName(n.fullName) === wanted);
    if (exact) return exact.id;
    // A bare name (no ` > `) that names exactly one category.
    if (parts.length === 1) {
      const named = nodes.filter((n) => n.name.trim().toLowerCase() === wanted);
      if (named.length === 1) return named[0].id;
    }
    return null;
  }
}
