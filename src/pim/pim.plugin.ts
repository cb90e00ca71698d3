// The PIM core API: per-IP rate limits (reads and writes counted apart), X-API-KEY auth, the {status, data, error}
// envelope for every answer, and the resource routes. Hooks and the error handler apply to these routes only.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import '../http/console-session.js';
import { SESSION_ENDED } from './session/session.routes.js';
import { AppError, classifyError, UNSUPPORTED_MEDIA_TYPE } from '../http/errors.js';
import { retryAfterSeconds, type RateLimiter } from '../lib/rate-limiter.js';
import { attributeRoutes } from './attributes/attribute.routes.js';
import type { AttributeService } from './attributes/attribute.service.js';
import type { ApiKeyAuthService } from './auth/api-key-auth.service.js';
import { categoryRoutes } from './categories/category.routes.js';
import type { CategoryService } from './categories/category.service.js';
import { channelRoutes } from './channels/channel.routes.js';
import { completenessRoutes } from './completeness/completeness.routes.js';
import type { CompletenessService } from './completeness/completeness.service.js';
import { organizationRoutes } from './organization/organization.routes.js';
import type { OrganizationSettingsRepository } from './organization/organization.repository.js';
import { catalogueFileRoutes } from './catalogue-files/catalogue-files.routes.js';
import type { ExportService } from './catalogue-files/export.service.js';
import type { ImportService } from './catalogue-files/import.service.js';
import { imageSearchRoutes } from './image-search/image-search.routes.js';
import type { ImageSearchService } from './image-search/image-search.service.js';
import type { ChannelService } from './channels/channel.service.js';
import { historyRoutes } from './history/history.routes.js';
import type { HistoryService } from './history/history.service.js';
import { mediaRoutes } from './media/media.routes.js';
import { mediaUploadRoutes } from './media/media-upload.routes.js';
import { optionMatrixRoutes } from './variants/option-matrix.routes.js';
import type { MediaService } from './media/media.service.js';
import { pimResponses } from './pim.schemas.js';
import { ok } from './pim.types.js';
import type { App } from '../http/app-type.js';
import { productRoutes } from './products/product.routes.js';
import { workbenchRoutes, type WorkbenchServices } from './workbench/workbench.routes.js';
import type { ProductService } from './products/product.service.js';
import { referenceRoutes } from './reference/reference.routes.js';
import type { NamedListService, VatRateService } from './reference/reference.service.js';
import { variantRoutes } from './variants/variant.routes.js';
import type { VariantService } from './variants/variant.service.js';
import { stockRoutes } from './stock/stock.routes.js';
import type { StockService } from './stock/stock.service.js';
import { warehouseRoutes } from './warehouses/warehouse.routes.js';
import type { CatalogueChanges } from './changes/catalogue-changes.js';
import type { WarehouseService } from './warehouses/warehouse.service.js';

export interface PimDeps {
  auth: ApiKeyAuthService;
  readLimiter: RateLimiter;
  writeLimiter: RateLimiter;
  products: ProductService;
  history: HistoryService;
  imageSearch: ImageSearchService;
  attributes: AttributeService;
  warehouses: WarehouseService;
  stock: StockService;
  variants: VariantService;
  categories: CategoryService;
  media: MediaService;
  channels: ChannelService;
  completeness: CompletenessService;
  organization: OrganizationSettingsRepository;
  brands: NamedListService;
  suppliers: NamedListService;
  vatRates: VatRateService;
  /** CSV imports and exports. */
  catalogueFiles: { imports: ImportService; exports: ExportService; maxBytes: number };
  /** The product list as a workbench: bulk actions, the grid's batch, saved views. */
  workbench: WorkbenchServices;
  /** Told after every successful write (changes/catalogue-changes.ts). */
  changes?: Pick<CatalogueChanges, 'raise'>;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A body of a content type the PIM does not take: JSON everywhere, multipart/form-data on its image search. */
const PIM_UNSUPPORTED_MEDIA_TYPE = `${UNSUPPORTED_MEDIA_TYPE} (multipart/form-data only for POST /api/products/image-search)`;

export function sendPimError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const { statusCode, message, retryAfterSeconds } = classifyError(err, PIM_UNSUPPORTED_MEDIA_TYPE);
  if (statusCode >= 500) req.log.error({ err }, 'request failed');
  if (retryAfterSeconds !== undefined) reply.header('Retry-After', String(retryAfterSeconds));
  return reply.code(statusCode).send({ status: 0, data: null, error: message });
}

export async function pimPlugin(app: App, deps: PimDeps): Promise<void> {
  app.decorateRequest('pim', null as never);
  app.setErrorHandler(sendPimError);

  app.addHook('onRequest', async (req, reply) => {
    const limiter = READ_METHODS.has(req.method) ? deps.readLimiter : deps.writeLimiter;
    const decision = await limiter.consume(req.ip);
    reply.header('X-RateLimit-Limit', String(decision.limit));
    reply.header('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) {
      const seconds = retryAfterSeconds(decision);
      throw new AppError('rate_limited', `Rate limit exceeded: try again in ${seconds} s`, seconds);
    }
    const apiKey = req.headers['x-api-key'] as string | undefined;
    // The console's session (cookie, checked on the root) stands for its organization's key; an explicit key wins.
    const session = apiKey === undefined ? req.consoleSession : null;
    if (session) req.pim = { organizationId: session.organizationId, keyId: session.keyId, via: 'console' };
    else if (apiKey === undefined && req.consoleSessionEnded) throw new AppError('unauthorized', SESSION_ENDED);
    else req.pim = await deps.auth.authenticate(apiKey);
  });

  // A write answered with success has committed: the organization's catalogue changed (the delta sync reads it now).
  app.addHook('onResponse', async (req, reply) => {
    if (!deps.changes || READ_METHODS.has(req.method) || reply.statusCode >= 400 || !req.pim) return;
    await deps.changes.raise(req.pim.organizationId).catch((err: unknown) => req.log.warn({ err }, 'the catalogue change could not be told'));
  });

  app.get(
    '/api/auth/verify',
    {
      schema: {
        tags: ['Auth'],
        operationId: 'verifyApiKey',
        summary: 'Check an API key and its secret',
        description:
          "Checks the key in X-API-KEY together with its secret in X-API-SECRET and returns the key's id and its organization; the connector calls it to validate PIM credentials. Answers 401 when the key or the secret is missing or wrong, 403 when the key's organization is inactive, 429 over the rate limit.",
        response: pimResponses(
          200,
          Type.Object({
            organization: Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() }),
            key_id: Type.Integer(),
          }),
        ),
      },
    },
    async (req) => ok(await deps.auth.verify(req.headers['x-api-key'] as string | undefined, req.headers['x-api-secret'] as string | undefined)),
  );

  productRoutes(app, deps.products);
  completenessRoutes(app, deps.completeness);
  workbenchRoutes(app, deps.workbench);
  historyRoutes(app, deps.history);
  // Scopes of their own: the only routes that parse multipart/form-data.
  await app.register(async (scope) => imageSearchRoutes(scope as App, deps.imageSearch));
  await app.register(async (scope) => catalogueFileRoutes(scope as App, deps.catalogueFiles));
  await app.register(async (scope) => mediaUploadRoutes(scope as App, deps.media));
  attributeRoutes(app, deps.attributes);
  warehouseRoutes(app, deps.warehouses);
  stockRoutes(app, deps.stock);
  categoryRoutes(app, deps.categories);
  mediaRoutes(app, deps.media);
  variantRoutes(app, deps.variants);
  optionMatrixRoutes(app, deps.variants);
  channelRoutes(app, deps.channels);
  organizationRoutes(app, deps.organization);
  referenceRoutes(app, { brands: deps.brands, suppliers: deps.suppliers, vatRates: deps.vatRates });
}
