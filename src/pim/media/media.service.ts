// Product media: a file_url is downloaded under the SSRF rules of SafeDownloader (or the file is uploaded), must decode
// as JPEG, PNG, WebP or GIF, and is stored once per content (key = sha256). Positions of a product's media stay 0..n-1.
// Adding, changing or removing a media bumps the product's updated_at in the same transaction, so delta syncs see it,
// and records the change in the product's history.
// Limits: at most `downloadConcurrency` downloads or uploads (with their decoding, the memory-heavy part) run at once
// per process and as many wait; later ones get 429. An organization's stored bytes (each distinct file once, shared or
// not with other organizations) stay within `quotaBytes`: a new file that does not fit is a 400 (the spec's table has
// no 413 or 507).
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { ConcurrencyGate, GateFullError } from '../../lib/concurrency-gate.js';
import { DownloadError, formatBytes, type SafeDownloader } from '../../lib/safe-download.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { type DecodedImage, decodeImage, ImageDecodeError } from '../images/image-decoder.js';
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { MediaRepository, MediaRow } from './media.repository.js';
import type { MediaCreateInput, MediaUpdateInput, MediaView } from './media.schemas.js';
import { mediaKey, mimeOfKey, type MediaStorage, type StoredFile } from './storage.js';

export interface MediaServiceOptions {
  /** PUBLIC_URL: the media URLs are `${publicUrl}/media/${key}`. */
  publicUrl: string;
  /** Downloads running at once (MEDIA_DOWNLOAD_CONCURRENCY); as many more may wait. */
  downloadConcurrency: number;
  /** Bytes an organization may store (MEDIA_QUOTA_BYTES); 0: no quota. */
  quotaBytes: number;
}

/** Seconds a caller refused for a full download queue is told to wait. */
const BUSY_RETRY_SECONDS = 2;

export interface MediaUploadInput {
  bytes: Buffer;
  alt_text?: string | null;
  position?: number;
}

export interface AddedMedia {
  media: MediaView;
  /** False when the product already had the same file: that media, unchanged. */
  created: boolean;
}

type CheckedImage = { bytes: Buffer; image: DecodedImage };
type Placement = { sourceUrl: string | null; altText: string | null; position: number | undefined };

export interface MediaServiceDeps {
  db: Db;
  media: MediaRepository;
  products: ProductRepository;
  storage: MediaStorage;
  downloader: SafeDownloader;
  history: HistoryRepository;
}

export class MediaService {
  private readonly db: Db;
  private readonly media: MediaRepository;
  private readonly products: ProductRepository;
  private readonly storage: MediaStorage;
  private readonly downloader: SafeDownloader;
  private readonly history: HistoryRepository;
  private readonly fileBaseUrl: string;
  private readonly downloads: ConcurrencyGate;
  private readonly quotaBytes: number;

  constructor(deps: MediaServiceDeps, options: MediaServiceOptions) {
    ({ db: this.db, media: this.media, products: this.products, storage: this.storage, downloader: this.downloader, history: this.history } = deps);
    this.fileBaseUrl = `${options.publicUrl}/media/`;
    this.downloads = new ConcurrencyGate(options.downloadConcurrency, options.downloadConcurrency);
    this.quotaBytes = options.quotaBytes;
  }

  async list(organizationId: number, productId: number) {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    const media = (await this.media.listByProduct(organizationId, productId)).map((r) => this.view(r));
    return { product_id: productId, media, total: media.length };
  }

  async get(organizationId: number, productId: number, id: number): Promise<MediaView> {
    const found = await this.media.find(organizationId, productId, id);
    if (!found) throw notFound(`Media ${id} of product ${productId} not found`);
    return this.view(found);
  }

  /**
   * Downloads, checks and attaches an image. `created` is false when the product already has the same file (same
   * bytes): that media is returned unchanged and nothing is stored twice.
   */
  async add(organizationId: number, productId: number, input: MediaCreateInput, actor: Actor): Promise<AddedMedia> {
    // Nothing is downloaded for a product the caller cannot see.
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    const file = await this.withinLimit(async () => {
      const bytes = (await this.downloader.fetch(input.file_url)).bytes;
      return { bytes, image: await decodeImage(bytes) };
    }, 'file_url');
    return this.attach(organizationId, productId, file, { sourceUrl: input.file_url, altText: input.alt_text ?? null, position: input.position }, actor);
  }

  /**
   * Attaches an uploaded image (the console's drag and drop, POST /api/products/{id}/media/upload): checked and
   * stored as a downloaded one is, under the same limits; the same answers.
   */
  async upload(organizationId: number, productId: number, input: MediaUploadInput, actor: Actor): Promise<AddedMedia> {
    if (!(await this.products.exists(organizationId, productId))) throw notFound(`Product ${productId} not found`);
    const file = await this.withinLimit(async () => ({ bytes: input.bytes, image: await decodeImage(input.bytes) }), 'file');
    return this.attach(organizationId, productId, file, { sourceUrl: null, altText: input.alt_text ?? null, position: input.position }, actor);
  }

  private async attach(organizationId: number, productId: number, file: CheckedImage, place: Placement, actor: Actor): Promise<AddedMedia> {
    const { bytes, image } = file;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const key = mediaKey(sha256, image.mimeType);

    const attach = () =>
      this.db.transaction(async (tx) => {
        const repo = this.media.with(tx);
        if (!(await repo.lockProduct(organizationId, productId))) throw notFound(`Product ${productId} not found`);
        // Under the file lock, a concurrent delete of the file's last other reference cannot remove it between this
        // check and the insert. A missing file is (re)written, also for a duplicate.
        await repo.lockFile(key);
        // Under the organization's lock (lockProduct), so concurrent adds cannot both fit in the same room.
        if (this.quotaBytes > 0 && !(await repo.organizationHasFile(organizationId, key))) {
          const used = await repo.storedBytes(organizationId);
          if (used + bytes.length > this.quotaBytes) {
            throw badRequest(
              `Media storage quota exceeded: the organization stores ${formatBytes(used)} of its ${formatBytes(this.quotaBytes)}, ` +
                `and this file (${formatBytes(bytes.length)}) does not fit; delete media to make room`,
            );
          }
        }
        if (!(await this.storage.exists(key))) await this.storage.put(key, bytes);
        const existing = await repo.findBySha(productId, sha256);
        if (existing) return { id: existing.id, created: false };
        return this.history.with(tx).recording(organizationId, productId, actor, async () => {
          const count = await repo.countByProduct(productId);
          const position = place.position === undefined || place.position >= count ? count : place.position;
          if (position < count) await repo.makeRoomAt(productId, position);
          const id = await repo.insert({
            organizationId,
            productId,
            storageKey: key,
            sourceUrl: place.sourceUrl,
            altText: place.altText,
            position,
            mimeType: image.mimeType,
            width: image.width,
            height: image.height,
            sizeBytes: bytes.length,
            sha256,
            phash: image.phash,
          });
          await this.products.with(tx).touch(productId);
          return { id, created: true };
        });
      });

    let result: { id: number; created: boolean };
    try {
      result = await attach();
    } catch (err) {
      // The product row lock makes this unreachable in practice; should the unique index still win a race, the
      // answer is the same as for a duplicate.
      if (!isUniqueViolation(err, 'product_media_product_sha_uq')) throw err;
      const existing = await this.media.findBySha(productId, sha256);
      if (!existing) throw err;
      result = { id: existing.id, created: false };
    }
    return { media: await this.get(organizationId, productId, result.id), created: result.created };
  }

  /** PATCH: a new place among the product's media (the others close up) and/or alt text. */
  async update(organizationId: number, productId: number, id: number, input: MediaUpdateInput, actor: Actor) {
    await this.db.transaction(async (tx) => {
      const repo = this.media.with(tx);
      if (!(await repo.lockProduct(organizationId, productId))) throw notFound(`Product ${productId} not found`);
      const current = await repo.find(organizationId, productId, id);
      if (!current) throw notFound(`Media ${id} of product ${productId} not found`);
      await this.history.with(tx).recording(organizationId, productId, actor, async () => {
        if (input.position !== undefined) {
          const last = (await repo.countByProduct(productId)) - 1;
          await repo.move(productId, id, current.position, Math.min(input.position, last));
        }
        if (input.alt_text !== undefined) await repo.setAltText(id, input.alt_text);
        await this.products.with(tx).touch(productId);
      });
    });
    return this.get(organizationId, productId, id);
  }

  async delete(organizationId: number, productId: number, id: number, actor: Actor): Promise<void> {
    const storageKey = await this.db.transaction(async (tx) => {
      const repo = this.media.with(tx);
      if (!(await repo.lockProduct(organizationId, productId))) throw notFound(`Product ${productId} not found`);
      return this.history.with(tx).recording(organizationId, productId, actor, async () => {
        // Thrown inside the transaction, so a miss does not bump the product's updated_at.
        const deleted = await repo.delete(organizationId, productId, id);
        if (!deleted) throw notFound(`Media ${id} of product ${productId} not found`);
        await repo.closeGapAt(productId, deleted.position);
        await this.products.with(tx).touch(productId);
        return deleted.storageKey;
      });
    });
    await this.releaseFile(storageKey);
  }

  /** The stored file behind a public media URL; 404 for anything that is not a key of a stored file. */
  async openFile(key: string): Promise<StoredFile & { mimeType: string }> {
    const mimeType = mimeOfKey(key);
    const file = mimeType ? await this.storage.get(key) : null;
    if (!mimeType || !file) throw notFound('Media file not found');
    return { ...file, mimeType };
  }

  /**
   * The storage keys of the organization's media, read in the caller's transaction `tx`: what the admin API's deletion
   * of an organization collects under its lock on the organization's row, before the cascade (admin/admin.service.ts).
   */
  storageKeysOf(tx: Db, organizationId: number): Promise<string[]> {
    return this.media.with(tx).storageKeysOf(organizationId);
  }

  /** Removes the files no media row refers to any more, of those given (a deleted organization's). */
  async releaseFiles(storageKeys: string[]): Promise<void> {
    for (const key of storageKeys) await this.releaseFile(key);
  }

  /** Removes a stored file once no media row refers to it any more (media of other products may share it). */
  private async releaseFile(storageKey: string): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        const repo = this.media.with(tx);
        await repo.lockFile(storageKey);
        if (!(await repo.isReferenced(storageKey))) await this.storage.delete(storageKey);
      });
    } catch {
      // The media is already gone; a file left behind only costs disk space and is reused if the image comes back.
    }
  }

  /**
   * Download (or take) and decode, within the limit on decodes running at once: the memory-heavy part. A refused
   * download or an undecodable file is a 400 naming `field`.
   */
  private async withinLimit(read: () => Promise<CheckedImage>, field: 'file_url' | 'file'): Promise<CheckedImage> {
    try {
      return await this.downloads.run(read);
    } catch (err) {
      if (err instanceof DownloadError || err instanceof ImageDecodeError) throw badRequest(`${field}: ${err.message}`);
      if (err instanceof GateFullError) {
        throw new AppError('rate_limited', `Too many media downloads in progress; try again in ${BUSY_RETRY_SECONDS} s`, BUSY_RETRY_SECONDS);
      }
      throw err;
    }
  }

  private view(r: MediaRow): MediaView {
    return {
      id: r.id,
      product_id: r.product_id,
      url: this.fileBaseUrl + r.storage_key,
      alt_text: r.alt_text,
      position: r.position,
      mime_type: r.mime_type,
      width: r.width,
      height: r.height,
      size_bytes: r.size_bytes,
      created_at: r.created_at,
    };
  }
}
