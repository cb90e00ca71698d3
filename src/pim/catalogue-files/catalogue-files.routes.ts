import multipart from '@fastify/multipart';
import { Readable } from 'node:stream';
import { pimResponses } from '../pim.schemas.js';
import { ok } from '../pim.types.js';
import type { App } from '../../http/app-type.js';
import { fileAnswer, NO_BODY } from '../../http/route-docs.js';
import { ExportQuery, ImportErrorsPage, ImportErrorsQuery, ImportParams, ImportQuery, ImportView } from './catalogue-files.schemas.js';
import type { ExportService } from './export.service.js';
import { readImportUpload } from './import-upload.js';
import type { ImportService } from './import.service.js';
import type { ImportStarter } from './import.repository.js';
import type { FastifyRequest } from 'fastify';

const tags = ['Catalogue files'];

/** The connector's adoption names itself in this header; the key is what is trusted, the header only labels the import. */
const SOURCE_HEADER = 'x-pimbridge-source';

const starterOf = (req: FastifyRequest): ImportStarter => ({
  keyId: req.pim.keyId,
  source: req.headers[SOURCE_HEADER] === 'shop-adoption' ? 'adoption' : 'import',
});

/** The upload, read by the route itself (readImportUpload): one CSV file in the field `file`. */
const ImportForm = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary', description: "a CSV file: our format or Shopify's product CSV (UTF-8)" } },
  required: ['file'],
};

interface CatalogueFileDeps {
  imports: ImportService;
  exports: ExportService;
  maxBytes: number;
}

/**
 * In a scope of its own inside the PIM plugin (like image search): multipart/form-data is parsed here only, while the
 * PIM hooks (rate limit, API key) and envelope apply.
 */
export async function catalogueFileRoutes(app: App, deps: CatalogueFileDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  await app.register(multipart, { limits: { files: 1, fileSize: deps.maxBytes, fields: 0, parts: 1, headerPairs: 20 } });

  importRoutes(app, deps);
  importFollowUpRoutes(app, deps);
  exportRoutes(app, deps);
}

/** Imports: a CSV file uploaded (or dry-run), its progress, its failed rows. */
function importRoutes(app: App, deps: CatalogueFileDeps): void {
  app.post(
    '/api/imports',
    {
      config: { openapi: { body: { 'multipart/form-data': ImportForm } } },
      schema: {
        tags,
        operationId: 'createImport',
        summary: 'Import products from a CSV file',
        description:
          "multipart/form-data with the CSV file in the field `file`: our format or Shopify's product CSV (docs/csv-formats.md); dry_run=true checks the whole file and reports, writing nothing. " +
          'The file is checked (UTF-8, a known header, at least one row, the size limit) before the answer, 202 with the import to poll; its rows are then imported in the background. ' +
          "Products are matched within the organization by SKU (a Shopify file's by handle): a second import of the same file changes nothing. The products' history names the import (its file name and the key); the connector's adoption sends X-Pimbridge-Source: shop-adoption, and its imports are named adoptions. " +
          'Requires an API key (X-API-KEY) or a console session; a file that fails the check is a 400 naming the reason.',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        response: pimResponses(202, ImportView),
      },
    },
    async (req, reply) => {
      const view = await readImportUpload(req, deps.maxBytes, (upload) =>
        deps.imports.create(req.pim.organizationId, upload, { format: req.query.format, dryRun: req.query.dry_run, startedBy: starterOf(req) }),
      );
      reply.code(202);
      return ok(view);
    },
  );

  app.get(
    '/api/imports/:id',
    {
      schema: {
        tags,
        operationId: 'getImport',
        summary: "Get an import's state and counts",
        description:
          "Returns an import's state (queued, running, completed or failed), format, whether it is a dry run, its row counts (created, updated, unchanged, failed) and the images that could not be downloaded. Requires an API key (X-API-KEY) or a console session; 404 for an unknown import or one of another organization.",
        params: ImportParams,
        response: pimResponses(200, ImportView),
      },
    },
    async (req) => ok(await deps.imports.get(req.pim.organizationId, req.params.id)),
  );

  app.get(
    '/api/imports/:id/errors.csv',
    {
      config: { openapi: { responses: { 200: fileAnswer('The failed rows: line, sku, reason', 'text/csv') } } },
      schema: {
        tags,
        operationId: 'getImportErrorsCsv',
        summary: "An import's failed rows as CSV",
        description:
          "Downloads an import's refused rows as a CSV attachment with the columns line, sku and reason, in the order found, plus the images that could not be downloaded on their product's line. Requires an API key (X-API-KEY) or a console session; 404 for an unknown import.",
        params: ImportParams,
        produces: ['text/csv'],
      },
    },
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
}

/** An import's refused rows, a page at a time (what the console's import page lists), and "import now" after a check. */
function importFollowUpRoutes(app: App, deps: CatalogueFileDeps): void {
  app.post(
    '/api/imports/:id/import',
    {
      config: { openapi: NO_BODY },
      schema: {
        tags,
        operationId: 'importCheckedFile',
        summary: 'Import the file a dry run checked',
        description:
          'After a dry run has finished: imports the same file for real, without uploading it again, as a new import (202, its id to follow with GET /api/imports/{id}). A checked file is kept for a day and imported once. Requires an API key (X-API-KEY) or a console session; 400 when the import is not a finished dry run or its file is no longer kept, 404 for an unknown import.',
        params: ImportParams,
        response: pimResponses(202, ImportView),
      },
    },
    async (req, reply) => {
      reply.code(202);
      return ok(await deps.imports.importChecked(req.pim.organizationId, req.params.id, starterOf(req)));
    },
  );

  app.get(
    '/api/imports/:id/errors',
    {
      schema: {
        tags,
        operationId: 'listImportErrors',
        summary: "A page of an import's failed rows",
        description:
          "Returns {errors: [{line, sku, reason}], next_after}: the refused rows (and the images that could not be downloaded, on their product's line) in the order found, limit at a time (1-200, default 50) from `after` (the previous page's next_after; null on the last page). Requires an API key (X-API-KEY) or a console session; 404 for an unknown import.",
        params: ImportParams,
        querystring: ImportErrorsQuery,
        response: pimResponses(200, ImportErrorsPage),
      },
    },
    async (req) => ok(await deps.imports.errorPage(req.pim.organizationId, req.params.id, req.query.after, req.query.limit)),
  );
}

/** The catalogue as a CSV file, in our format or Shopify's. */
function exportRoutes(app: App, deps: CatalogueFileDeps): void {
  app.get(
    '/api/exports/products.csv',
    {
      config: { openapi: { responses: { 200: fileAnswer('The products as CSV, in the format asked for', 'text/csv') } } },
      schema: {
        tags,
        operationId: 'exportProductsCsv',
        summary: 'Export products as CSV',
        description:
          "Streams the organization's catalogue as a CSV attachment, in Pimbridge's format (format=ours, the default) or Shopify's product CSV (format=shopify), filtered like the product list by search, status, brand, channel and category. Requires an API key (X-API-KEY) or a console session; 400 for an invalid query parameter.",
        querystring: ExportQuery,
        produces: ['text/csv'],
      },
    },
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
