// POST /api/products/push (write scope): a product object or {products: [...]} (≤ 50). 200 when every product
// succeeded; 207 with envelope status `partial` (and no top-level code) when at least one failed.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { ConnectorError } from '../connector.errors.js';
import { bearer, connectorOk, ConnectorErrorEnvelope, Nullable } from '../connector.schemas.js';
import { MAX_PUSH_BATCH } from './push-items.js';
import type { PushService } from './push.service.js';

/** Both result kinds in one object schema (success: handle and method; error: validation_errors). */
const Result = Type.Object({
  status: Type.String({ enum: ['success', 'error'] }),
  message: Type.String(),
  pim_product_id: Nullable(Type.Integer()),
  storefront_product_id: Nullable(Type.Integer()),
  storefront_handle: Type.Optional(Type.String()),
  method: Type.Optional(Type.String({ enum: ['create', 'update'] })),
  validation_errors: Type.Optional(Type.Array(Type.String())),
});

/** One field a dry run would change: the shop's value now (null: none, or created) and the PIM's. */
const Change = Type.Object({
  field: Type.String({
    description:
      'title, descriptionHtml, vendor, productType, status, tags, seo.title, seo.description, handle (create), variants[SKU].price|compareAtPrice|barcode|options, variants[SKU], images',
  }),
  storefront: Type.Unknown(),
  pim: Type.Unknown(),
});

const DryRunResult = Type.Object({
  status: Type.String({ enum: ['success', 'error'] }),
  message: Type.String(),
  pim_product_id: Nullable(Type.Integer()),
  storefront_product_id: Nullable(Type.Integer()),
  storefront_handle: Type.Optional(Nullable(Type.String())),
  method: Type.Optional(Type.String({ enum: ['create', 'update'] })),
  changes: Type.Optional(Type.Array(Change)),
  validation_errors: Type.Optional(Type.Array(Type.String())),
});

const DryRunData = Type.Object({
  sync_log_id: Type.Integer(),
  dry_run: Type.Literal(true),
  total_products: Type.Integer(),
  successful_count: Type.Integer(),
  failed_count: Type.Integer(),
  results: Type.Array(DryRunResult),
});

const PushQuery = Type.Object(
  { dry_run: Type.Optional(Type.Boolean({ description: 'true: list what the push would change, writing nothing (sync log products.push.dry_run)' })) },
  { additionalProperties: true },
);

/** One product to push: its PIM id alone (read from the PIM), or the whole PIM product as GET /api/products/{id} gives it. */
const PushProduct = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'the PIM product id' }),
    name: Type.Optional(Type.String({ description: 'required when more fields than id are sent (the body is then the full product)' })),
    sku: Type.Optional(Type.String()),
    variants: Type.Optional(Type.Array(Type.Object({ sku: Type.String() }, { additionalProperties: true }))),
    images: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Null()])),
    categories: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Null()])),
    warehouse_stock: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Null()])),
  },
  { additionalProperties: true },
);

/** Read by the service, not by Fastify: the spec answers an empty body NO_PRODUCTS and a long batch BATCH_SIZE_EXCEEDED. */
const PushBody = Type.Union([
  PushProduct,
  Type.Object({ products: Type.Array(PushProduct, { minItems: 1, maxItems: MAX_PUSH_BATCH }) }, { additionalProperties: false }),
]);

const PushData = Type.Object({
  sync_log_id: Type.Integer(),
  total_products: Type.Integer(),
  successful_count: Type.Integer(),
  failed_count: Type.Integer(),
  results: Type.Array(Result),
});

export function pushRoutes(app: App, push: PushService): void {
  app.post(
    '/api/products/push',
    {
      config: { access: 'write', openapi: { body: { 'application/json': PushBody } } },
      // Fastify parses text/plain too: a body that did not come as JSON is not JSON.
      preValidation: async (req) => {
        if (req.body !== undefined && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(req.headers['content-type'] ?? '')) {
          throw new ConnectorError('INVALID_JSON', 'The request body must be JSON (Content-Type: application/json)');
        }
      },
      schema: {
        tags: ['Push and mappings'],
        security: bearer,
        operationId: 'pushProducts',
        summary: 'Push a product or a batch of at most 50 to the storefront',
        description:
          'Body: a product object or {products: [...]} (at most 50). A product object with only `id` is read from the PIM; one with more fields is taken as the full PIM product. ' +
          'Each push records one sync log and answers 200 when every product succeeded, 207 with status partial when any failed; ?dry_run=true previews it, listing what a push would change and writing nothing to the shop. ' +
          'Needs a connector token with the write scope (or a console session); errors: INVALID_JSON, NO_PRODUCTS, BATCH_SIZE_EXCEEDED, VALIDATION_FAILED (400), AUTHENTICATION_FAILED (401), INSUFFICIENT_SCOPE (403).',
        querystring: PushQuery,
        response: {
          200: Type.Union([connectorOk(DryRunData), connectorOk(PushData)]),
          207: Type.Union([connectorOk(DryRunData), connectorOk(PushData)]),
          '4xx': ConnectorErrorEnvelope,
          '5xx': ConnectorErrorEnvelope,
        },
      },
    },
    async (req, reply) => {
      if (req.query.dry_run === true) {
        const { data, partial } = await push.dryRun(req.connector!.integrationId, req.body);
        const message = `Dry run: ${data.successful_count} of ${data.total_products} product(s) previewed, nothing written`;
        if (!partial) return { status: 'success' as const, message, data };
        reply.code(207);
        return { status: 'partial' as const, message, data };
      }
      const { data, partial } = await push.push(req.connector!.integrationId, req.body, req.log);
      if (!partial) return { status: 'success' as const, message: `${data.total_products} product(s) pushed successfully`, data };
      reply.code(207);
      return { status: 'partial' as const, message: `${data.failed_count} of ${data.total_products} product(s) failed`, data };
    },
  );
}
