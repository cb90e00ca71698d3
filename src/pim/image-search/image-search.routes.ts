import multipart from '@fastify/multipart';
import { pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { MULTIPART_OPTIONS, readSearchForm } from './image-search.form.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_DISTANCE, ImageSearchForm, ImageSearchQuery, ImageSearchResult, MAX_IMAGE_BYTES } from './image-search.schemas.js';
import type { ImageSearchService } from './image-search.service.js';

const tags = ['Products'];

/**
 * Registered in a scope of its own inside the PIM plugin: multipart/form-data is parsed on this route only (every other
 * PIM route answers 415 to it), while the PIM hooks (rate limit, API key) and error envelope still apply. Any other body
 * is left unread here, so that it gets the route's own 400 (not a JSON parse error or a 413 for a large one).
 */
export async function imageSearchRoutes(app: App, imageSearch: ImageSearchService): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  await app.register(multipart, MULTIPART_OPTIONS);

  app.post(
    '/api/products/image-search',
    {
      // The form is read by the route (readSearchForm), which names a missing or bad field in the envelope.
      config: { openapi: { body: { 'multipart/form-data': ImageSearchForm } } },
      schema: {
        tags,
        operationId: 'searchProductsByImage',
        summary: 'Find products by image',
        description:
          `multipart/form-data with one JPEG, PNG, WebP or GIF file (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB) in the field \`image\`; ` +
          '`max_distance` and `limit` may also be sent as form fields. Returns the products with an image whose 64-bit ' +
          `perceptual hash is within max_distance bits (default ${DEFAULT_MAX_DISTANCE}) of the upload's, each once with its closest ` +
          `image, closest first (then by product id), at most limit (default ${DEFAULT_LIMIT}) of them. ` +
          'Requires an API key (X-API-KEY) or a console session (it counts against the write rate limit); a missing, unreadable or oversized image, or a body that is not multipart, is a 400.',
        consumes: ['multipart/form-data'],
        querystring: ImageSearchQuery,
        response: pimResponses(200, ImageSearchResult),
      },
    },
    async (req) => ok(await imageSearch.search(req.pim.organizationId, await readSearchForm(req, req.query))),
  );
}
