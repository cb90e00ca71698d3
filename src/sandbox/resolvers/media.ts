// A product's media as GraphQL objects. Shopify answers its own CDN URL, never the URL it was sent ("The MediaImage
// object represents an image hosted on Shopify's content delivery network", schema 2026-10), ending with the file's
// name: the sandbox's is `{base}/cdn/files/{id}/{filename}` (served by media.routes.ts once the media is READY).
import { MEDIA_ERRORS, type MediaErrorCode } from '../sandbox-media.service.js';
import { gid } from '../gid.js';
import type { MediaRow } from '../sandbox-product.repository.js';
import { dateTime } from './connection.js';
import type { SandboxContext } from './types.js';

/** The URL the sandbox serves a media's file at. */
export function mediaUrl(row: Pick<MediaRow, 'id' | 'filename'>, ctx: SandboxContext): string {
  const base = ctx.baseUrl ?? `https://${ctx.store.domain}`;
  return `${base}/cdn/files/${row.id}/${encodeURIComponent(row.filename ?? 'file')}`;
}

export function mediaObject(row: MediaRow, ctx: SandboxContext): Record<string, unknown> {
  // MediaImage.image and MediaPreviewImage.image: "Returns `null` until `status` is `READY`" (schema 2026-10); the
  // original's URL too (MediaImageOriginalSource.url is nullable): before then there is no file to point to.
  const url = row.status === 'READY' ? mediaUrl(row, ctx) : null;
  const image =
    url === null ? null : { __typename: 'Image', id: gid('ImageSource', row.id), url, src: url, originalSrc: url, altText: row.alt, width: null, height: null };
  // Media.mediaErrors: "Any errors which have occurred on the media" (schema 2026-10): the one that made it FAILED,
  // `message` the code's own description, `details` what the sandbox saw. FileErrorCode has the same values.
  const code = row.errorCode;
  const errors =
    row.status === 'FAILED' && code !== null
      ? [{ code, message: MEDIA_ERRORS[code as MediaErrorCode] ?? 'Media error has occured for unknown reason.', details: row.errorMessage }]
      : [];
  return {
    __typename: 'MediaImage',
    id: gid('MediaImage', row.id),
    alt: row.alt,
    status: row.status,
    // FileStatus and MediaPreviewImageStatus have MediaStatus's values: UPLOADED, PROCESSING, READY, FAILED.
    fileStatus: row.status,
    mediaContentType: 'IMAGE',
    mimeType: row.mimeType,
    image,
    preview: { image, status: row.status },
    originalSource: { url, fileSize: row.fileSize },
    mediaErrors: errors,
    mediaWarnings: [],
    fileErrors: errors,
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.createdAt),
  };
}
