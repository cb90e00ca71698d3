// Variants belong to a product of the caller's organization; SKUs are unique among the organization's variants.
// A variant change also bumps its product's updated_at, so delta syncs see it, and is recorded in the product's history.
import { SELLING_COLUMNS } from '../products/selling-fields.js';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { StockService } from '../stock/stock.service.js';
import type { VariantColumns, VariantRepository } from './variant.repository.js';
import { combinationName, combinationSku, freeSku, MAX_VARIANTS, missingCombinations, type ProductOption } from './option-matrix.js';
import type { OptionMatrixInput, VariantCreateInput, VariantPatchInput, VariantView } from './variant.schemas.js';

export class VariantService {
  constructor(
    private readonly db: Db,
    private readonly variants: VariantRepository,
    private readonly products: ProductRepository,
    private readonly stock: StockService,
    private readonly history: HistoryRepository,
  ) {}

  async list(organizationId: number, productId: number) {
    const product = await this.products.find(organizationId, productId);
    if (!product) throw notFound(`Product ${productId} not found`);
    const variants = await this.variants.listByProduct(organizationId, productId);
    return { product_id: product.id, product_name: product.name, variants, total: variants.length };
  }

  async get(organizationId: number, productId: number, id: number): Promise<VariantView> {
    const variant = await this.variants.find(organizationId, productId, id);
    if (!variant) throw notFound(`Variant ${id} of product ${productId} not found`);
    return variant;
  }

  async create(organizationId: number, productId: number, input: VariantCreateInput, actor: Actor): Promise<VariantView> {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    await this.checkSku(organizationId, input.sku);
    const id = await this.write(organizationId, productId, actor, { adding: true }, async (repo) => {
      const stockQuantity = input.stock_quantity ?? 0;
      return repo.insert({
        ...toColumns(input),
        organizationId,
        productId,
        sku: input.sku,
        name: input.name,
        stockQuantity,
        stockStatus: input.stock_status ?? derivedStatus(stockQuantity),
        position: input.position ?? (await repo.nextPosition(productId)),
      });
    });
    return this.get(organizationId, productId, id);
  }

  async update(organizationId: number, productId: number, id: number, input: VariantPatchInput, actor: Actor): Promise<VariantView> {
    const current = await this.get(organizationId, productId, id);
    if (input.sku !== undefined && input.sku !== current.sku) await this.checkSku(organizationId, input.sku);
    const columns = toColumns(input);
    // A new quantity re-derives the status unless the caller set one or the variant is on backorder.
    if (input.stock_quantity !== undefined && input.stock_status === undefined && current.stock_status !== 'on_backorder') {
      columns.stockStatus = derivedStatus(input.stock_quantity);
    }
    const quantityOf = input.stock_quantity !== undefined ? id : undefined;
    await this.write(organizationId, productId, actor, { quantityOf }, (repo) => repo.update(organizationId, productId, id, columns));
    return this.get(organizationId, productId, id);
  }

  async delete(organizationId: number, productId: number, id: number, actor: Actor): Promise<void> {
    // Thrown inside the transaction, so a miss does not bump the product's updated_at.
    await this.write(organizationId, productId, actor, {}, async (repo) => {
      if (!(await repo.delete(organizationId, productId, id))) throw notFound(`Variant ${id} of product ${productId} not found`);
    });
  }

  /**
   * The option matrix: a variant for every combination of the options' values that the product does not have yet
   * (compared by value, case ignored), appended in order, in one transaction. Each is named and given a SKU as a
   * merchant would (`Tee / M / Navy`, `TEE-M-NAVY`, `-2` added to a SKU already taken), at the given price (else the
   * product's) and stock.
   */
  async createCombinations(organizationId: number, productId: number, input: OptionMatrixInput, actor: Actor) {
    const product = await this.products.find(organizationId, productId);
    if (!product) throw notFound(`Product ${productId} not found`);
    checkOptions(input.options);
    const existing = await this.variants.listByProduct(organizationId, productId);
    const missing = missingCombinations(
      input.options,
      existing.map((v) => v.attributes),
    );
    if (existing.length + missing.length > MAX_VARIANTS) {
      throw badRequest(
        `field 'options': ${missing.length} new variants would make ${existing.length + missing.length}, over the ${MAX_VARIANTS} a product may have`,
      );
    }
    const stockQuantity = input.stock_quantity ?? 0;
    const ids = missing.length
      ? await this.write(organizationId, productId, actor, { adding: true }, async (repo) => {
          const taken = await repo.skusStartingWith(organizationId, product.sku.slice(0, 40));
          const first = await repo.nextPosition(productId);
          return repo.insertMany(
            missing.map((attributes, i) => {
              const sku = freeSku(combinationSku(product.sku, attributes), taken);
              taken.add(sku);
              return {
                organizationId,
                productId,
                sku,
                name: combinationName(product.name, attributes),
                price: input.price === undefined ? product.price : input.price,
                stockQuantity,
                stockStatus: derivedStatus(stockQuantity),
                position: first + i,
                attributes,
              };
            }),
          );
        })
      : [];
    const created = new Set(ids);
    const after = await this.variants.listByProduct(organizationId, productId);
    return { product_id: productId, created: after.filter((v) => created.has(v.id)), total: after.length };
  }

  private async checkSku(organizationId: number, sku: string): Promise<void> {
    if ((await this.variants.skuHolder(organizationId, sku)) !== null) {
      throw badRequest(`field 'sku': another variant already has sku '${sku}'`);
    }
  }

  /**
   * The variant write, the stock rules around it (the product locked; stock_quantity not written once the variant has
   * levels; no levels of the product's own once it has variants), the product's stock (the sum of its variants') and
   * updated_at, and what changed in the product's history, in one transaction.
   */
  private async write<T>(
    organizationId: number,
    productId: number,
    actor: Actor,
    change: { adding?: boolean; quantityOf?: number },
    write: (repo: VariantRepository) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => {
        await this.stock.beforeVariantWrite(tx, organizationId, productId, change);
        return this.history.with(tx).recording(organizationId, productId, actor, async () => {
          const result = await write(this.variants.with(tx));
          await this.stock.afterVariantWrite(tx, productId, 'stock_quantity');
          await this.products.with(tx).touch(productId);
          return result;
        });
      });
    } catch (err) {
      if (isUniqueViolation(err, 'variants_org_sku_uq')) throw badRequest(`field 'sku': another variant already has this sku`);
      throw err;
    }
  }
}

/** Option names distinct, and each option's values distinct (case and surrounding spaces ignored). */
function checkOptions(options: ProductOption[]): void {
  const fold = (text: string) => text.trim().toLocaleLowerCase();
  const names = new Set<string>();
  for (const [i, option] of options.entries()) {
    if (names.has(fold(option.name))) throw badRequest(`field 'options/${i}/name': the option '${option.name}' is named twice`);
    names.add(fold(option.name));
    const values = new Set<string>();
    for (const value of option.values) {
      if (values.has(fold(value))) throw badRequest(`field 'options/${i}/values': '${value}' is given twice for ${option.name}`);
      values.add(fold(value));
    }
  }
}

const derivedStatus = (quantity: number) => (quantity > 0 ? 'in_stock' : 'out_of_stock');

function toColumns(input: VariantPatchInput): VariantColumns {
  const columns: VariantColumns = {};
  if (input.sku !== undefined) {
    columns.sku = input.sku;
    // A SKU written through the API is the merchant's, not one the PIM made up.
    columns.skuGenerated = false;
  }
  if (input.name !== undefined) columns.name = input.name;
  if (input.price !== undefined) columns.price = input.price;
  if (input.sale_price !== undefined) columns.salePrice = input.sale_price;
  if (input.cost !== undefined) columns.cost = input.cost;
  if (input.weight !== undefined) columns.weight = input.weight;
  if (input.stock_quantity !== undefined) columns.stockQuantity = input.stock_quantity;
  if (input.stock_status !== undefined) columns.stockStatus = input.stock_status;
  if (input.is_enabled !== undefined) columns.isEnabled = input.is_enabled;
  if (input.position !== undefined) columns.position = input.position;
  if (input.image !== undefined) columns.image = input.image;
  if (input.attributes !== undefined) columns.attributes = input.attributes;
  for (const [field, column] of Object.entries(SELLING_COLUMNS)) {
    const value = input[field as keyof typeof SELLING_COLUMNS];
    if (value !== undefined) (columns as Record<string, unknown>)[column] = value;
  }
  return columns;
}
