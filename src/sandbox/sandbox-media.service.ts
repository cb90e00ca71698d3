// The media lifecycle, as Shopify runs it: "The image processing is handled asynchronously, so images might not be
// immediately available after upload. The `status` field indicates when processing is complete" (schema 2026-10,
// MediaImage description; https://shopify.dev/docs/apps/build/online-store/product-media). A media made from
// `originalSource` is committed UPLOADED; after the commit this process fetches the source itself (a small queue, a few
// at a time), marks it PROCESSING, then READY with its own copy of the bytes, or FAILED with a MediaErrorCode.
// Restart-safe: nothing lives only in memory. Media left UPLOADED/PROCESSING by a process that died are fetched again at
// start and when their product's media are read (two processes fetching one media write the same outcome).
//
// Where it fetches from, as Shopify: its servers fetch `originalSource` ("An external URL can be used for images",
// FileSetInput.originalSource, schema 2026-10; "An external URL (for images only) or a staged upload URL",
// https://shopify.dev/docs/api/admin-graphql/latest/input-objects/FileCreateInput) from the internet, so an address
// that is not public (loopback, private, link-local such as cloud metadata) never answers them. The sandbox refuses
// those too, with the bridge's own address rule (lib/address-policy.ts), or a product pushed with an image at
// http://127.0.0.1/… would make this server request it (SSRF), and the bridge could rely on the sandbox fetching what a
// real shop cannot. A store's `allow_private_media_sources` setting lifts it, for tests whose images are on a local
// server (docs/sandbox/media.md).
import { anyAddress, publicAddressesOnly } from '../lib/address-policy.js';
import { loadSharp } from '../lib/sharp.js';
import { AddressRefusedError, DownloadError, SafeDownloader } from '../lib/safe-download.js';
import type { MediaRow } from './sandbox-product.repository.js';
import type { MediaFile, SandboxMediaRepository } from './sandbox-media.repository.js';

/**
 * The MediaErrorCode values the sandbox answers, each with the schema's own description (schema 2026-10, MediaErrorCode),
 * which is the error's `message`; `details` says what the sandbox saw.
 */
export const MEDIA_ERRORS = {
  IMAGE_DOWNLOAD_FAILURE: 'Media could not be processed because the image could not be downloaded.',
  UNSUPPORTED_IMAGE_FILE_TYPE: 'Media could not be created because the image is an unsupported file type.',
  INVALID_IMAGE_FILE_SIZE: 'Media could not be created because the image size is too large.',
  INVALID_IMAGE_RESOLUTION: "Media could not be created because the image's resolution exceeds the max limit.",
} as const;
export type MediaErrorCode = keyof typeof MEDIA_ERRORS;

/**
 * Formats Shopify takes as a MediaImage: "PNG, GIF, or JPG" (https://shopify.dev/docs/apps/build/online-store/product-media),
 * and WEBP, which Shopify's admin takes and its CDN serves. The type is judged from the bytes, not the server's header:
 * "If omitted, then Shopify will attempt to determine the content type during file processing" (schema 2026-10,
 * FileSetInput.contentType).
 */
const FORMATS: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/** "The maximum image size is 4472 x 4472 px, or 20 megapixels" (https://shopify.dev/docs/apps/build/online-store/product-media). */
export const MAX_MEGAPIXELS = 20;

export interface SandboxMediaOptions {
  /** Downloads at once (default 4). */
  concurrency?: number;
  /** Largest file (default 20 MB, Shopify's limit for an image file, help.shopify.com "Product media types"); download deadline (default 20 s). */
  maxBytes?: number;
  timeoutMs?: number;
}

type Outcome = { ok: true; bytes: Buffer; mimeType: string } | { ok: false; code: MediaErrorCode; details: string };

export class SandboxMediaService {
  private readonly repo: SandboxMediaRepository;
  /** Public addresses only, as Shopify's servers; and every address, for the stores that allow it (tests). */
  private readonly downloader: SafeDownloader;
  private readonly privateDownloader: SafeDownloader;
  private readonly concurrency: number;
  private resumed: Promise<void> | null = null;
  private readonly queue: number[] = [];
  /** Media queued or being processed by this process. */
  private readonly known = new Set<number>();
  private readonly writes = new Set<Promise<unknown>>();
  private active = 0;
  private closed = false;
  private log: { error(obj: unknown, msg: string): void } = { error: () => {} };

  constructor(repo: SandboxMediaRepository, options: SandboxMediaOptions = {}) {
    this.repo = repo;
    this.concurrency = options.concurrency ?? 4;
    const download = {
      maxBytes: options.maxBytes ?? 20 * 1024 * 1024,
      timeoutMs: options.timeoutMs ?? 20_000,
      userAgent: 'Pimbridge-sandbox-media/0.1',
    };
    this.downloader = new SafeDownloader({ ...download, addressPolicy: publicAddressesOnly });
    this.privateDownloader = new SafeDownloader({ ...download, addressPolicy: anyAddress });
  }

  setLogger(log: { error(obj: unknown, msg: string): void }): void {
    this.log = log;
  }

  /** New media were committed: fetch them (never inside the transaction that made them). */
  accepted(ids: number[]): void {
    if (!ids.length) return;
    void this.resume();
    for (const id of ids) this.enqueue(id);
  }

  /** Once per process: media a dead process left unfinished are fetched again (sandbox start, first use). */
  resume(): Promise<void> {
    return (this.resumed ??= (async () => {
      for (const id of await this.repo.unfinished(100_000)) this.enqueue(id);
    })().catch((err) => {
      this.resumed = null;
      this.log.error({ err }, 'sandbox media: resuming unfinished media failed');
    }));
  }

  /** Reading a product's media: unfinished rows no one here works on are fetched again (their process died). */
  resumeUnfinished(rows: MediaRow[]): void {
    const unfinished = rows.filter((r) => r.status === 'UPLOADED' || r.status === 'PROCESSING');
    if (!unfinished.length) return;
    void this.resume();
    for (const r of unfinished) this.enqueue(r.id);
  }

  /** A READY media's bytes for the CDN route; null otherwise. */
  file(storeId: number, id: number, filename: string): Promise<MediaFile | null> {
    return this.repo.file(storeId, id, filename);
  }

  /**
   * Server shutdown: nothing new starts; downloads in flight are abandoned (their media stay PROCESSING and are taken
   * again at the next start), writes already sent finish before the database closes.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await Promise.allSettled([...this.writes]);
  }

  private enqueue(id: number): void {
    if (this.closed || this.known.has(id)) return;
    this.known.add(id);
    this.queue.push(id);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.active < this.concurrency && this.queue.length) {
      const id = this.queue.shift()!;
      this.active++;
      void this.process(id)
        .catch((err) => this.log.error({ err, mediaId: id }, 'sandbox media processing failed'))
        .finally(() => {
          this.active--;
          this.known.delete(id);
          this.pump();
        });
    }
  }

  private async process(id: number): Promise<void> {
    const claimed = await this.write(() => this.repo.claim(id));
    if (claimed === null || this.closed) return;
    const outcome = await this.fetchImage(claimed.source, claimed.allowPrivate ? this.privateDownloader : this.downloader);
    if (this.closed) return; // left PROCESSING: taken again at the next start
    await this.write(() => (outcome.ok ? this.repo.ready(id, outcome.bytes, outcome.mimeType) : this.repo.failed(id, outcome.code, outcome.details)));
  }

  /** A database write that shutdown waits for. */
  private write<T>(run: () => Promise<T>): Promise<T> {
    const p = run();
    this.writes.add(p);
    void p.finally(() => this.writes.delete(p)).catch(() => {});
    return p;
  }

  private async fetchImage(source: string, downloader: SafeDownloader): Promise<Outcome> {
    let bytes: Buffer;
    try {
      bytes = (await downloader.fetch(source)).bytes;
    } catch (err) {
      // A refused address names the rule (not the address a name resolved to) and the store setting that lifts it.
      const details =
        err instanceof AddressRefusedError
          ? `${err.message}: a shop fetches images from public addresses only (this sandbox store's allow_private_media_sources lifts it)`
          : err instanceof DownloadError
            ? err.message
            : 'the download failed';
      // SafeDownloader's size refusal ("download exceeded 20 MB"): MediaErrorCode.INVALID_IMAGE_FILE_SIZE, "the image
      // size is too large"; any other (unreachable, an HTTP error status, a timeout): IMAGE_DOWNLOAD_FAILURE, "the image
      // could not be downloaded" (schema 2026-10, MediaErrorCode).
      return { ok: false, code: details.startsWith('download exceeded') ? 'INVALID_IMAGE_FILE_SIZE' : 'IMAGE_DOWNLOAD_FAILURE', details };
    }
    const sharp = await loadSharp();
    let format: string | undefined;
    let width = 0;
    let height = 0;
    try {
      ({ format, width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata());
    } catch {
      format = undefined;
    }
    const mimeType = format ? FORMATS[format] : undefined;
    // Not an image of a format Shopify takes: UNSUPPORTED_IMAGE_FILE_TYPE, "the image is an unsupported file type".
    if (!mimeType || !width || !height) {
      return { ok: false, code: 'UNSUPPORTED_IMAGE_FILE_TYPE', details: `the file is not a PNG, GIF, JPG or WEBP image` };
    }
    // INVALID_IMAGE_RESOLUTION, "the image's resolution exceeds the max limit" (20 megapixels, see MAX_MEGAPIXELS).
    if (width * height > MAX_MEGAPIXELS * 1_000_000) {
      return { ok: false, code: 'INVALID_IMAGE_RESOLUTION', details: `${width} x ${height} px is more than ${MAX_MEGAPIXELS} megapixels` };
    }
    return { ok: true, bytes, mimeType };
  }
}
