// The import job's last step: the images its committed rows named, downloaded through the media service (its download
// slots shared with the API's uploads). A failed one becomes an error row of its product's line.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import type { MediaService } from '../media/media.service.js';
import type { ImportRepository, ImportRow, PendingImage } from './import.repository.js';
import { importActor } from './import-write.js';

/** Images downloaded at once: below MEDIA_DOWNLOAD_CONCURRENCY's default (8), leaving slots to the API. */
const IMAGES_AT_ONCE = 4;

export interface ImageDownloadDeps {
  db: Db;
  imports: ImportRepository;
  media: MediaService;
}

/**
 * Downloads the images the committed rows named (and their products' pending ones); a failed one becomes an error
 * row of its product's line, and its URL waits in pending_images for the product's next import.
 */
export async function downloadImages(deps: ImageDownloadDeps, imp: ImportRow, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const pending = await deps.imports.pendingImages(imp.id, IMAGES_AT_ONCE);
    if (pending.length === 0) return;
    // A product's images one after another, in the file's order: each goes to its position among those already
    // attached, so downloads finishing out of order cannot shuffle them. Different products' images run at once.
    const byProduct = new Map<number, PendingImage[]>();
    for (const image of pending) byProduct.set(image.product_id, [...(byProduct.get(image.product_id) ?? []), image]);
    await Promise.all(
      [...byProduct.values()].map(async (images) => {
        for (const image of images) await downloadImage(deps, imp, image, signal);
      }),
    );
  }
}

/** One image; while the process's download slots are all taken (API uploads too), it waits its turn. */
async function downloadImage(deps: ImageDownloadDeps, imp: ImportRow, image: PendingImage, signal?: AbortSignal): Promise<void> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      await deps.media.add(
        imp.organization_id,
        image.product_id,
        { file_url: image.url, position: image.position, alt_text: image.alt_text },
        importActor(imp),
      );
      break;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.kind === 'rate_limited') {
        await sleep((err.retryAfterSeconds ?? 1) * 1000);
        continue;
      }
      const reason = `image ${image.url}: ${err.message.replace(/^file_url: /, '')}; the URL is kept and tried again at the product's next import`;
      await deps.db.transaction((tx) => deps.imports.with(tx).imageFailed(imp.id, imp.organization_id, image, reason));
      return;
    }
  }
  await deps.db.transaction((tx) => deps.imports.with(tx).imageDone(imp.id, image));
}
