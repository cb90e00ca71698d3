// GET /api/status (enveloped, any authenticated role), GET /api/status/{integrationId} and GET /api/system/status
// (public, raw: their errors use the spec's raw shapes, never the envelope).
import { AccessViewSchema } from '../shop-auth/account-shops.routes.js';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { ConnectorError } from '../connector.errors.js';
import { bearer, ConnectorErrorEnvelope, connectorResponses, Nullable } from '../connector.schemas.js';
import { SYNC_LOG_STATUSES } from '../push/sync-log.repository.js';
import { iso8601 } from '../timestamps.js';
import { IntegrationNotFound, type StatusService } from './status.service.js';

const Timestamp = Nullable(Type.String());

const QueueStats = Type.Object({
  pending_messages: Type.Integer(),
  processing_messages: Type.Integer(),
  failed_messages: Type.Integer(),
  note: Type.String(),
});

const HealthScore = Type.Object({
  score: Type.Integer(),
  status: Type.String({ enum: ['excellent', 'good', 'fair', 'poor'] }),
  factors: Type.Array(Type.String()),
});

const Connectivity = Type.Object({
  status: Type.String({ enum: ['connected', 'error'] }),
  error: Type.Optional(Type.String()),
  shop_name: Type.Optional(Type.String()),
  shop_id: Type.Optional(Type.String()),
  plan: Type.Optional(Type.String()),
});

const SyncLog = Type.Object({
  id: Type.Integer(),
  operation: Type.String(),
  status: Type.String({ enum: [...SYNC_LOG_STATUSES] }),
  records_processed: Type.Integer(),
  records_failed: Type.Integer(),
  duration: Type.String(),
  started_at: Timestamp,
  completed_at: Timestamp,
});

const OwnStatus = Type.Object({
  integration_id: Type.Integer(),
  shop_domain: Type.String(),
  pim_base_url: Type.String(),
  status: Type.String({ enum: ['active', 'inactive'] }),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  last_sync_at: Timestamp,
  updated_at: Timestamp,
  product_mapping_stats: Type.Record(Type.String(), Type.Integer()),
  recent_syncs: Type.Array(SyncLog),
  pim_status: Connectivity,
  storefront_status: Connectivity,
  active_tokens: Type.Integer(),
  queue_stats: QueueStats,
  health_score: HealthScore,
  channel_mapping: Type.Record(
    Type.String(),
    Type.Object({ source: Type.Union([Type.Literal('default'), Type.Literal('custom')]), publications: Type.Array(Type.String()) }),
    { description: "beyond the spec: each PIM channel's publications (ids mapped explicitly, or the default's title)" },
  ),
  translations: Type.Object(
    { missing_locales: Type.Array(Type.String()) },
    { description: "beyond the spec: the PIM's translation locales the shop has not enabled, as recent pushes found them" },
  ),
  storefront_access: Type.Union([AccessViewSchema, Type.Null()], {
    description: "beyond the spec: how the shop is connected, its token's expiry, and the scopes it granted and lacks",
  }),
});

const PublicStatus = Type.Object({
  integration_id: Type.Integer(),
  shop_domain: Type.String(),
  is_active: Type.Boolean(),
  is_connected: Type.Boolean(),
  last_error: Nullable(Type.String()),
  created_at: Timestamp,
  last_sync_at: Timestamp,
  sync_stats: Type.Object({
    last_24h: Type.Object({ total_syncs: Type.Integer(), successful_syncs: Type.Integer(), failed_syncs: Type.Integer() }),
    product_mappings: Type.Object({ total: Type.Integer(), synced: Type.Integer(), pending: Type.Integer(), failed: Type.Integer() }),
  }),
  queue_stats: QueueStats,
  health_score: HealthScore,
});

const SystemStatus = Type.Object({
  status: Type.String({ enum: ['operational', 'degraded'] }),
  timestamp: Timestamp,
  stats: Type.Object({
    total_integrations: Type.Integer(),
    active_integrations: Type.Integer(),
    recent_syncs: Type.Object({ total_syncs_24h: Type.Integer(), successful_syncs_24h: Type.Integer(), failed_syncs_24h: Type.Integer() }),
    system_health: Type.Object({
      database: Type.String({ enum: ['healthy', 'unhealthy'] }),
      php_version: Type.String(),
      memory_usage: Type.String(),
      memory_peak: Type.String(),
    }),
  }),
});

const RawError = Type.Object({ error: Type.String() });
const SystemError = Type.Object({ status: Type.String({ enum: ['error'] }), timestamp: Timestamp, error: Type.String() });

export interface StatusRouteDeps {
  status: StatusService;
}

export function statusRoutes(app: App, deps: StatusRouteDeps): void {
  ownStatusRoutes(app, deps);
  publicStatusRoutes(app, deps);
}

/** The caller's integration: its status and its sync logs (a token or a console session). */
function ownStatusRoutes(app: App, deps: StatusRouteDeps): void {
  app.get(
    '/api/status',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Status'],
        security: bearer,
        operationId: 'getStatus',
        summary: "The caller's integration: stats, recent syncs, checks and health score",
        description:
          "Returns the caller's integration with its mapping counts, the 10 latest syncs, live PIM and storefront checks (reused for 30 s), active tokens, queue counts and health score, plus the channel mapping, the translation locales the shop lacks and how the shop is connected. Any connector token (read, write or admin scope) or a console session. Errors: AUTHENTICATION_FAILED (401), INTERNAL_ERROR (500).",
        response: connectorResponses(OwnStatus),
      },
    },
    async (req) => {
      if (!req.connector) throw new ConnectorError('AUTHENTICATION_FAILED', 'Authentication required');
      return success('Integration status retrieved', await deps.status.ownStatus(req.connector.integrationId));
    },
  );

  app.get(
    '/api/sync/logs',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Status'],
        security: bearer,
        operationId: 'listSyncLogs',
        summary: 'List the sync logs of the last hours, newest first',
        description:
          "Beyond the spec: the integration's sync logs started in the last `hours` (default 48, at most 720), newest first, at most `limit` (default 500, at most 1000), each with its error. Needs a connector token with the read scope (or a console session). Errors: VALIDATION_FAILED (400) for a bad query parameter, AUTHENTICATION_FAILED (401).",
        querystring: Type.Object({
          hours: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 500 }),
        }),
        response: connectorResponses(
          Type.Object({
            hours: Type.Integer(),
            sync_logs: Type.Array(Type.Composite([SyncLog, Type.Object({ error: Type.Union([Type.String(), Type.Null()]) })])),
          }),
        ),
      },
    },
    async (req) => success('Sync logs retrieved', await deps.status.syncLogs(req.connector!.integrationId, req.query.hours, req.query.limit)),
  );
}

/** Public, from stored state only, and not enveloped (the spec's raw errors): one integration's status, the system's. */
function publicStatusRoutes(app: App, deps: StatusRouteDeps): void {
  app.get(
    '/api/status/:integrationId',
    {
      // Fastify takes any string: a malformed id is the spec's raw 404, not a 400 (the document says integer).
      config: { access: 'public', openapi: { params: { integrationId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } },
      schema: {
        tags: ['Status'],
        security: [],
        operationId: 'getIntegrationStatus',
        summary: 'Public status of one integration, from stored state',
        description:
          'Returns one integration\'s state, connection, last error, 24-hour sync counts, mapping counts, queue counts and health score, from stored state and the last stored checks only (it never calls the PIM or the shop). Public, and not enveloped: an unknown or malformed id is a raw 404 {error: "Integration not found"}, a failure a raw 500 {error: "Status check failed"}. A request refused before it runs (RATE_LIMITED 429 over the public per-address limit, a bad parameter) answers in the connector\'s error envelope.',
        params: Type.Object({ integrationId: Type.String() }),
        // The spec's raw 404 and 500; a request refused before the handler (a bad parameter, the per-IP limit) in the
        // connector's error envelope, as on every connector route.
        response: { 200: PublicStatus, 404: RawError, '4xx': ConnectorErrorEnvelope, 500: Type.Union([RawError, ConnectorErrorEnvelope]) },
      },
    },
    async (req, reply) => {
      try {
        return await deps.status.publicStatus(req.params.integrationId);
      } catch (err) {
        if (err instanceof IntegrationNotFound) return reply.code(404).send({ error: 'Integration not found' });
        req.log.error({ err }, 'public status check failed');
        return reply.code(500).send({ error: 'Status check failed' });
      }
    },
  );

  app.get(
    '/api/system/status',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Status'],
        security: [],
        operationId: 'getSystemStatus',
        summary: 'Public system status',
        description:
          'Returns the system\'s status (operational, or degraded when the database does not answer), integration counts, 24-hour sync counts, and the database, runtime and memory health. Public, and not enveloped: a failure is a raw 500 {status: "error", timestamp, error: "System status check failed"}, while RATE_LIMITED (429, over the public per-address limit) answers in the connector\'s error envelope.',
        response: { 200: SystemStatus, '4xx': ConnectorErrorEnvelope, 500: Type.Union([SystemError, ConnectorErrorEnvelope]) },
      },
    },
    async (req, reply) => {
      try {
        return await deps.status.systemStatus();
      } catch (err) {
        req.log.error({ err }, 'system status check failed');
        return reply.code(500).send({ status: 'error', timestamp: iso8601(new Date()), error: 'System status check failed' });
      }
    },
  );
}
