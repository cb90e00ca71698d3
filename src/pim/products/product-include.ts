// `include` on GET /api/products and GET /api/products/{id} (beyond the spec): a product can carry its variants, its
// warehouse levels and its translations, so a reader that needs the whole product (the connector's sync) makes one request instead of three
// per product. All are built in the same statement as the product (no query per product).
import { Type } from '@sinclair/typebox';

export const INCLUDES = ['variants', 'warehouse_stock', 'translations'] as const;

export const IncludeParam = Type.String({
  pattern: `^(${INCLUDES.join('|')})(,(${INCLUDES.join('|')}))*$`,
  description: `comma-separated: ${INCLUDES.join(', ')} — each product also carries that list (as GET /api/products/{id}/variants and …/stock answer it)`,
  errorMessage: `must be a comma-separated list of: ${INCLUDES.join(', ')}`,
});

export interface ProductIncludes {
  variants: boolean;
  warehouseStock: boolean;
  /** Every translation of the product, by locale (the fields it has). */
  translations?: boolean;
}

export const NO_INCLUDES: ProductIncludes = Object.freeze({ variants: false, warehouseStock: false });

/** The validated `include` text → what to add (unset: nothing). */
export function parseInclude(raw: string | undefined): ProductIncludes {
  if (!raw) return NO_INCLUDES;
  const names = new Set(raw.split(','));
  return { variants: names.has('variants'), warehouseStock: names.has('warehouse_stock'), translations: names.has('translations') };
}
