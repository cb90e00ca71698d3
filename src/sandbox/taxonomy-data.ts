// A small subset of Shopify's Standard Product Taxonomy, for the sandbox's `taxonomy { categories }` and
// Product.category. Copied (ids and full names, as published) from Shopify's own release file: repository
// Shopify/product-taxonomy, `dist/en/categories.txt` ("Shopify Product Taxonomy - Categories: 2024-07", commit
// 0146d16823c8e378d58ba0bc7602e159ac31c4fb; MIT licence). No npm package carries the taxonomy (`npm view` of the
// obvious names finds none), and the whole file is 1.4 MB: the sandbox keeps the few branches its tests and the demo
// use: apparel tops and accessories, and the pet-supplies branch the schema's own descriptions cite ("Animals & Pet
// Supplies > Pet Supplies > Dog Supplies > Dog Treadmills"). A category outside it is unknown to the sandbox.

/** [id, full name] pairs, parents before their children. */
const CATEGORIES: readonly (readonly [string, string])[] = [
  ['ap', 'Animals & Pet Supplies'],
  ['ap-2', 'Animals & Pet Supplies > Pet Supplies'],
  ['ap-2-3', 'Animals & Pet Supplies > Pet Supplies > Dog Supplies'],
  ['ap-2-3-7', 'Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Toys'],
  ['ap-2-3-8', 'Animals & Pet Supplies > Pet Supplies > Dog Supplies > Dog Treadmills'],
  ['aa', 'Apparel & Accessories'],
  ['aa-1', 'Apparel & Accessories > Clothing'],
  ['aa-1-1', 'Apparel & Accessories > Clothing > Activewear'],
  ['aa-1-1-2', 'Apparel & Accessories > Clothing > Activewear > Activewear Tops'],
  ['aa-1-1-2-2', 'Apparel & Accessories > Clothing > Activewear > Activewear Tops > T-Shirts'],
  ['aa-1-13', 'Apparel & Accessories > Clothing > Clothing Tops'],
  ['aa-1-13-1', 'Apparel & Accessories > Clothing > Clothing Tops > Blouses'],
  ['aa-1-13-3', 'Apparel & Accessories > Clothing > Clothing Tops > Cardigans'],
  ['aa-1-13-13', 'Apparel & Accessories > Clothing > Clothing Tops > Hoodies'],
  ['aa-1-13-6', 'Apparel & Accessories > Clothing > Clothing Tops > Polos'],
  ['aa-1-13-7', 'Apparel & Accessories > Clothing > Clothing Tops > Shirts'],
  ['aa-1-13-12', 'Apparel & Accessories > Clothing > Clothing Tops > Sweaters'],
  ['aa-1-13-14', 'Apparel & Accessories > Clothing > Clothing Tops > Sweatshirts'],
  ['aa-1-13-8', 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts'],
  ['aa-1-13-9', 'Apparel & Accessories > Clothing > Clothing Tops > Tank Tops'],
  ['aa-1-4', 'Apparel & Accessories > Clothing > Dresses'],
  ['aa-1-12', 'Apparel & Accessories > Clothing > Pants'],
  ['aa-1-12-4', 'Apparel & Accessories > Clothing > Pants > Jeans'],
  ['aa-1-12-11', 'Apparel & Accessories > Clothing > Pants > Trousers'],
  ['aa-1-14', 'Apparel & Accessories > Clothing > Shorts'],
  ['aa-1-18', 'Apparel & Accessories > Clothing > Socks'],
  ['aa-2', 'Apparel & Accessories > Clothing Accessories'],
  ['aa-2-6', 'Apparel & Accessories > Clothing Accessories > Belts'],
  ['aa-2-17', 'Apparel & Accessories > Clothing Accessories > Hats'],
  ['aa-2-17-1', 'Apparel & Accessories > Clothing Accessories > Hats > Baseball Caps'],
  ['aa-2-17-2', 'Apparel & Accessories > Clothing Accessories > Hats > Beanies'],
  ['aa-2-26', 'Apparel & Accessories > Clothing Accessories > Scarves & Shawls'],
];

export interface TaxonomyNode {
  /** The taxonomy id (`aa-1-13-8`); its GID is `gid://shopify/TaxonomyCategory/{id}`. */
  id: string;
  name: string;
  fullName: string;
  parentId: string | null;
  ancestorIds: string[];
  childrenIds: string[];
  level: number;
}

export const TAXONOMY_GID_PREFIX = 'gid://shopify/TaxonomyCategory/';

const nodes = new Map<string, TaxonomyNode>();
for (const [id, fullName] of CATEGORIES) {
  const parts = fullName.split(' > ');
  const parentId = id.includes('-') ? id.slice(0, id.lastIndexOf('-')) : null;
  const parent = parentId ? nodes.get(parentId) : undefined;
  nodes.set(id, {
    id,
    name: parts[parts.length - 1],
    fullName,
    parentId,
    ancestorIds: parent ? [parent.id, ...parent.ancestorIds] : [],
    childrenIds: [],
    level: parts.length,
  });
  parent?.childrenIds.push(id);
}

/** Every category of the subset, in the file's order. */
export const TAXONOMY: readonly TaxonomyNode[] = [...nodes.values()];

/** A category by its id or GID; undefined when the subset does not have it. */
export function taxonomyNode(idOrGid: string): TaxonomyNode | undefined {
  return nodes.get(idOrGid.startsWith(TAXONOMY_GID_PREFIX) ? idOrGid.slice(TAXONOMY_GID_PREFIX.length) : idOrGid);
}
