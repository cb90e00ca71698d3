import { Type } from '@sinclair/typebox';
import { IdParams, pimOk, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { Media, MediaCreate, MediaFileParams, MediaList, MediaParams, MediaUpdate } from './media.schemas.js';
import type { MediaService } from './media.service.js';

const tags = ['Media'];

/** The PIM routes (X-API-KEY, envelope): a product's media. */
export function mediaRoutes(app: App, media: MediaService): void {
  app.get(
    '/api/products/:id/media',
    { schema: { tags, summary: "List a product's media by position", params: IdParams, response: pimResponses(200, MediaList) } },
    async (req) => ok(await media.list(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/products/:id/media/:mediaId',
    { schema: { tags, summary: 'Get one media of a product', params: MediaParams, response: pimResponses(200, Media) } },
    async (req) => ok(await media.get(req.pim.organizationId, req.params.id, req.params.mediaId)),
  );

  app.post(
    '/api/products/:id/media',
    {
      schema: {
        tags,
        summary: 'Download an image from file_url and attach it (201; 200 with the existing media when the product already has the same file)',
        params: IdParams,
        body: MediaCreate,
        response: { ...pimResponses(201, Media), 200: pimOk(Media) },
      },
    },
    async (req, reply) => {
      const { media: created, created: isNew } = await media.add(req.pim.organizationId, req.params.id, req.body);
      reply.code(isNew ? 201 : 200);
      return ok(created);
    },
  );

  app.patch(
    '/api/products/:id/media/:mediaId',
    {
      schema: {
        tags,
        summary: "Move a media to another place among the product's media (the others close up) or change its alt text",
        params: MediaParams,
        body: MediaUpdate,
        response: pimResponses(200, Media),
      },
    },
    async (req) => ok(await media.update(req.pim.organizationId, req.params.id, req.params.mediaId, req.body)),
  );

  app.delete(
    '/api/products/:id/media/:mediaId',
    { schema: { tags, summary: 'Remove a media from a product', params: MediaParams, response: pimResponses(200, Type.Object({ deleted: Type.Boolean() })) } },
    async (req) => {
      await media.delete(req.pim.organizationId, req.params.id, req.params.mediaId);
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
      schema: {
        tags,
        security: [],
        summary: 'A stored media file (public, cacheable forever)',
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
