// SQL for the sandbox's custom collections: the collections (sandbox_collections), their metafields, the products they
// hold in their order (sandbox_collection_products.position) and where they are published (sandbox_collection_publications).
import { and, asc, eq, gt, ilike, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxCollectionMetafields, sandboxCollectionProducts, sandboxCollections } from './collection.tables.js';
import { sandboxProducts } from './product.tables.js';
import { sandboxCollectionPublications, sandboxPublications } from './publication.tables.js';
import { escapeLike, handleOrNumbered } from './product-filter.js';
import type { ProductRow } from './sandbox-product.repository.js';
import type { ProductPublicationRow } from './sandbox-publication.repository.js';

export type CollectionRow = typeof sandboxCollections.$inferSelect;
export type CollectionMetafieldRow = typeof sandboxCollectionMetafields.$inferSelect;
export type CollectionValues = Pick<CollectionRow, 'title' | 'handle' | 'descriptionHtml' | 'sortOrder' | 'templateSuffix' | 'seo'>;
export interface MetafieldValues {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** `collections(query:)` as the sandbox understands it (sandbox-collection.service.ts parses it). */
export interface CollectionFilter {
  title?: string;
  handle?: string;
  productId?: number;
  /** `id:N`, `id:>N`, `id:<=N`… */
  ids?: { op: '=' | '>' | '>=' | '<' | '<='; value: number }[];
  text?: string;
  /** `collection_type:smart`: the sandbox keeps none. */
  none?: boolean;
}

/** How a collection's products are ordered (CollectionSortOrder, or Collection.products' sortKey mapped onto one). */
export type ProductOrder = 'POSITION' | 'TITLE' | 'CREATED' | 'ID' | 'PRICE';

const jsonIds = (ids: number[]) => JSON.stringify(ids.map(String));

export class SandboxCollectionRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxCollectionRepository {
    return new SandboxCollectionRepository(tx);
  }

  async lock(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
  }

  // Collections

  async collection(storeId: number, id: number): Promise<CollectionRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxCollections)
      .where(and(eq(sandboxCollections.storeId, storeId), eq(sandboxCollections.id, id)));
    return row ?? null;
  }

  async byHandle(storeId: number, handle: string): Promise<CollectionRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxCollections)
      .where(and(eq(sandboxCollections.storeId, storeId), eq(sandboxCollections.handle, handle)));
    return row ?? null;
  }

  /** The first collection holding this metafield value (collectionByIdentifier's customId). */
  async byMetafield(storeId: number, namespace: string, key: string, value: string): Promise<CollectionRow | null> {
    const [row] = await this.db
      .select({ c: sandboxCollections })
      .from(sandboxCollectionMetafields)
      .innerJoin(sandboxCollections, eq(sandboxCollections.id, sandboxCollectionMetafields.collectionId))
      .where(
        and(
          eq(sandboxCollectionMetafields.storeId, storeId),
          eq(sandboxCollectionMetafields.namespace, namespace),
          eq(sandboxCollectionMetafields.key, key),
          eq(sandboxCollectionMetafields.value, value),
        ),
      )
      .orderBy(asc(sandboxCollections.id))
      .limit(1);
    return row?.c ?? null;
  }

  /** Handles of the store equal to `base` or `base-N`. */
  async handlesLike(storeId: number, base: string): Promise<Set<string>> {
    const rows = await this.db
      .select({ handle: sandboxCollections.handle })
      .from(sandboxCollections)
      .where(and(eq(sandboxCollections.storeId, storeId), handleOrNumbered(sandboxCollections.handle, base)));
    return new Set(rows.map((r) => r.handle));
  }

  async insert(storeId: number, values: CollectionValues): Promise<CollectionRow> {
    const [row] = await this.db
      .insert(sandboxCollections)
      .values({ storeId, ...values })
      .returning();
    return row;
  }

  async update(id: number, values: Partial<CollectionValues>): Promise<CollectionRow> {
    const [row] = await this.db
      .update(sandboxCollections)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(sandboxCollections.id, id))
      .returning();
    return row;
  }

  /** Deletes the collection (its memberships, metafields and publications go with it); false when it does not exist. */
  async delete(storeId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxCollections)
      .where(and(eq(sandboxCollections.storeId, storeId), eq(sandboxCollections.id, id)))
      .returning({ id: sandboxCollections.id });
    return rows.length > 0;
  }

  private filter(storeId: number, f: CollectionFilter): SQL | undefined {
    const ops = {
      '=': eq,
      '>': gt,
      '<': lt,
      '>=': (c: typeof sandboxCollections.id, v: number) => sql`${c} >= ${v}`,
      '<=': (c: typeof sandboxCollections.id, v: number) => sql`${c} <= ${v}`,
    };
    return and(
      eq(sandboxCollections.storeId, storeId),
      f.none ? sql`false` : undefined,
      f.handle !== undefined ? eq(sandboxCollections.handle, f.handle) : undefined,
      f.title !== undefined ? ilike(sandboxCollections.title, escapeLike(f.title)) : undefined,
      f.text !== undefined ? ilike(sandboxCollections.title, `%${escapeLike(f.text)}%`) : undefined,
      ...(f.ids ?? []).map((c) => ops[c.op](sandboxCollections.id, c.value)),
      f.productId !== undefined
        ? inArray(
            sandboxCollections.id,
            this.db
              .select({ id: sandboxCollectionProducts.collectionId })
              .from(sandboxCollectionProducts)
              .where(eq(sandboxCollectionProducts.productId, f.productId)),
          )
        : undefined,
    );
  }

  /** Every collection matching the filter, by id (a store's collections are few: the resolvers page in memory). */
  async list(storeId: number, f: CollectionFilter): Promise<CollectionRow[]> {
    return this.db.select().from(sandboxCollections).where(this.filter(storeId, f)).orderBy(asc(sandboxCollections.id));
  }

  /** Which of these ids are collections of the store. */
  async existing(storeId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: sandboxCollections.id })
      .from(sandboxCollections)
      .where(and(eq(sandboxCollections.storeId, storeId), inArray(sandboxCollections.id, ids)));
    return new Set(rows.map((r) => r.id));
  }

  // Membership

  /** The collection's product ids in the given order (ties: the order they joined in). */
  async productIds(collectionId: number, order: ProductOrder, descending: boolean): Promise<number[]> {
    const dir = descending ? sql`desc` : sql`asc`;
    const key: Record<ProductOrder, SQL> = {
      POSITION: sql`cp.position ${dir}, cp.created_at ${dir}, p.id ${dir}`,
      TITLE: sql`lower(p.title) ${dir}, p.id ${dir}`,
      CREATED: sql`p.created_at ${dir}, p.id ${dir}`,
      ID: sql`p.id ${dir}`,
      PRICE: sql`(select min(v.price::numeric) from sandbox_variants v where v.product_id = p.id) ${dir} nulls last, p.id ${dir}`,
    };
    const rows = (await this.db.execute(sql`
      select p.id from sandbox_collection_products cp join sandbox_products p on p.id = cp.product_id
      where cp.collection_id = ${collectionId} order by ${key[order]}`)) as unknown as { rows: { id: string | number }[] };
    return rows.rows.map((r) => Number(r.id));
  }

  async countProducts(collectionId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sandboxCollectionProducts)
      .where(eq(sandboxCollectionProducts.collectionId, collectionId));
    return Number(row.n);
  }

  async hasProduct(collectionId: number, productId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ p: sandboxCollectionProducts.productId })
      .from(sandboxCollectionProducts)
      .where(and(eq(sandboxCollectionProducts.collectionId, collectionId), eq(sandboxCollectionProducts.productId, productId)));
    return row !== undefined;
  }

  /** Products of the store by id, in the order of `ids` (missing ones left out). */
  async products(storeId: number, ids: number[]): Promise<ProductRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), inArray(sandboxProducts.id, ids)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Which of these ids are products of the store. */
  async existingProducts(storeId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: sandboxProducts.id })
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), inArray(sandboxProducts.id, ids)));
    return new Set(rows.map((r) => r.id));
  }

  /** Adds the products at the end of the collection, in order; those already in it keep their place. */
  async addProducts(collectionId: number, productIds: number[]): Promise<void> {
    if (productIds.length === 0) return;
    await this.db.execute(sql`
      insert into sandbox_collection_products (collection_id, product_id, position)
      select ${collectionId}, x.value::bigint,
        coalesce((select max(position) from sandbox_collection_products where collection_id = ${collectionId}), 0) + x.ord::int
      from jsonb_array_elements_text(${jsonIds(productIds)}::jsonb) with ordinality as x(value, ord)
      on conflict do nothing`);
  }

  async removeProducts(collectionId: number, productIds: number[] | 'all'): Promise<void> {
    if (productIds !== 'all' && productIds.length === 0) return;
    await this.db
      .delete(sandboxCollectionProducts)
      .where(
        and(
          eq(sandboxCollectionProducts.collectionId, collectionId),
          productIds === 'all' ? undefined : inArray(sandboxCollectionProducts.productId, productIds),
        ),
      );
  }

  /**
   * The product's memberships become exactly `collectionIds`: it leaves the others and joins the new ones at their end
   * (`isNew`: a product just made has none to leave).
   */
  async setProductCollections(productId: number, collectionIds: number[], isNew = false): Promise<void> {
    if (!isNew) {
      await this.db
        .delete(sandboxCollectionProducts)
        .where(
          and(
            eq(sandboxCollectionProducts.productId, productId),
            collectionIds.length
              ? sql`${sandboxCollectionProducts.collectionId} not in (select value::bigint from jsonb_array_elements_text(${jsonIds(collectionIds)}::jsonb))`
              : undefined,
          ),
        );
    }
    if (collectionIds.length === 0) return;
    await this.db.execute(sql`
      insert into sandbox_collection_products (collection_id, product_id, position)
      select c.value::bigint, ${productId},
        coalesce((select max(position) from sandbox_collection_products where collection_id = c.value::bigint), 0) + 1
      from jsonb_array_elements_text(${jsonIds(collectionIds)}::jsonb) as c(value)
      on conflict do nothing`);
  }

  /** The product's collections, by collection id. */
  async collectionsOfProduct(productId: number): Promise<CollectionRow[]> {
    const rows = await this.db
      .select({ c: sandboxCollections })
      .from(sandboxCollectionProducts)
      .innerJoin(sandboxCollections, eq(sandboxCollections.id, sandboxCollectionProducts.collectionId))
      .where(eq(sandboxCollectionProducts.productId, productId))
      .orderBy(asc(sandboxCollections.id));
    return rows.map((r) => r.c);
  }

  // Metafields

  async metafields(collectionId: number): Promise<CollectionMetafieldRow[]> {
    return this.db
      .select()
      .from(sandboxCollectionMetafields)
      .where(eq(sandboxCollectionMetafields.collectionId, collectionId))
      .orderBy(asc(sandboxCollectionMetafields.id));
  }

  /** Creates or updates the collection's metafields by namespace and key (others are kept). */
  async upsertMetafields(storeId: number, collectionId: number, fields: MetafieldValues[]): Promise<void> {
    const wanted = [...new Map(fields.map((f) => [`${f.namespace}\u0000${f.key}`, f])).values()];
    if (wanted.length === 0) return;
    await this.db
      .insert(sandboxCollectionMetafields)
      .values(wanted.map((f) => ({ storeId, collectionId, ...f })))
      .onConflictDoUpdate({
        target: [sandboxCollectionMetafields.collectionId, sandboxCollectionMetafields.namespace, sandboxCollectionMetafields.key],
        set: { type: sql`excluded.type`, value: sql`excluded.value`, updatedAt: sql`now()` },
      });
  }

  /** Another collection of the store holding this metafield value. */
  async metafieldValueTaken(storeId: number, namespace: string, key: string, value: string, exceptId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxCollectionMetafields.id })
      .from(sandboxCollectionMetafields)
      .where(
        and(
          eq(sandboxCollectionMetafields.storeId, storeId),
          eq(sandboxCollectionMetafields.namespace, namespace),
          eq(sandboxCollectionMetafields.key, key),
          eq(sandboxCollectionMetafields.value, value),
          ne(sandboxCollectionMetafields.collectionId, exceptId),
        ),
      )
      .limit(1);
    return !!row;
  }

  // Publications

  /** The collection's publications, published and scheduled, by publication id. */
  async publications(collectionId: number): Promise<ProductPublicationRow[]> {
    return this.db
      .select({ publication: sandboxPublications, publishedAt: sandboxCollectionPublications.publishedAt })
      .from(sandboxCollectionPublications)
      .innerJoin(sandboxPublications, eq(sandboxPublications.id, sandboxCollectionPublications.publicationId))
      .where(eq(sandboxCollectionPublications.collectionId, collectionId))
      .orderBy(asc(sandboxPublications.id));
  }

  /** As SandboxPublicationRepository.publish does for a product: a date given sets it, none publishes now (or keeps an earlier date). */
  async publish(collectionId: number, entries: { publicationId: number; publishDate: Date | null }[]): Promise<void> {
    const target = [sandboxCollectionPublications.collectionId, sandboxCollectionPublications.publicationId];
    const dated = entries.filter((e) => e.publishDate !== null);
    const undated = entries.filter((e) => e.publishDate === null);
    if (dated.length) {
      await this.db
        .insert(sandboxCollectionPublications)
        .values(dated.map((e) => ({ collectionId, publicationId: e.publicationId, publishedAt: e.publishDate! })))
        .onConflictDoUpdate({ target, set: { publishedAt: sql`excluded.published_at` } });
    }
    if (undated.length) {
      await this.db
        .insert(sandboxCollectionPublications)
        .values(undated.map((e) => ({ collectionId, publicationId: e.publicationId })))
        .onConflictDoUpdate({ target, set: { publishedAt: sql`least(sandbox_collection_publications.published_at, excluded.published_at)` } });
    }
  }

  async unpublish(collectionId: number, publicationIds: number[]): Promise<void> {
    if (publicationIds.length === 0) return;
    await this.db
      .delete(sandboxCollectionPublications)
      .where(and(eq(sandboxCollectionPublications.collectionId, collectionId), inArray(sandboxCollectionPublications.publicationId, publicationIds)));
  }

  /** Whether the collection is published (not only scheduled) on the publication. */
  async isPublishedOn(publicationId: number, collectionId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxCollectionPublications.collectionId })
      .from(sandboxCollectionPublications)
      .where(
        and(
          eq(sandboxCollectionPublications.publicationId, publicationId),
          eq(sandboxCollectionPublications.collectionId, collectionId),
          sql`${sandboxCollectionPublications.publishedAt} <= now()`,
        ),
      );
    return row !== undefined;
  }
}
