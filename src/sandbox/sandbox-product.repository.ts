// SQL for the sandbox's catalogue: products, variants, media, locations. Metafields and their definitions are
// sandbox-metafield.repository.ts's; the products(query:) search is product-filter.ts.
import { and, asc, count, eq, getTableColumns, gt, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { handleOrNumbered, productFilter, type ProductFilter } from './product-filter.js';
import { sandboxMedia, sandboxProductMetafields, sandboxProducts, sandboxVariants } from './product.tables.js';
import { sandboxLocations } from './store.tables.js';

export type ProductRow = typeof sandboxProducts.$inferSelect;
export type VariantRow = typeof sandboxVariants.$inferSelect;
/** A media row as the answers read it: every column but the file itself, and the file's size. */
export type MediaRow = Omit<typeof sandboxMedia.$inferSelect, 'content'> & { fileSize: number | null };
export type LocationRow = typeof sandboxLocations.$inferSelect;

export type ProductValues = Pick<
  ProductRow,
  'handle' | 'title' | 'descriptionHtml' | 'vendor' | 'productType' | 'status' | 'tags' | 'seo' | 'options' | 'giftCard' | 'categoryId'
>;
export type VariantValues = Pick<
  VariantRow,
  | 'sku'
  | 'price'
  | 'compareAtPrice'
  | 'barcode'
  | 'optionValues'
  | 'inventory'
  | 'position'
  | 'inventoryPolicy'
  | 'taxable'
  | 'tracked'
  | 'requiresShipping'
  | 'unitCost'
  | 'weight'
>;

export class SandboxProductRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxProductRepository {
    return new SandboxProductRepository(tx);
  }

  /** Serialises writers on one key for the rest of the transaction (same customId, handle or product). */
  async lock(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
  }

  // Locations

  async locations(storeId: number, afterId: number, limit: number): Promise<LocationRow[]> {
    return this.db
      .select()
      .from(sandboxLocations)
      .where(and(eq(sandboxLocations.storeId, storeId), gt(sandboxLocations.id, afterId)))
      .orderBy(asc(sandboxLocations.id))
      .limit(limit);
  }

  async location(storeId: number, id: number): Promise<LocationRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxLocations)
      .where(and(eq(sandboxLocations.storeId, storeId), eq(sandboxLocations.id, id)));
    return row ?? null;
  }

  /** Adds the store's "Shop location" unless it has a location (call under lock). */
  async ensureLocation(storeId: number): Promise<void> {
    const [row] = await this.db.select({ id: sandboxLocations.id }).from(sandboxLocations).where(eq(sandboxLocations.storeId, storeId)).limit(1);
    if (!row) await this.db.insert(sandboxLocations).values({ storeId, name: 'Shop location' });
  }

  // Products

  async product(storeId: number, id: number): Promise<ProductRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.id, id)));
    return row ?? null;
  }

  async productByHandle(storeId: number, handle: string): Promise<ProductRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.handle, handle)));
    return row ?? null;
  }

  async productByMetafield(storeId: number, namespace: string, key: string, value: string): Promise<ProductRow | null> {
    const [row] = await this.db
      .select({ product: sandboxProducts })
      .from(sandboxProductMetafields)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxProductMetafields.productId))
      .where(
        and(
          eq(sandboxProductMetafields.storeId, storeId),
          eq(sandboxProductMetafields.namespace, namespace),
          eq(sandboxProductMetafields.key, key),
          eq(sandboxProductMetafields.value, value),
        ),
      )
      .orderBy(asc(sandboxProducts.id))
      .limit(1);
    return row?.product ?? null;
  }

  /** Handles of the store equal to `base` or `base-N`, except the product's own. */
  async handlesLike(storeId: number, base: string, exceptId: number | null): Promise<Set<string>> {
    const rows = await this.db
      .select({ handle: sandboxProducts.handle })
      .from(sandboxProducts)
      .where(
        and(
          eq(sandboxProducts.storeId, storeId),
          handleOrNumbered(sandboxProducts.handle, base),
          exceptId === null ? undefined : ne(sandboxProducts.id, exceptId),
        ),
      );
    return new Set(rows.map((r) => r.handle));
  }

  async insertProduct(storeId: number, values: ProductValues): Promise<ProductRow> {
    const [row] = await this.db
      .insert(sandboxProducts)
      .values({ storeId, ...values })
      .returning();
    return row;
  }

  async updateProduct(id: number, values: Partial<ProductValues>): Promise<ProductRow> {
    const [row] = await this.db
      .update(sandboxProducts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(sandboxProducts.id, id))
      .returning();
    return row;
  }

  async deleteProduct(storeId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.id, id)))
      .returning({ id: sandboxProducts.id });
    return rows.length > 0;
  }

  async products(storeId: number, f: ProductFilter, afterId: number, limit: number): Promise<ProductRow[]> {
    return this.db
      .select()
      .from(sandboxProducts)
      .where(and(productFilter(this.db, storeId, f), gt(sandboxProducts.id, afterId)))
      .orderBy(asc(sandboxProducts.id))
      .limit(limit);
  }

  async countProducts(storeId: number, f: ProductFilter): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(sandboxProducts)
      .where(productFilter(this.db, storeId, f));
    return Number(row.n);
  }

  // Variants

  /** Every variant of the store (the variant throttle counts them). */
  async countStoreVariants(storeId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(eq(sandboxProducts.storeId, storeId));
    return Number(row.n);
  }

  async variants(productId: number, afterPosition: number, limit: number): Promise<VariantRow[]> {
    return this.db
      .select()
      .from(sandboxVariants)
      .where(and(eq(sandboxVariants.productId, productId), gt(sandboxVariants.position, afterPosition)))
      .orderBy(asc(sandboxVariants.position))
      .limit(limit);
  }

  /** Every variant of these products, by product and position (a bulk query reads a page of products' lists at once). */
  async variantsOfProducts(productIds: number[]): Promise<VariantRow[]> {
    if (productIds.length === 0) return [];
    return this.db
      .select()
      .from(sandboxVariants)
      .where(inArray(sandboxVariants.productId, productIds))
      .orderBy(asc(sandboxVariants.productId), asc(sandboxVariants.position));
  }

  async variantWithProduct(storeId: number, variantId: number): Promise<{ variant: VariantRow; product: ProductRow } | null> {
    const [row] = await this.db
      .select({ variant: sandboxVariants, product: sandboxProducts })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(and(eq(sandboxVariants.id, variantId), eq(sandboxProducts.storeId, storeId)));
    return row ?? null;
  }

  async variantIds(productId: number): Promise<number[]> {
    const rows = await this.db.select({ id: sandboxVariants.id }).from(sandboxVariants).where(eq(sandboxVariants.productId, productId));
    return rows.map((r) => r.id);
  }

  async countVariants(productId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sandboxVariants).where(eq(sandboxVariants.productId, productId));
    return Number(row.n);
  }

  /** Changes only the given fields of one of the product's variants (productVariantsBulkUpdate); null when it is not the product's. */
  async updateVariantFields(
    productId: number,
    id: number,
    values: Partial<
      Pick<VariantRow, 'sku' | 'price' | 'compareAtPrice' | 'barcode' | 'inventoryPolicy' | 'taxable' | 'tracked' | 'requiresShipping' | 'unitCost' | 'weight'>
    >,
  ): Promise<VariantRow | null> {
    const [row] = await this.db
      .update(sandboxVariants)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(sandboxVariants.productId, productId), eq(sandboxVariants.id, id)))
      .returning();
    return row ?? null;
  }

  /**
   * Replaces the product's variants: kept ones (with `id`) updated in one statement, new ones inserted, the rest deleted.
   * `isNew`: the product was just made, there is nothing to delete (one statement less per create, bulk runs).
   * Returns the new rows (for a new product, all of its variants).
   */
  async replaceVariants(productId: number, variants: (VariantValues & { id?: number })[], isNew = false): Promise<VariantRow[]> {
    const kept = variants.filter((v) => v.id !== undefined);
    if (!isNew)
      await this.db.delete(sandboxVariants).where(
        and(
          eq(sandboxVariants.productId, productId),
          kept.length
            ? notInArray(
                sandboxVariants.id,
                kept.map((v) => v.id!),
              )
            : undefined,
        ),
      );
    if (kept.length) {
      const rows = JSON.stringify(
        kept.map((v) => ({
          id: v.id,
          sku: v.sku,
          price: v.price,
          compare_at_price: v.compareAtPrice,
          barcode: v.barcode,
          option_values: v.optionValues,
          inventory: v.inventory,
          position: v.position,
          inventory_policy: v.inventoryPolicy,
          taxable: v.taxable,
          tracked: v.tracked,
          requires_shipping: v.requiresShipping,
          unit_cost: v.unitCost,
          weight: v.weight,
        })),
      );
      await this.db.execute(sql`
        update sandbox_variants v set sku = x.sku, price = x.price, compare_at_price = x.compare_at_price, barcode = x.barcode,
          option_values = x.option_values, inventory = x.inventory, position = x.position, inventory_policy = x.inventory_policy,
          taxable = x.taxable, tracked = x.tracked, requires_shipping = x.requires_shipping, unit_cost = x.unit_cost, weight = x.weight,
          updated_at = now()
        from jsonb_to_recordset(${rows}::jsonb) as x(id bigint, sku text, price text, compare_at_price text, barcode text, option_values jsonb,
          inventory jsonb, position int, inventory_policy text, taxable boolean, tracked boolean, requires_shipping boolean, unit_cost text,
          weight jsonb)
        where v.id = x.id and v.product_id = ${productId}`);
    }
    const fresh = variants.filter((v) => v.id === undefined).map(({ id: _id, ...values }) => ({ productId, ...values }));
    return fresh.length ? this.db.insert(sandboxVariants).values(fresh).returning() : [];
  }

  /** Sets the media of some of the product's variants (ProductVariantSetInput.file; null detaches it). */
  async setVariantMedia(productId: number, pairs: { id: number; mediaId: number | null }[]): Promise<void> {
    if (!pairs.length) return;
    await this.db.execute(sql`
      update sandbox_variants v set media_id = x.media_id, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(pairs.map((p) => ({ id: p.id, media_id: p.mediaId })))}::jsonb) as x(id bigint, media_id bigint)
      where v.id = x.id and v.product_id = ${productId}`);
  }

  // Media

  async media(productId: number, afterPosition: number, limit: number): Promise<MediaRow[]> {
    const { content, ...columns } = getTableColumns(sandboxMedia);
    const rows = await this.db
      .select({ ...columns, fileSize: sql<number | null>`octet_length(${content})` })
      .from(sandboxMedia)
      .where(and(eq(sandboxMedia.productId, productId), gt(sandboxMedia.position, afterPosition)))
      .orderBy(asc(sandboxMedia.position))
      .limit(limit);
    return rows.map((r) => ({ ...r, fileSize: r.fileSize === null ? null : Number(r.fileSize) }));
  }

  /** Every media of these products, by product and position. */
  async mediaOfProducts(productIds: number[]): Promise<MediaRow[]> {
    if (productIds.length === 0) return [];
    const { content, ...columns } = getTableColumns(sandboxMedia);
    const rows = await this.db
      .select({ ...columns, fileSize: sql<number | null>`octet_length(${content})` })
      .from(sandboxMedia)
      .where(inArray(sandboxMedia.productId, productIds))
      .orderBy(asc(sandboxMedia.productId), asc(sandboxMedia.position));
    return rows.map((r) => ({ ...r, fileSize: r.fileSize === null ? null : Number(r.fileSize) }));
  }

  async mediaIds(productId: number): Promise<number[]> {
    const rows = await this.db.select({ id: sandboxMedia.id }).from(sandboxMedia).where(eq(sandboxMedia.productId, productId));
    return rows.map((r) => r.id);
  }

  async countMedia(productId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sandboxMedia).where(eq(sandboxMedia.productId, productId));
    return Number(row.n);
  }

  /**
   * Replaces the product's media: `{id}` keeps (and re-positions) a media, `{originalSource}` adds a new one (with
   * status UPLOADED, the column's default); the new media's rows (for a new product, all of its media).
   */
  async replaceMedia(
    productId: number,
    files: ({ id: number; alt?: string | null } | { originalSource: string; alt: string | null; filename: string })[],
    isNew = false,
  ): Promise<MediaRow[]> {
    const kept = files.flatMap((f, i) => ('id' in f ? [{ id: f.id, position: i + 1, alt: f.alt, setAlt: f.alt !== undefined }] : []));
    if (!isNew)
      await this.db.delete(sandboxMedia).where(
        and(
          eq(sandboxMedia.productId, productId),
          kept.length
            ? notInArray(
                sandboxMedia.id,
                kept.map((k) => k.id),
              )
            : undefined,
        ),
      );
    if (kept.length) {
      await this.db.execute(sql`
        update sandbox_media m set position = x.position, alt = case when x.set_alt then x.alt else m.alt end
        from jsonb_to_recordset(${JSON.stringify(kept.map((k) => ({ id: k.id, position: k.position, alt: k.alt ?? null, set_alt: k.setAlt })))}::jsonb)
          as x(id bigint, position int, alt text, set_alt boolean)
        where m.id = x.id and m.product_id = ${productId}`);
    }
    const fresh = files.flatMap((f, i) =>
      'originalSource' in f ? [{ productId, originalSource: f.originalSource, alt: f.alt, filename: f.filename, position: i + 1 }] : [],
    );
    if (!fresh.length) return [];
    const { content: _content, ...columns } = getTableColumns(sandboxMedia);
    return (await this.db.insert(sandboxMedia).values(fresh).returning(columns)).map((r) => ({ ...r, fileSize: null }));
  }
}
