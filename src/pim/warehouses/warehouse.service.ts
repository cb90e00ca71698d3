// Warehouses: code unique per organization. Deleting one deletes its stock levels and recomputes the stock of the
// products that had one, in one transaction.
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { StockRepository } from '../stock/stock.repository.js';
import type { VariantStockRepository } from '../stock/variant-stock.repository.js';
import type { WarehouseColumns, WarehouseRepository } from './warehouse.repository.js';
import type { WarehouseCreateInput, WarehouseUpdateInput, WarehouseView } from './warehouse.schemas.js';

export class WarehouseService {
  constructor(
    private readonly db: Db,
    private readonly warehouses: WarehouseRepository,
    private readonly stock: StockRepository,
    private readonly variantStock: VariantStockRepository,
  ) {}

  list(organizationId: number): Promise<WarehouseView[]> {
    return this.warehouses.list(organizationId);
  }

  async get(organizationId: number, id: number): Promise<WarehouseView> {
    const warehouse = await this.warehouses.find(organizationId, id);
    if (!warehouse) throw notFound(`Warehouse ${id} not found`);
    return warehouse;
  }

  async create(organizationId: number, input: WarehouseCreateInput): Promise<WarehouseView> {
    await this.checkCode(organizationId, input.code);
    const id = await uniqueCode(input.code, () =>
      this.warehouses.insert(organizationId, { code: input.code, name: input.name, countryCode: input.country_code ?? null }),
    );
    return this.get(organizationId, id);
  }

  /** PUT and PATCH: changes the fields given (`country_code: null` clears it). */
  async update(organizationId: number, id: number, input: WarehouseUpdateInput): Promise<WarehouseView> {
    const current = await this.get(organizationId, id);
    if (input.code !== undefined && input.code !== current.code) await this.checkCode(organizationId, input.code);
    const columns: WarehouseColumns = {};
    if (input.code !== undefined) columns.code = input.code;
    if (input.name !== undefined) columns.name = input.name;
    if (input.country_code !== undefined) columns.countryCode = input.country_code;
    const found = await uniqueCode(input.code ?? '', () => this.warehouses.update(organizationId, id, columns));
    if (!found) throw notFound(`Warehouse ${id} not found`);
    return this.get(organizationId, id);
  }

  /**
   * Deletes the warehouse and its levels (of products and of variants); each variant that had one gets the sum of its
   * remaining levels (0 if none, its status re-derived), each product the sum of its remaining levels or, with variants,
   * of its variants' stock.
   */
  async delete(organizationId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const warehouses = this.warehouses.with(tx);
      const stock = this.stock.with(tx);
      const variantStock = this.variantStock.with(tx);
      // Warehouse, then its products in id order: a concurrent stock write (which shares the warehouse first) waits.
      if (!(await warehouses.lock(organizationId, id))) throw notFound(`Warehouse ${id} not found`);
      const variants = await variantStock.variantsIn(id);
      const productIds = [...new Set([...(await stock.productsIn(id)), ...variants.map((v) => v.productId)])];
      const affected = await stock.lockProducts(organizationId, productIds);
      await warehouses.delete(organizationId, id);
      await variantStock.recomputeVariants(variants.map((v) => v.variantId));
      await stock.recompute(affected);
    });
  }

  private async checkCode(organizationId: number, code: string): Promise<void> {
    if ((await this.warehouses.codeHolder(organizationId, code)) !== null) throw duplicateCode(code);
  }
}

function duplicateCode(code: string) {
  return badRequest(`field 'code': a warehouse with code '${code}' already exists`);
}

/** A write; the unique index on code, when a concurrent writer won, becomes the same 400 as the pre-check's. */
async function uniqueCode<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, 'warehouses_org_code_uq')) throw duplicateCode(code);
    throw err;
  }
}
