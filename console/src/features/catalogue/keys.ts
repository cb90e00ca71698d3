// The query keys of the catalogue's reference data: one key per resource, whichever page reads it (its own page, the
// product list's filters, the product editor's selects, the export's filters), so that a change made on one page is
// what every other shows at once. api.ts reads under them; every change of one invalidates its key (catalogueChanged).
// Pure: console/test/query-keys.test.ts checks them.

/** GET /api/brands: the brands. */
export const brandKeys = { all: ['brands'] as const };

/** GET /api/suppliers: the suppliers. */
export const supplierKeys = { all: ['suppliers'] as const };

/** GET /api/vat-rates: the VAT rates. */
export const vatRateKeys = { all: ['vat-rates'] as const };

/** GET /api/channels: the organization's publishing channels. */
export const channelKeys = { all: ['channels'] as const };

/** GET /api/warehouses: the warehouses. */
export const warehouseKeys = { all: ['warehouses'] as const };

/** The categories; GET /api/categories/tree is the one read of them (the product pages flatten it). */
export const categoryKeys = {
  all: ['categories'] as const,
  tree: () => [...categoryKeys.all, 'tree'] as const,
};

/** GET /api/product-attributes: the attribute definitions (the product editor reads their list of it). */
export const attributeKeys = { all: ['product-attributes'] as const };
