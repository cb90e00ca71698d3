import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.js';
import type { App } from '../../http/app-type.js';
import { actorOf } from '../history/actor.js';
import { type ImageForm, imageFormLimits, readImageForm } from '../image-form.js';
import { IdParams, pimOk, pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import { MAX_ALT_TEXT, MAX_POSITION, Media } from './media.schemas.js';
import type { MediaService, MediaUploadInput } from './media.service.js';
import { DEFAULT_MAX_BYTES } from '../../lib/safe-download.js';

const FILE_FIELD = 'file';
const FORM: ImageForm<'alt_text' | 'position'> = {
  fileField: FILE_FIELD,
  // The same bound as an image downloaded by URL.
  maxFileBytes: DEFAULT_MAX_BYTES,
  fields: {
    alt_text: { message: `must be at most ${MAX_ALT_TEXT} characters` },
    position: { message: `must be an integer from 0 to ${MAX_POSITION}` },
  },
  // MAX_ALT_TEXT characters of up to 4 bytes each.
  maxFieldBytes: MAX_ALT_TEXT * 4,
};

/** The form, for the OpenAPI document only (read by readImageForm, which applies these rules; see image-search.schemas.ts). */
const MediaUploadForm = {
  type: 'object',
  properties: {
    [FILE_FIELD]: { type: 'string', format: 'binary', description: `a JPEG, PNG, WebP or GIF file of at most ${DEFAULT_MAX_BYTES / 1024 / 1024} MB` },
    alt_text: { type: 'string', maxLength: MAX_ALT_TEXT },
    position: { type: 'integer', minimum: 0, maximum: MAX_POSITION, description: 'where to insert (0 = first); absent or past the end: appended' },
  },
  required: [FILE_FIELD],
};

async function readUpload(req: FastifyRequest): Promise<MediaUploadInput> {
  const { image, fields } = await readImageForm(req, FORM);
  const alt = fields.alt_text?.trim();
  if (alt !== undefined && [...alt].length > MAX_ALT_TEXT) throw badRequest(`field 'alt_text' ${FORM.fields.alt_text.message}`);
  let position: number | undefined;
  if (fields.position !== undefined) {
    position = /^\d{1,6}$/.test(fields.position.trim()) ? Number(fields.position) : NaN;
    if (!(position <= MAX_POSITION)) throw badRequest(`field 'position' ${FORM.fields.position.message}`);
  }
  return { bytes: image, alt_text: alt || null, position };
}

/**
 * An image sent with the request rather than named by URL (the console's drag and drop). Registered in a scope of its
 * own, as the image search is: multipart/form-data is parsed on this route only, under the PIM's hooks and envelope.
 */
export async function mediaUploadRoutes(app: App, media: MediaService): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  await app.register(multipart, imageFormLimits(FORM));

  app.post(
    '/api/products/:id/media/upload',
    {
      config: { openapi: { body: { 'multipart/form-data': MediaUploadForm } } },
      schema: {
        tags: ['Media'],
        operationId: 'uploadProductMedia',
        summary: 'Attach an uploaded image to a product',
        description:
          `multipart/form-data with one JPEG, PNG, WebP or GIF file (at most ${DEFAULT_MAX_BYTES / 1024 / 1024} MB) in the field \`file\`, ` +
          'and optional `alt_text` and `position` fields. Checked, stored and answered as POST /api/products/{id}/media is: 201 with the new ' +
          'media, or 200 with the existing media, unchanged, when the product already has the same file. Requires an API key (X-API-KEY) or a ' +
          'console session; 400 for a missing, unreadable or oversized file, a bad field or a full storage quota, 404 for an unknown product, ' +
          '429 when too many images are being processed.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { ...pimResponses(201, Media), 200: pimOk(Media) },
      },
    },
    async (req, reply) => {
      const { media: added, created } = await media.upload(req.pim.organizationId, req.params.id, await readUpload(req), actorOf(req.pim));
      reply.code(created ? 201 : 200);
      return ok(added);
    },
  );
}
