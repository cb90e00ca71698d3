// The query keys of the products: every list (a page of the catalogue, the names of some ids) under `lists()`, and one
// product's reads under its `detail(id)`, so that a change can invalidate one product, its parts, or every list at
// once. Pure: console/test/query-keys.test.ts checks them.

export const productKeys = {
  all: ['products'] as const,
  /** Every list of products (a change to any product invalidates them all). */
  lists: () => [...productKeys.all, 'list'] as const,
  /** One page of GET /api/products, by its query (filters, page, per page). */
  list: (query: object) => [...productKeys.lists(), query] as const,
  /** The names and SKUs of some products (GET /api/products?ids=…), for pages that hold ids only (the bridge's mappings). */
  names: (ids: readonly number[]) => [...productKeys.lists(), 'names', ids] as const,
  /** The signed-in user's saved views of the list (GET /api/product-views). */
  views: () => [...productKeys.all, 'views'] as const,
  /** The products the bulk-edit grid edits (GET /api/products?ids=…). */
  grid: (ids: readonly number[]) => [...productKeys.lists(), 'grid', ids] as const,
  /** GET /api/products/{id}; its parts are keyed below it. */
  detail: (id: number) => [...productKeys.all, 'detail', id] as const,
  variants: (id: number) => [...productKeys.detail(id), 'variants'] as const,
  media: (id: number) => [...productKeys.detail(id), 'media'] as const,
  stock: (id: number) => [...productKeys.detail(id), 'stock'] as const,
  /** The product read in each of its translations' languages. */
  translations: (id: number) => [...productKeys.detail(id), 'translations'] as const,
  translation: (id: number, locale: string) => [...productKeys.translations(id), locale] as const,
  /** GET /api/products/{id}/history; one page of it by `page`. */
  history: (id: number) => [...productKeys.detail(id), 'history'] as const,
  historyPage: (id: number, page: number) => [...productKeys.history(id), page] as const,
};
