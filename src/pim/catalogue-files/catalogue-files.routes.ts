import multipart from '@fastify/multipart';
import { Readable } from 'node:stream';
import { pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../server/kernel/app-type.js';
import { ExportQuery, ImportParams, ImportQuery, ImportView } from './catalogue-files.schemas.js';
import type { ExportService } from './export.service.js';
import { readImportUpload } from './import-upload.js';
import type { ImportService } from './import.service.js';

const tags = ['Catalogue files'];

/**
 * In a scope of its own inside the PIM plugin (like image search): multipart/form-data is parsed here only, while the
 * PIM hooks (rate limit, API key) and envelope apply.
 */
export async function catalogueFileRoutes(app: App, deps: { imports: ImportService; exports: ExportService; maxBytes: number }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  await app.register(multipart, { limits: { files: 1, fileSize: deps.maxBytes, fields: 0, parts: 1, headerPairs: 20 } });

  app.post(
    '/api/imports',
    {
      schema: {
        tags,
        summary: 'Import products from a CSV file',
        description:
          "multipart/form-data with the CSV file in the field `file`: our format or Shopify's product CSV (docs/csv-formats.md). " +
          'The file is checked (UTF-8, a known header, at least one row) before the answer; its rows are then imported by a job. ' +
          'Products are matched by SKU within the organization: a second import of the same file changes nothing.',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        response: pimResponses(202, ImportView),
      },
    },
    async (req, reply) => {
      const view = await readImportUpload(req, deps.maxBytes, (upload) =>
        deps.imports.create(req.pim.organizationId, upload, { format: req.query.format, dryRun: req.query.dry_run }),
      );
      reply.code(202);
      return ok(view);
    },
  );

  app.get(
    '/api/imports/:id',
    { schema: { tags, summary: 'Where an import stands', params: ImportParams, response: pimResponses(200, ImportView) } },
    async (req) => ok(await deps.imports.get(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/imports/:id/errors.csv',
    { schema: { tags, summary: "An import's failed rows (line, sku, reason) as CSV", params: ImportParams, produces: ['text/csv'] } },
    async (req, reply) => {
      const rows = deps.imports.errorsCsv(req.pim.organizationId, req.params.id);
      // The first chunk is awaited here, so an unknown import is a 404 in the envelope, not a broken stream.
      const first = await rows.next();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${req.params.id}-errors.csv"`)
        .send(Readable.from(prepend(first, rows)));
    },
  );

  app.get(
    '/api/exports/products.csv',
    { schema: { tags, summary: 'Export products as CSV (streamed)', querystring: ExportQuery, produces: ['text/csv'] } },
    async (req, reply) => {
      const { format = 'ours', search, status, brand, channel, category } = req.query;
      const rows = deps.exports.productsCsv(req.pim.organizationId, format, {
        search: search?.trim() || undefined,
        status,
        brandId: brand,
        channel,
        categoryId: category,
      });
      const first = await rows.next();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${format}.csv"`)
        .send(Readable.from(prepend(first, rows)));
    },
  );
}

async function* prepend<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
