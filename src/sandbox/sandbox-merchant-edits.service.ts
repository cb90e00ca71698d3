// What a merchant does to a product in the Shopify admin, through the Admin API's own mutations, so that a test can
// change a product behind the bridge's back: productUpdate (product fields, SEO, tags, status, metafields) and
// productVariantsBulkUpdate (prices, barcode, inventory policy, the inventory item's SKU, tracking, cost and weight).
// Rules, with their sources:
// - productUpdate also sets the product's taxonomy `category`; productVariantsBulkUpdate a variant's `taxable` and its
//   inventory item's `requiresShipping`.
// - productUpdate takes `product: ProductUpdateInput`; `input: ProductInput` is deprecated ("Use `product` instead",
//   schema 2026-10: Mutation.productUpdate) and still taken for the same fields. Lists sent replace: `tags` overwrites
//   the product's tags (schema 2026-10: ProductUpdateInput.tags "Updating `tags` overwrites any existing tags");
//   `metafields` are set one by one (namespace and key, or id) and the product's other metafields stay.
// - productUpdate does not touch variants (schema 2026-10: Mutation.productUpdate "doesn't support updating product
//   variants"); productVariantsBulkUpdate does, for the variants of one product, and takes no inventory quantities
//   (schema 2026-10: ProductVariantsBulkInput.inventoryQuantities "Supported as input with the
//   productVariantsBulkCreate mutation only"; code NO_INVENTORY_QUANTITIES_ON_VARIANTS_UPDATE).
// - productVariantsBulkUpdate is all or nothing unless allowPartialUpdates (schema 2026-10:
//   Mutation.productVariantsBulkUpdate(allowPartialUpdates) "When partial updates are not allowed, any error will
//   prevent all variants from updating"); its codes are ProductVariantsBulkUpdateUserErrorCode's.
// Each edit is one transaction holding the product's row lock (the key productSet takes), so it serialises with syncs.
import type { Db } from '../db/client.js';
import type { MetafieldRow, SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import type { ProductRow, SandboxProductRepository, VariantRow } from './sandbox-product.repository.js';
import { formatMoney } from './shopify-values.js';
import { gidNumber } from './gid.js';
import type { ProductSetInput } from './product-set-args.js';
import type { PlainUserError } from './sandbox-publication.service.js';
import { TAXONOMY_GID_PREFIX, taxonomyNode } from './taxonomy-data.js';

const DEFAULT_NAMESPACE = '$app';
const MONEY = /^\d{1,15}(\.\d{1,4})?$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

interface MetafieldInput {
  id?: string | null;
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

/** The fields of ProductUpdateInput (and of the deprecated ProductInput) the sandbox emulates: productSet's own, but lists. */
export type ProductUpdateFields = Pick<
  ProductSetInput,
  'id' | 'title' | 'handle' | 'descriptionHtml' | 'vendor' | 'productType' | 'status' | 'tags' | 'seo' | 'category'
> & {
  metafields?: MetafieldInput[] | null;
  redirectNewHandle?: boolean | null;
};

export interface ProductUpdateArgs {
  identifier?: { id?: string | null; handle?: string | null; customId?: { namespace?: string | null; key: string; value: string } | null } | null;
  product?: ProductUpdateFields | null;
  input?: ProductUpdateFields | null;
}

export interface VariantBulkInput {
  id?: string | null;
  price?: unknown;
  compareAtPrice?: unknown;
  barcode?: string | null;
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  inventoryQuantities?: unknown[] | null;
  inventoryItem?: {
    sku?: string | null;
    tracked?: boolean | null;
    requiresShipping?: boolean | null;
    cost?: unknown;
    measurement?: { weight?: { unit: string; value: number } | null } | null;
  } | null;
}

export interface VariantsBulkUpdateArgs {
  productId: string;
  variants: VariantBulkInput[];
  allowPartialUpdates?: boolean | null;
}

export interface BulkUpdateUserError extends PlainUserError {
  code: string;
}

export type ProductUpdateResult = { product: ProductRow; userErrors: [] } | { product: null; userErrors: PlainUserError[] };
export type VariantsBulkUpdateResult = { product: ProductRow | null; variants: VariantRow[] | null; userErrors: BulkUpdateUserError[] };

type VariantValues = Parameters<SandboxProductRepository['updateVariantFields']>[2];

/** Thrown inside a transaction to roll it back with userErrors. */
class Rejected extends Error {
  constructor(readonly errors: PlainUserError[]) {
    super('rejected');
  }
}

const has = <T extends object>(o: T, key: keyof T) => Object.hasOwn(o, key) && o[key] !== undefined;

export class SandboxMerchantEditService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxProductRepository,
    private readonly metafields: SandboxMetafieldRepository,
  ) {}

  async productUpdate(storeId: number, args: ProductUpdateArgs): Promise<ProductUpdateResult> {
    if (args.product != null && args.input != null) {
      return { product: null, userErrors: [{ field: ['input'], message: 'Only one of product or input (deprecated) can be given.' }] };
    }
    const input = args.product ?? args.input ?? {};
    const errors = this.checkProductInput(args, input);
    if (errors.length) return { product: null, userErrors: errors };
    try {
      const product = await this.db.transaction((tx) => this.writeProduct(this.repo.with(tx), this.metafields.with(tx), storeId, args, input));
      return { product, userErrors: [] };
    } catch (e) {
      if (e instanceof Rejected) return { product: null, userErrors: e.errors };
      throw e;
    }
  }

  /** Checks that need no database. */
  private checkProductInput(args: ProductUpdateArgs, input: ProductUpdateFields): PlainUserError[] {
    const errors: PlainUserError[] = [];
    const identifier = args.identifier;
    if (identifier) {
      if (input.id != null) errors.push({ field: ['id'], message: 'The id field is not allowed if identifier is provided.' });
      if (['id', 'handle', 'customId'].filter((k) => (identifier as Record<string, unknown>)[k] != null).length !== 1) {
        errors.push({ field: ['identifier'], message: 'Exactly one of id, handle or customId must be provided.' });
      }
    } else if (input.id == null) {
      errors.push({ field: ['id'], message: 'Product id is required (or an identifier).' });
    }
    // Product.title is non-null: a product always has one (productSet refuses a blank title the same way).
    if (input.title != null && input.title.trim() === '') errors.push({ field: ['title'], message: "Title can't be blank" });
    // schema 2026-10: ProductUpdateInput.handle "A handle can contain letters, hyphens (`-`), and numbers, but no spaces."
    if (input.handle != null && !/^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u.test(input.handle.trim().toLowerCase()))
      errors.push({ field: ['handle'], message: 'Handle is invalid' });
    // ProductUpdateInput.category: a TaxonomyCategory of the sandbox's subset (taxonomy-data.ts); null removes it.
    if (input.category != null && !(input.category.startsWith(TAXONOMY_GID_PREFIX) && taxonomyNode(input.category)))
      errors.push({ field: ['category'], message: `Category ${input.category} does not exist in the product taxonomy.` });
    (input.metafields ?? []).forEach((m, i) => {
      if (m.id != null) return;
      // schema 2026-10: MetafieldInput.key "Required when creating a metafield"; value always (String, stored as given).
      if (!m.key) errors.push({ field: ['metafields', String(i), 'key'], message: "Key can't be blank" });
      if (m.value == null) errors.push({ field: ['metafields', String(i), 'value'], message: "Value can't be blank" });
    });
    return errors;
  }

  private async findTarget(repo: SandboxProductRepository, storeId: number, args: ProductUpdateArgs, input: ProductUpdateFields): Promise<ProductRow | null> {
    const identifier = args.identifier;
    if (identifier?.handle != null) return repo.productByHandle(storeId, identifier.handle);
    if (identifier?.customId != null) {
      const c = identifier.customId;
      return repo.productByMetafield(storeId, c.namespace ?? DEFAULT_NAMESPACE, c.key, c.value);
    }
    const id = gidNumber(identifier?.id ?? input.id, 'Product');
    return id === null ? null : repo.product(storeId, id);
  }

  private async writeProduct(
    repo: SandboxProductRepository,
    metafields: SandboxMetafieldRepository,
    storeId: number,
    args: ProductUpdateArgs,
    input: ProductUpdateFields,
  ): Promise<ProductRow> {
    const found = await this.findTarget(repo, storeId, args, input);
    if (!found) throw new Rejected([{ field: args.identifier ? ['identifier'] : ['id'], message: 'Product does not exist' }]);
    await repo.lock(`sandbox-product:${storeId}:row:${found.id}`);
    const target = (await repo.product(storeId, found.id))!;

    const values: Parameters<SandboxProductRepository['updateProduct']>[1] = {};
    if (input.title != null) values.title = input.title.trim();
    if (input.descriptionHtml != null) values.descriptionHtml = input.descriptionHtml;
    if (input.vendor != null) values.vendor = input.vendor;
    if (input.productType != null) values.productType = input.productType;
    if (input.status != null) values.status = input.status;
    if (input.category !== undefined) values.categoryId = input.category === null ? null : taxonomyNode(input.category)!.id;
    if (input.tags != null)
      values.tags = [
        ...new Set(
          input.tags
            .flatMap((t) => t.split(','))
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ];
    if (input.seo != null) {
      values.seo = {
        title: has(input.seo, 'title') ? (input.seo.title ?? null) : target.seo.title,
        description: has(input.seo, 'description') ? (input.seo.description ?? null) : target.seo.description,
      };
    }
    if (input.handle != null) {
      const handle = input.handle.trim().toLowerCase();
      if (handle !== target.handle) {
        await repo.lock(`sandbox-product:${storeId}:handle:${handle}`);
        const holder = await repo.productByHandle(storeId, handle);
        if (holder && holder.id !== target.id)
          throw new Rejected([{ field: ['handle'], message: `Handle '${handle}' already in use. Please provide a new handle.` }]);
        values.handle = handle;
      }
    }
    const product = await repo.updateProduct(target.id, values);
    if (input.metafields != null && input.metafields.length > 0) await this.setMetafields(metafields, storeId, target.id, input.metafields);
    return product;
  }

  /** Sets the sent metafields (by id, or by namespace and key) and keeps the product's others. */
  private async setMetafields(repo: SandboxMetafieldRepository, storeId: number, productId: number, sent: MetafieldInput[]): Promise<void> {
    const existing = await repo.metafields(productId);
    const definitions = await repo.definitions(storeId, 'PRODUCT');
    const merged = new Map(existing.map((m) => [`${m.namespace}\u0000${m.key}`, { namespace: m.namespace, key: m.key, type: m.type, value: m.value }]));
    const errors: PlainUserError[] = [];
    for (const [i, m] of sent.entries()) {
      const at = (name: string) => ['metafields', String(i), name];
      let own: MetafieldRow | undefined;
      if (m.id != null) {
        own = existing.find((x) => x.id === gidNumber(m.id, 'Metafield'));
        if (!own) {
          errors.push({ field: at('id'), message: 'Metafield does not exist' });
          continue;
        }
      }
      // schema 2026-10: MetafieldInput.namespace/key "can't be updated itself"; a metafield sent by id keeps both.
      const namespace = own?.namespace ?? m.namespace ?? DEFAULT_NAMESPACE;
      const key = own?.key ?? m.key!;
      const definition = definitions.find((d) => d.namespace === namespace && d.key === key);
      const current = merged.get(`${namespace}\u0000${key}`);
      // schema 2026-10: MetafieldInput.type "Required when creating or updating a metafield without a definition."
      const type = m.type ?? definition?.type ?? (current && m.id != null ? current.type : null);
      if (!type) {
        errors.push({ field: at('type'), message: "Type can't be blank" });
        continue;
      }
      const value = m.value ?? current?.value;
      if (value == null) {
        errors.push({ field: at('value'), message: "Value can't be blank" });
        continue;
      }
      // The unique values capability (productSet enforces it the same way).
      if (definition?.uniqueValues && (await repo.metafieldValueTaken(storeId, namespace, key, value, productId))) {
        errors.push({ field: at('value'), message: `Value '${value}' is already taken for ${namespace}.${key}.` });
        continue;
      }
      merged.set(`${namespace}\u0000${key}`, { namespace, key, type, value });
    }
    if (errors.length) throw new Rejected(errors);
    await repo.replaceMetafields(storeId, productId, [...merged.values()]);
  }

  async variantsBulkUpdate(storeId: number, args: VariantsBulkUpdateArgs): Promise<VariantsBulkUpdateResult> {
    const productId = gidNumber(args.productId, 'Product');
    const notFound: VariantsBulkUpdateResult = {
      product: null,
      variants: null,
      userErrors: [{ field: ['productId'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }],
    };
    if (productId === null) return notFound;
    return this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx);
      await repo.lock(`sandbox-product:${storeId}:row:${productId}`);
      const product = await repo.product(storeId, productId);
      if (!product) return notFound;
      const own = new Set(await repo.variantIds(product.id));
      const errors: BulkUpdateUserError[] = [];
      const changes: { id: number; values: VariantValues }[] = [];
      for (const [i, v] of args.variants.entries()) {
        const found = await this.checkVariant(repo, storeId, own, v, i);
        if ('errors' in found) errors.push(...found.errors);
        else changes.push(found);
      }
      if (errors.length && !args.allowPartialUpdates) return { product: null, variants: null, userErrors: errors };
      const updated: VariantRow[] = [];
      for (const c of changes) {
        const row = await repo.updateVariantFields(product.id, c.id, c.values);
        if (row) updated.push(row);
      }
      const fresh = updated.length ? await repo.updateProduct(product.id, {}) : product; // the product's updatedAt moves with its variants
      return { product: fresh, variants: updated, userErrors: errors };
    });
  }

  /** One variant's input: the columns to change, or its userErrors (ProductVariantsBulkUpdateUserErrorCode). */
  private async checkVariant(
    repo: SandboxProductRepository,
    storeId: number,
    own: Set<number>,
    v: VariantBulkInput,
    i: number,
  ): Promise<{ id: number; values: VariantValues } | { errors: BulkUpdateUserError[] }> {
    const at = (...rest: string[]) => ['variants', String(i), ...rest];
    const e = (field: string[], message: string, code: string): { errors: BulkUpdateUserError[] } => ({ errors: [{ field, message, code }] });
    // schema 2026-10: ProductVariantsBulkUpdateUserErrorCode.PRODUCT_VARIANT_ID_MISSING "Product variant is missing ID attribute."
    if (v.id == null) return e(at('id'), 'Product variant is missing ID attribute.', 'PRODUCT_VARIANT_ID_MISSING');
    const id = gidNumber(v.id, 'ProductVariant');
    if (id === null || !own.has(id)) {
      // MUST_BE_FOR_THIS_PRODUCT "Input must be for this product."; PRODUCT_VARIANT_DOES_NOT_EXIST "Product variant does not exist."
      if (id !== null && (await repo.variantWithProduct(storeId, id))) return e(at('id'), 'Input must be for this product.', 'MUST_BE_FOR_THIS_PRODUCT');
      return e(at('id'), 'Product variant does not exist.', 'PRODUCT_VARIANT_DOES_NOT_EXIST');
    }
    const errors: BulkUpdateUserError[] = [];
    const values: VariantValues = {};
    if (v.inventoryQuantities != null) {
      errors.push({
        field: at('inventoryQuantities'),
        message: 'Inventory quantities can only be provided during create. To update inventory for existing variants, use inventoryAdjustQuantities.',
        code: 'NO_INVENTORY_QUANTITIES_ON_VARIANTS_UPDATE',
      });
    }
    for (const key of ['price', 'compareAtPrice'] as const) {
      if (!has(v, key)) continue;
      const label = key === 'price' ? 'Price' : 'Compare at price';
      const raw = v[key];
      if (raw === null) {
        // A variant always has a price; a null compare-at price removes it (ProductVariant.compareAtPrice is nullable).
        if (key === 'price') errors.push({ field: at(key), message: "Price can't be blank", code: 'BLANK' });
        else values.compareAtPrice = null;
        continue;
      }
      const text = String(raw).trim();
      // GREATER_THAN_OR_EQUAL_TO "The price of the variant must be greater than or equal to zero."
      if (/^-\d/.test(text)) errors.push({ field: at(key), message: `${label} must be greater than or equal to 0`, code: 'GREATER_THAN_OR_EQUAL_TO' });
      else if (!MONEY.test(text)) errors.push({ field: at(key), message: `${label} is invalid`, code: 'INVALID_INPUT' });
      else values[key] = formatMoney(text);
    }
    if (has(v, 'barcode')) values.barcode = v.barcode ?? null;
    if (v.inventoryPolicy != null) values.inventoryPolicy = v.inventoryPolicy;
    if (v.taxable != null) values.taxable = v.taxable;
    const item = v.inventoryItem;
    if (item) {
      if (has(item, 'sku')) values.sku = item.sku ?? null;
      if (item.tracked != null) values.tracked = item.tracked;
      if (item.requiresShipping != null) values.requiresShipping = item.requiresShipping;
      if (has(item, 'cost')) {
        const cost = item.cost == null ? null : String(item.cost).trim();
        if (cost !== null && !DECIMAL.test(cost)) errors.push({ field: at('inventoryItem', 'cost'), message: 'Cost is invalid', code: 'INVALID_INPUT' });
        else values.unitCost = cost === null ? null : formatMoney(cost);
      }
      if (item.measurement && has(item.measurement, 'weight')) {
        const w = item.measurement.weight;
        values.weight = w ? { value: w.value, unit: w.unit } : null;
      }
    }
    return errors.length ? { errors } : { id, values };
  }
}
