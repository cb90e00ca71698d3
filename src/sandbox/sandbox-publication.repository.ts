// SQL for the sandbox's sales channels: a store's publications (sandbox_publications) and the products published on them
// (sandbox_product_publications; a row whose published_at is still ahead is a scheduled publication).
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxProducts } from './product.tables.js';
import { sandboxProductPublications, sandboxPublications } from './publication.tables.js';
import type { ProductRow } from './sandbox-product.repository.js';

export type PublicationRow = typeof sandboxPublications.$inferSelect;

/** One product's publication: the publication and when the product was (or will be) published on it. */
export interface ProductPublicationRow {
  publication: PublicationRow;
  publishedAt: Date;
}

export class SandboxPublicationRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxPublicationRepository {
    return new SandboxPublicationRepository(tx);
  }

  /** Adds the named publications the store lacks, in the given order (ids follow it). */
  async ensure(storeId: number, names: readonly string[]): Promise<void> {
    await this.db
      .insert(sandboxPublications)
      .values(names.map((name) => ({ storeId, name })))
      .onConflictDoNothing({ target: [sandboxPublications.storeId, sandboxPublications.name] });
  }

  /** A new publication; null when the store already has one of that name. */
  async insert(storeId: number, name: string): Promise<PublicationRow | null> {
    const rows = await this.db.insert(sandboxPublications).values({ storeId, name }).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async publications(storeId: number, afterId: number, limit: number): Promise<PublicationRow[]> {
    return this.db
      .select()
      .from(sandboxPublications)
      .where(and(eq(sandboxPublications.storeId, storeId), gt(sandboxPublications.id, afterId)))
      .orderBy(asc(sandboxPublications.id))
      .limit(limit);
  }

  async byIds(storeId: number, ids: number[]): Promise<PublicationRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(sandboxPublications)
      .where(and(eq(sandboxPublications.storeId, storeId), inArray(sandboxPublications.id, ids)));
  }

  async byName(storeId: number, name: string): Promise<PublicationRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxPublications)
      .where(and(eq(sandboxPublications.storeId, storeId), eq(sandboxPublications.name, name)));
    return row ?? null;
  }

  /** The product's publications, published and scheduled, by publication id. */
  async ofProduct(productId: number): Promise<ProductPublicationRow[]> {
    return this.db
      .select({ publication: sandboxPublications, publishedAt: sandboxProductPublications.publishedAt })
      .from(sandboxProductPublications)
      .innerJoin(sandboxPublications, eq(sandboxPublications.id, sandboxProductPublications.publicationId))
      .where(eq(sandboxProductPublications.productId, productId))
      .orderBy(asc(sandboxPublications.id));
  }

  /**
   * Publishes the product on each publication at its date (null: now). A product already there keeps its date unless a
   * date is given, or it was only scheduled (publishing it without a date publishes it now).
   */
  async publish(productId: number, entries: { publicationId: number; publishDate: Date | null }[]): Promise<void> {
    const target = [sandboxProductPublications.productId, sandboxProductPublications.publicationId];
    const dated = entries.filter((e) => e.publishDate !== null);
    const undated = entries.filter((e) => e.publishDate === null);
    if (dated.length) {
      await this.db
        .insert(sandboxProductPublications)
        .values(dated.map((e) => ({ productId, publicationId: e.publicationId, publishedAt: e.publishDate! })))
        .onConflictDoUpdate({ target, set: { publishedAt: sql`excluded.published_at` } });
    }
    if (undated.length) {
      await this.db
        .insert(sandboxProductPublications)
        .values(undated.map((e) => ({ productId, publicationId: e.publicationId })))
        .onConflictDoUpdate({ target, set: { publishedAt: sql`least(sandbox_product_publications.published_at, excluded.published_at)` } });
    }
  }

  async unpublish(productId: number, publicationIds: number[]): Promise<void> {
    if (publicationIds.length === 0) return;
    await this.db
      .delete(sandboxProductPublications)
      .where(and(eq(sandboxProductPublications.productId, productId), inArray(sandboxProductPublications.publicationId, publicationIds)));
  }

  /** Products published (not only scheduled) on the publication, by id. */
  async products(storeId: number, publicationId: number, afterId: number, limit: number): Promise<ProductRow[]> {
    const rows = await this.db
      .select({ product: sandboxProducts })
      .from(sandboxProductPublications)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxProductPublications.productId))
      .where(
        and(
          eq(sandboxProducts.storeId, storeId),
          eq(sandboxProductPublications.publicationId, publicationId),
          lte(sandboxProductPublications.publishedAt, sql`now()`),
          gt(sandboxProducts.id, afterId),
        ),
      )
      .orderBy(asc(sandboxProducts.id))
      .limit(limit);
    return rows.map((r) => r.product);
  }
}
