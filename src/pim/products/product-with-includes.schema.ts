// The Product as GET /api/products and GET /api/products/{id} answer it: with `variants` and `warehouse_stock` when
// `include` asks for them (see product-include.ts). Its own file: stock.schemas imports product.schemas.
import { Type, type Static } from '@sinclair/typebox';
import { WarehouseStock } from '../stock/stock.schemas.js';
import { Variant } from '../variants/variant.schemas.js';
import { Pagination } from '../pim.schemas.js';
import { Product } from './product.schemas.js';

/** The Product, plus `variants` and `warehouse_stock` when `include` asks for them. */
export const ProductWithIncludes = Type.Object(
  {
    ...Product.properties,
    variants: Type.Optional(Type.Array(Type.Ref(Variant))),
    warehouse_stock: Type.Optional(Type.Array(WarehouseStock)),
    translations: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({
          name: Type.Optional(Type.String()),
          description: Type.Optional(Type.String()),
          short_description: Type.Optional(Type.String()),
          seo_title: Type.Optional(Type.String()),
          seo_description: Type.Optional(Type.String()),
        }),
        { description: 'with include=translations: every translation by locale, with the fields it has' },
      ),
    ),
  },
  { $id: 'ProductWithIncludes' },
);
export type ProductWithIncludesView = Static<typeof ProductWithIncludes>;

export const ProductWithIncludesList = Type.Object({ products: Type.Array(Type.Ref(ProductWithIncludes)), pagination: Pagination });
