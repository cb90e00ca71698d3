// SQL of the media lifecycle: a media made from `originalSource` moves UPLOADED → PROCESSING → READY (the sandbox's copy
// of the file in sandbox_media.content / mime_type) or FAILED (error_code / error_message).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxMedia, sandboxProducts } from './product.tables.js';
import { sandboxStores } from './store.tables.js';

export interface MediaFile {
  content: Buffer;
  mimeType: string;
}

/** bytea arrives as a Buffer from pg and as a Uint8Array from PGlite. */
const toBuffer = (value: unknown): Buffer =>
  Buffer.isBuffer(value) ? value : value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : Buffer.alloc(0);

export class SandboxMediaRepository {
  constructor(private readonly db: Db) {}

  /** Media not processed yet, of every store (a process that died left them so). */
  async unfinished(limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: sandboxMedia.id })
      .from(sandboxMedia)
      .where(inArray(sandboxMedia.status, ['UPLOADED', 'PROCESSING']))
      .orderBy(asc(sandboxMedia.id))
      .limit(limit);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Takes a media into PROCESSING; its source URL and whether its store lets it be fetched from a private address
   * (`sandbox_stores.allow_private_media_sources`, read now: the setting when it is fetched), or null when it is gone
   * or finished. PROCESSING is taken again: a process that died left it so, and two processes working on one media
   * write the same outcome.
   */
  async claim(id: number): Promise<{ source: string; allowPrivate: boolean } | null> {
    const [row] = await this.db
      .update(sandboxMedia)
      .set({ status: 'PROCESSING' })
      .where(and(eq(sandboxMedia.id, id), inArray(sandboxMedia.status, ['UPLOADED', 'PROCESSING'])))
      .returning({ source: sandboxMedia.originalSource, productId: sandboxMedia.productId });
    if (!row) return null;
    const [store] = await this.db
      .select({ allowPrivate: sandboxStores.allowPrivateMediaSources })
      .from(sandboxProducts)
      .innerJoin(sandboxStores, eq(sandboxStores.id, sandboxProducts.storeId))
      .where(eq(sandboxProducts.id, row.productId));
    return { source: row.source, allowPrivate: store?.allowPrivate === true };
  }

  async ready(id: number, content: Buffer, mimeType: string): Promise<void> {
    await this.db
      .update(sandboxMedia)
      .set({ status: 'READY', content, mimeType, errorCode: null, errorMessage: null })
      .where(and(eq(sandboxMedia.id, id), eq(sandboxMedia.status, 'PROCESSING')));
  }

  async failed(id: number, code: string, message: string): Promise<void> {
    await this.db
      .update(sandboxMedia)
      .set({ status: 'FAILED', content: null, mimeType: null, errorCode: code, errorMessage: message })
      .where(and(eq(sandboxMedia.id, id), eq(sandboxMedia.status, 'PROCESSING')));
  }

  /** A READY media's file, when it belongs to the store and has that file name. */
  async file(storeId: number, id: number, filename: string): Promise<MediaFile | null> {
    const [row] = await this.db
      .select({ content: sandboxMedia.content, mimeType: sandboxMedia.mimeType, filename: sandboxMedia.filename })
      .from(sandboxMedia)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxMedia.productId))
      .where(and(eq(sandboxMedia.id, id), eq(sandboxProducts.storeId, storeId), eq(sandboxMedia.status, 'READY')));
    if (!row || row.mimeType === null || (row.filename ?? 'file') !== filename) return null;
    return { content: toBuffer(row.content), mimeType: row.mimeType };
  }
}
