// The only place with SQL for product media.
import { and, asc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/tenancy.js';
import { productMedia, products } from '../pim.tables.js';
import { isoUtc } from '../sql.js';
import { rowsOf } from '../../db/rows.js';

/** A media row as the service needs it: the API fields, with the storage key instead of the URL. */
export interface MediaRow {
  id: number;
  product_id: number;
  storage_key: string;
  alt_text: string | null;
  position: number;
  mime_type: string;
  width: number;
  height: number;
  size_bytes: number;
  created_at: string;
}

const row = {
  id: productMedia.id,
  product_id: productMedia.productId,
  storage_key: productMedia.storageKey,
  alt_text: productMedia.altText,
  position: productMedia.position,
  mime_type: productMedia.mimeType,
  width: productMedia.width,
  height: productMedia.height,
  size_bytes: productMedia.sizeBytes,
  created_at: sql<string>`${isoUtc(sql`${productMedia.createdAt}`)}`,
};

/** Advisory-lock namespace of media files (the second key is the hash of the storage key). */
const FILE_LOCK_NAMESPACE = 7_301;

export class MediaRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): MediaRepository {
    return new MediaRepository(tx);
  }

  /**
   * Locks the organization's row, then the product's, until the transaction ends: media writes of one organization run
   * one after another (its quota is checked exactly), and deleting the organization (which locks its row first) waits
   * for them or makes them find nothing. False when the organization has no such product.
   */
  async lockProduct(organizationId: number, productId: number): Promise<boolean> {
    const org = await this.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for('no key update');
    if (org.length === 0) return false;
    const rows = await this.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), eq(products.id, productId)))
      .for('update');
    return rows.length > 0;
  }

  /**
   * Serializes the writers and the deleter of one stored file until the transaction ends: a file is put and its row
   * inserted under the lock, and a file is removed only under the lock after counting that no row refers to it.
   */
  async lockFile(storageKey: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(${FILE_LOCK_NAMESPACE}, hashtext(${storageKey}))`);
  }

  async listByProduct(organizationId: number, productId: number): Promise<MediaRow[]> {
    return this.db
      .select(row)
      .from(productMedia)
      .where(and(eq(productMedia.organizationId, organizationId), eq(productMedia.productId, productId)))
      .orderBy(asc(productMedia.position), asc(productMedia.id));
  }

  async find(organizationId: number, productId: number, id: number): Promise<MediaRow | null> {
    const [found] = await this.db
      .select(row)
      .from(productMedia)
      .where(and(eq(productMedia.organizationId, organizationId), eq(productMedia.productId, productId), eq(productMedia.id, id)));
    return found ?? null;
  }

  async findBySha(productId: number, sha256: string): Promise<MediaRow | null> {
    const [found] = await this.db
      .select(row)
      .from(productMedia)
      .where(and(eq(productMedia.productId, productId), eq(productMedia.sha256, sha256)));
    return found ?? null;
  }

  async countByProduct(productId: number): Promise<number> {
    const result = await this.db.execute(sql`SELECT count(*)::int AS n FROM product_media WHERE product_id = ${productId}`);
    return rowsOf<{ n: number }>(result)[0].n;
  }

  /** Moves every media of the product at or after `from` one place later, making room at `from`. */
  async makeRoomAt(productId: number, from: number): Promise<void> {
    await this.db
      .update(productMedia)
      .set({ position: sql`${productMedia.position} + 1` })
      .where(and(eq(productMedia.productId, productId), gte(productMedia.position, from)));
  }

  /** Moves one media from `from` to `to`, the ones between one place towards the gap (positions stay 0..n-1). */
  async move(productId: number, id: number, from: number, to: number): Promise<void> {
    if (from === to) return;
    await this.db
      .update(productMedia)
      .set({ position: sql`${productMedia.position} + ${to < from ? 1 : -1}` })
      .where(
        and(
          eq(productMedia.productId, productId),
          to < from ? gte(productMedia.position, to) : gt(productMedia.position, from),
          to < from ? lt(productMedia.position, from) : lte(productMedia.position, to),
        ),
      );
    await this.db.update(productMedia).set({ position: to }).where(eq(productMedia.id, id));
  }

  async setAltText(id: number, altText: string | null): Promise<void> {
    await this.db.update(productMedia).set({ altText }).where(eq(productMedia.id, id));
  }

  /** Moves every media of the product after `position` one place earlier, closing the gap left there. */
  async closeGapAt(productId: number, position: number): Promise<void> {
    await this.db
      .update(productMedia)
      .set({ position: sql`${productMedia.position} - 1` })
      .where(and(eq(productMedia.productId, productId), gt(productMedia.position, position)));
  }

  async insert(values: typeof productMedia.$inferInsert): Promise<number> {
    const [inserted] = await this.db.insert(productMedia).values(values).returning({ id: productMedia.id });
    return inserted.id;
  }

  /** Deletes one media row; its storage key and former position, or null when there was none. */
  async delete(organizationId: number, productId: number, id: number): Promise<{ storageKey: string; position: number } | null> {
    const [deleted] = await this.db
      .delete(productMedia)
      .where(and(eq(productMedia.organizationId, organizationId), eq(productMedia.productId, productId), eq(productMedia.id, id)))
      .returning({ storageKey: productMedia.storageKey, position: productMedia.position });
    return deleted ?? null;
  }

  /** Whether a media row of the organization refers to the stored file (then it costs the organization nothing more). */
  async organizationHasFile(organizationId: number, storageKey: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: productMedia.id })
      .from(productMedia)
      .where(and(eq(productMedia.organizationId, organizationId), eq(productMedia.storageKey, storageKey)))
      .limit(1);
    return rows.length > 0;
  }

  /** Bytes of the distinct files the organization's media refer to. */
  async storedBytes(organizationId: number): Promise<number> {
    const result = await this.db.execute(
      sql`SELECT coalesce(sum(size), 0)::float8 AS n FROM (SELECT max(size_bytes) AS size FROM product_media WHERE organization_id = ${organizationId} GROUP BY storage_key) files`,
    );
    return Number(rowsOf<{ n: number }>(result)[0].n);
  }

  /** Whether any media row, of any organization, still refers to the stored file. */
  /** The distinct storage keys of the organization's media. */
  async storageKeysOf(organizationId: number): Promise<string[]> {
    const keys = await this.db.selectDistinct({ key: productMedia.storageKey }).from(productMedia).where(eq(productMedia.organizationId, organizationId));
    return keys.map((k) => k.key);
  }

  async isReferenced(storageKey: string): Promise<boolean> {
    const rows = await this.db.select({ id: productMedia.id }).from(productMedia).where(eq(productMedia.storageKey, storageKey)).limit(1);
    return rows.length > 0;
  }
}
