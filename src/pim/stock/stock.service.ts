// Stock is one model: levels per warehouse, of a product without variants or of each variant of a product with
// variants. A product without variants and with levels has products.stock = their sum; a variant with levels has
// stock_quantity = their sum; a product with variants has stock = the sum of its variants' stock_quantity and its
// per-warehouse view sums its variants' levels. Every sum is kept in the transaction that writes a level. Barcode
// lookup matches GTINs by their 14-digit form.
import type { Db } from '../../db/client.js';
import { gtinForms } from '../../lib/gtin.js';
import { badRequest, notFound } from '../../http/errors.js';
import { MAX_INT } from '../pim.schemas.js';
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { BarcodeProductView, StockLevelsView, StockPutInput, VariantStockLevelsView } from './stock.schemas.js';
import type { StockRepository } from './stock.repository.js';
import type { VariantStockRepository } from './variant-stock.repository.js';

export class StockService {
  constructor(
    private readonly db: Db,
    private readonly stock: StockRepository,
    private readonly variantStock: VariantStockRepository,
    private readonly products: ProductRepository,
    private readonly history: HistoryRepository,
  ) {}

  async levels(organizationId: number, productId: number): Promise<StockLevelsView> {
    const stock = await this.stock.productStock(organizationId, productId);
    if (stock === null) throw notFound(`Product ${productId} not found`);
    const [warehouseStock, variants, byVariant] = await Promise.all([
      this.stock.levels(productId),
      this.variantStock.variantsOf(productId),
      this.variantStock.levelsByVariant(productId),
    ]);
    return {
      product_id: productId,
      stock,
      in_stock: stock > 0,
      warehouse_stock: warehouseStock,
      variants: variants.map((v) => ({
        product_id: productId,
        variant_id: v.id,
        sku: v.sku,
        name: v.name,
        stock_quantity: v.stock_quantity,
        stock_status: v.stock_status,
        warehouse_stock: byVariant.get(v.id) ?? [],
      })),
    };
  }

  /** Sets the product's level in one warehouse and its stock to the sum of its levels, in one transaction with its history. */
  async setLevel(organizationId: number, productId: number, input: StockPutInput, actor: Actor): Promise<StockLevelsView> {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    await this.db.transaction(async (tx) => {
      const repo = this.stock.with(tx);
      // Warehouse before product: the order a warehouse deletion locks in.
      if (!(await repo.shareWarehouse(organizationId, input.warehouse_id))) {
        throw badRequest(`field 'warehouse_id': unknown warehouse ${input.warehouse_id}`);
      }
      await repo.lockProducts(organizationId, [productId]);
      await this.history.with(tx).recording(organizationId, productId, actor, async () => {
        if (await this.variantStock.with(tx).hasVariants(productId)) {
          throw badRequest(
            `product ${productId} has variants; its stock is the sum of theirs, set per variant with PUT /api/products/${productId}/variants/{variant_id}/stock`,
          );
        }
        await repo.upsertLevel(productId, input.warehouse_id, input.quantity);
        const total = await repo.levelTotal(productId);
        if (total > MAX_INT) throw badRequest(`field 'quantity': the product's total stock would exceed ${MAX_INT}`);
        await repo.setProductStock(productId, total);
      });
    });
    return this.levels(organizationId, productId);
  }

  async variantLevels(organizationId: number, productId: number, variantId: number): Promise<VariantStockLevelsView> {
    const all = await this.levels(organizationId, productId);
    const variant = all.variants.find((v) => v.variant_id === variantId);
    if (!variant) throw notFound(`Variant ${variantId} of product ${productId} not found`);
    return variant;
  }

  /**
   * Sets a variant's level in one warehouse; in the same transaction its stock_quantity becomes the sum of its levels
   * (its status re-derived unless on backorder) and the product's stock the sum of its variants', with its history.
   */
  async setVariantLevel(organizationId: number, productId: number, variantId: number, input: StockPutInput, actor: Actor): Promise<VariantStockLevelsView> {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    await this.db.transaction(async (tx) => {
      const repo = this.stock.with(tx);
      const variants = this.variantStock.with(tx);
      if (!(await repo.shareWarehouse(organizationId, input.warehouse_id))) {
        throw badRequest(`field 'warehouse_id': unknown warehouse ${input.warehouse_id}`);
      }
      await repo.lockProducts(organizationId, [productId]);
      await this.history.with(tx).recording(organizationId, productId, actor, async () => {
        if (!(await variants.lockVariant(organizationId, productId, variantId))) throw notFound(`Variant ${variantId} of product ${productId} not found`);
        await variants.upsertLevel(variantId, input.warehouse_id, input.quantity);
        const total = await variants.levelTotal(variantId);
        if (total > MAX_INT) throw badRequest(`field 'quantity': the variant's total stock would exceed ${MAX_INT}`);
        await variants.setVariantStock(variantId, total);
        await this.checkVariantTotal(tx, productId, 'quantity');
        await repo.recompute([productId]);
      });
    });
    return this.variantLevels(organizationId, productId, variantId);
  }

  /** Within a transaction: a 400 naming `field` when the sum of the product's variants' stock leaves the int range. */
  async checkVariantTotal(tx: Db, productId: number, field: string): Promise<void> {
    const total = await this.variantStock.with(tx).variantTotal(productId);
    if (total !== null && (total > MAX_INT || total < -MAX_INT - 1)) {
      throw badRequest(`field '${field}': the product's total stock, the sum of its variants', would leave the range of ±${MAX_INT}`);
    }
  }

  /**
   * Within a variant write's transaction, before it: locks the product; a PATCH of `stock_quantity` (variantId given) is
   * a 400 once the variant has levels; adding a variant to a product with levels of its own is a 400 while any holds
   * units (its zero levels go: a product with variants has none).
   */
  async beforeVariantWrite(tx: Db, organizationId: number, productId: number, change: { adding?: boolean; quantityOf?: number }): Promise<void> {
    await this.stock.with(tx).lockProducts(organizationId, [productId]);
    const variants = this.variantStock.with(tx);
    if (change.quantityOf !== undefined && (await variants.hasLevels(change.quantityOf))) {
      throw badRequest(
        `field 'stock_quantity': variant ${change.quantityOf} has stock per warehouse; its stock_quantity is their sum, set with PUT /api/products/${productId}/variants/${change.quantityOf}/stock`,
      );
    }
    if (!change.adding) return;
    const largest = await variants.largestProductLevel(productId);
    if (largest === null) return;
    if (largest > 0) {
      throw badRequest(
        `product ${productId} has stock per warehouse of its own; a product with variants keeps stock per variant: set its levels to 0 with PUT /api/products/${productId}/stock before adding variants`,
      );
    }
    await variants.deleteProductLevels(productId);
  }

  /** Within a variant write's transaction, after it: the product's stock becomes the sum of its variants' (0 when none is left). */
  async afterVariantWrite(tx: Db, productId: number, field: string): Promise<void> {
    await this.checkVariantTotal(tx, productId, field);
    await this.stock.with(tx).recompute([productId]);
  }

  /** A product PATCH may set `stock` only while the product has no variants and no warehouse levels. */
  async checkDirectStockWrite(productId: number): Promise<void> {
    if (await this.variantStock.hasVariants(productId)) {
      throw badRequest(
        `field 'stock': product ${productId} has variants; its stock is the sum of theirs, set per variant (stock_quantity, or PUT /api/products/${productId}/variants/{variant_id}/stock)`,
      );
    }
    if (await this.stock.hasLevels(productId)) {
      throw badRequest(`field 'stock': product ${productId} has stock per warehouse; its stock is their sum, set with PUT /api/products/${productId}/stock`);
    }
  }

  /** The product with this barcode in any GTIN spelling (UPC-A, EAN-13, …), plus its warehouse levels. */
  async byBarcode(organizationId: number, barcode: string): Promise<BarcodeProductView> {
    const id = await this.stock.productIdByGtin(organizationId, gtinForms(barcode), barcode);
    const product = id === null ? null : await this.products.find(organizationId, id);
    if (id === null || !product) throw notFound(`No product with barcode '${barcode}'`);
    return { ...product, warehouse_stock: await this.stock.levels(id) };
  }
}
