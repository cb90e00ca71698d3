// GET /api/products/mappings and GET /api/products/mapping/{pimProductId} (read scope): the caller's integration's
// product mappings.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, Nullable, Timestamp } from '../connector.schemas.js';
import { MAPPING_STATUSES, type MappingStatus } from './mapping.repository.js';
import type { MappingService } from './mapping.service.js';

const SyncStatus = Type.Unsafe<MappingStatus>({ type: 'string', enum: [...MAPPING_STATUSES], description: 'pending, synced or error' });

const Mapping = Type.Object({
  id: Type.Integer(),
  pim_product_id: Type.Integer(),
  storefront_product_id: Nullable(Type.Integer()),
  storefront_variant_id: Nullable(Type.Integer()),
  sync_status: SyncStatus,
  sync_error: Nullable(Type.String()),
  last_synced_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const MappingWithMetadata = Type.Object({
  ...Mapping.properties,
  metadata: Type.Object({
    storefront_handle: Nullable(Type.String()),
    storefront_title: Nullable(Type.String()),
    variant_count: Type.Integer(),
    image_count: Type.Integer(),
    last_push_method: Nullable(Type.String({ description: 'create or update' })),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description: 'What the last push left as it is though the PIM says otherwise (e.g. the shop variants it kept); absent when nothing',
      }),
    ),
  }),
});

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: '1-100, default 20' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'default 0' })),
    status: Type.Optional(SyncStatus),
  },
  { additionalProperties: true },
);

export function mappingRoutes(app: App, mappings: MappingService): void {
  app.get(
    '/api/products/mappings',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Push and mappings'],
        security: bearer,
        operationId: 'listMappings',
        summary: "List the integration's product mappings",
        description:
          'Lists the mappings between PIM products and shop products by mapping id, without metadata, paginated with limit (1-100, default 20) and offset, optionally only one status (pending, synced or error). Needs a connector token with the read scope (or a console session). Errors: VALIDATION_FAILED (400) for a bad query parameter, AUTHENTICATION_FAILED (401).',
        querystring: ListQuery,
        response: connectorResponses(
          Type.Object({
            mappings: Type.Array(Mapping),
            pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean() }),
          }),
        ),
      },
    },
    async (req) => {
      const q = req.query as { limit?: number; offset?: number; status?: MappingStatus };
      const data = await mappings.list(req.connector!.integrationId, { limit: q.limit ?? 20, offset: q.offset ?? 0, status: q.status });
      return success('Product mappings retrieved successfully', data);
    },
  );

  app.get(
    '/api/products/mapping/:pimProductId',
    {
      // Fastify takes any string: a malformed id is the spec's MAPPING_NOT_FOUND 404, not a 400 (the document says integer).
      config: { access: 'read', openapi: { params: { pimProductId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } },
      schema: {
        tags: ['Push and mappings'],
        security: bearer,
        operationId: 'getMapping',
        summary: 'Get one product mapping by PIM product id',
        description:
          "Returns the mapping of one PIM product with its metadata: shop handle and title, variant and image counts, the last push's method and any warnings it left. Needs a connector token with the read scope (or a console session). Errors: AUTHENTICATION_FAILED (401), MAPPING_NOT_FOUND (404) when the product has no mapping or the id is not a PIM product id.",
        params: Type.Object({ pimProductId: Type.String() }),
        response: connectorResponses(MappingWithMetadata),
      },
    },
    async (req) => success('Product mapping retrieved successfully', await mappings.get(req.connector!.integrationId, req.params.pimProductId)),
  );
}
