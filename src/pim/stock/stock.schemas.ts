import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../pim.schemas.js';
import { Product } from '../products/product.schemas.js';

export const WarehouseStock = Type.Object({
  warehouse_id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  quantity: Type.Integer(),
});
export type WarehouseStock = Static<typeof WarehouseStock>;

/** A variant's stock: its stock_quantity (the sum of its levels once it has any), its status, its levels per warehouse. */
export const VariantStockLevels = Type.Object({
  product_id: Type.Integer(),
  variant_id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  stock_quantity: Type.Integer(),
  stock_status: Type.String(),
  warehouse_stock: Type.Array(WarehouseStock, { description: "the variant's levels by warehouse code; empty: its stock_quantity is set directly" }),
});
export type VariantStockLevelsView = Static<typeof VariantStockLevels>;

/**
 * A product's stock: the total (products.stock), in_stock, its levels per warehouse (a product with variants: its
 * variants' levels summed per warehouse) and each variant's stock and levels.
 */
export const StockLevels = Type.Object({
  product_id: Type.Integer(),
  stock: Type.Integer(),
  in_stock: Type.Boolean(),
  warehouse_stock: Type.Array(WarehouseStock),
  variants: Type.Array(VariantStockLevels, { description: "each variant's stock and levels, by position (empty: a product without variants)" }),
});
export type StockLevelsView = Static<typeof StockLevels>;

export const StockPut = Type.Object(
  {
    warehouse_id: Id('warehouse id'),
    quantity: Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'units in the warehouse (0 keeps the level at zero)' }),
  },
  { additionalProperties: false },
);
export type StockPutInput = Static<typeof StockPut>;

export const VariantStockParams = Type.Object({ id: Id(), variantId: Id() });

export const BarcodeParams = Type.Object({
  barcode: Type.String({
    pattern: '^\\d{8,14}$',
    description: 'GTIN/EAN/UPC; matched by its 14-digit zero-padded form',
    errorMessage: 'must be a barcode of 8 to 14 digits',
  }),
});

/** The Product plus its levels per warehouse. */
export const BarcodeProduct = Type.Object({ ...Product.properties, warehouse_stock: Type.Array(WarehouseStock) });
export type BarcodeProductView = Static<typeof BarcodeProduct>;
