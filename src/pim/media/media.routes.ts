import { Type } from '@sinclair/typebox';
import { IdParams, pimOk, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { actorOf } from '../history/actor.js';
import { MEDIA_EXTENSIONS } from './storage.js';
import { Media, MediaCreate, MediaFileParams, MediaList, MediaParams, MediaUpdate } from './media.schemas.js';
import type { MediaService } from './media.service.js';

const tags = ['Media'];

/** The PIM routes (X-API-KEY, envelope): a product's media. */
export function mediaRoutes(app: App, media: MediaService): void {
  readRoutes(app, media);
  writeRoutes(app, media);
}

/** Reading a product's media: the list, one. */
function readRoutes(app: App, media: MediaService): void {
  app.get(
    '/api/products/:id/media',
    {
      schema: {
        tags,
        operationId: 'listProductMedia',
        summary: "List a product's media by position",
        description:
          'Returns {product_id, media, total}, ordered by position. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product.',
        params: IdParams,
        response: pimResponses(200, MediaList),
      },
    },
    async (req) => ok(await media.list(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/products/:id/media/:mediaId',
    {
      schema: {
        tags,
        operationId: 'getProductMedia',
        summary: 'Get one media of a product',
        description: 'Returns one media of the product. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or media.',
        params: MediaParams,
        response: pimResponses(200, Media),
      },
    },
    async (req) => ok(await media.get(req.pim.organizationId, req.params.id, req.params.mediaId)),
  );
}

/** Adding (an upload or a URL), changing and deleting a product's media. */
function writeRoutes(app: App, media: MediaService): void {
  app.post(
    '/api/products/:id/media',
    {
      schema: {
        tags,
        operationId: 'addProductMedia',
        summary: 'Attach an image to a product from a URL',
        description:
          'Body {file_url, alt_text?, position?}: downloads the image (public http(s) addresses only, at most 20 MB, JPEG, PNG, WebP or GIF) and answers 201 with the new media, or 200 with the existing media, unchanged, when the product already has the same file. A position inserts it there, otherwise it is appended. Requires an API key (X-API-KEY) or a console session; 400 for a refused download or a full storage quota, 404 for an unknown product, 429 when too many downloads are in progress.',
        params: IdParams,
        body: MediaCreate,
        response: { ...pimResponses(201, Media), 200: pimOk(Media) },
      },
    },
    async (req, reply) => {
      const { media: created, created: isNew } = await media.add(req.pim.organizationId, req.params.id, req.body, actorOf(req.pim));
      reply.code(isNew ? 201 : 200);
      return ok(created);
    },
  );

  app.patch(
    '/api/products/:id/media/:mediaId',
    {
      schema: {
        tags,
        operationId: 'updateProductMedia',
        summary: 'Move a media or change its alt text',
        description:
          "Body position and/or alt_text: a new position moves the media to that place among the product's media, and the others close up. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or media, 400 for an invalid field.",
        params: MediaParams,
        body: MediaUpdate,
        response: pimResponses(200, Media),
      },
    },
    async (req) => ok(await media.update(req.pim.organizationId, req.params.id, req.params.mediaId, req.body, actorOf(req.pim))),
  );

  app.delete(
    '/api/products/:id/media/:mediaId',
    {
      schema: {
        tags,
        operationId: 'deleteProductMedia',
        summary: 'Remove a media from a product',
        description:
          'Removes the media; the others close up, and the stored file is deleted once no media uses it. Requires an API key (X-API-KEY) or a console session; 404 for an unknown product or media.',
        params: MediaParams,
        response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })),
      },
    },
    async (req) => {
      await media.delete(req.pim.organizationId, req.params.id, req.params.mediaId, actorOf(req.pim));
      return ok({ deleted: true });
    },
  );
}

/** One year: a key names fixed content (its sha256), so a cached copy never goes stale. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The public file route, outside the PIM scope: no API key (storefronts such as Shopify fetch product images by URL),
 * no rate limit. Only keys of the exact form `<sha256>.<ext>` are looked up; anything else is 404.
 */
export function mediaFileRoutes(app: App, media: MediaService): void {
  app.get(
    '/media/:key',
    {
      config: {
        openapi: {
          responses: {
            200: {
              description: 'The file, with a year-long immutable Cache-Control and its ETag',
              content: Object.fromEntries(Object.keys(MEDIA_EXTENSIONS).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
              headers: { ETag: { description: 'The key: send it back in If-None-Match', schema: { type: 'string' } } },
            },
            304: { description: 'Not modified: the ETag matched' },
          },
        },
      },
      schema: {
        tags,
        security: [],
        operationId: 'getMediaFile',
        summary: 'Get a stored media file',
        description:
          'Serves a stored file by its content-addressed key (`<sha256>.<ext>`), the URL found in product images. Public (no API key, no rate limit) so that storefronts can fetch images, and cacheable forever: it carries an ETag, and If-None-Match answers 304. 404 for an unknown or malformed key.',
        params: MediaFileParams,
      },
    },
    async (req, reply) => {
      const file = await media.openFile(req.params.key);
      const etag = `"${req.params.key.slice(0, 64)}"`;
      reply
        .header('Content-Type', file.mimeType)
        .header('Cache-Control', CACHE_CONTROL)
        .header('ETag', etag)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'")
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (req.headers['if-none-match'] === etag) {
        file.stream.destroy();
        return reply.code(304).send();
      }
      reply.header('Content-Length', String(file.size));
      return reply.send(file.stream);
    },
  );
}
