// Stock per warehouse. A product with warehouse levels has products.stock = their sum, kept in the transaction that
// writes a level; its stock is then managed per warehouse only. Barcode lookup matches GTINs by their 14-digit form.
import type { Db } from '../../db/client.js';
import { gtinForms } from '../../lib/gtin.js';
import { badRequest, notFound } from '../../http/errors.js';
import { MAX_INT } from '../pim.schemas.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { BarcodeProductView, StockLevelsView, StockPutInput } from './stock.schemas.js';
import type { StockRepository } from './stock.repository.js';

export class StockService {
  constructor(
    private readonly db: Db,
    private readonly stock: StockRepository,
    private readonly products: ProductRepository,
  ) {}

  async levels(organizationId: number, productId: number): Promise<StockLevelsView> {
    const stock = await this.stock.productStock(organizationId, productId);
    if (stock === null) throw notFound(`Product ${productId} not found`);
    return { product_id: productId, stock, in_stock: stock > 0, warehouse_stock: await this.stock.levels(productId) };
  }

  /** Sets the product's level in one warehouse and its stock to the sum of its levels, in one transaction. */
  async setLevel(organizationId: number, productId: number, input: StockPutInput): Promise<StockLevelsView> {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    await this.db.transaction(async (tx) => {
      const repo = this.stock.with(tx);
      // Warehouse before product: the order a warehouse deletion locks in.
      if (!(await repo.shareWarehouse(organizationId, input.warehouse_id))) {
        throw badRequest(`field 'warehouse_id': unknown warehouse ${input.warehouse_id}`);
      }
      await repo.lockProducts(organizationId, [productId]);
      await repo.upsertLevel(productId, input.warehouse_id, input.quantity);
      const total = await repo.levelTotal(productId);
      if (total > MAX_INT) throw badRequest(`field 'quantity': the product's total stock would exceed ${MAX_INT}`);
      await repo.setProductStock(productId, total);
    });
    return this.levels(organizationId, productId);
  }

  /** A product PATCH may set `stock` only while the product has no warehouse levels. */
  async checkDirectStockWrite(productId: number): Promise<void> {
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
