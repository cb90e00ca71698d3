// POST /api/drift (write scope) starts a drift report of the connected shop: 200 with the queued report (the spec's
// statuses have no 202), or 409 SYNC_IN_PROGRESS with the open one while one is queued or running. GET /api/drift and
// GET /api/drift/{id} (read scope) answer the newest (or that) report's state, counts and a page of its items; no
// report yet, another integration's id or an unknown one is 404 NOT_FOUND.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { NO_BODY } from '../../http/route-docs.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorOk, ConnectorErrorEnvelope, connectorResponses, Nullable, Timestamp } from '../connector.schemas.js';
import { ymdHis } from '../timestamps.js';
import { DRIFT_KINDS, type DriftKind } from './drift.repository.js';
import type { DriftService, DriftView } from './drift.service.js';

const Counts = Type.Object({
  mapped: Type.Integer({ description: 'mappings that name a storefront product' }),
  compared: Type.Integer({ description: 'of those, compared field by field with what the bridge last wrote' }),
  not_compared: Type.Integer({ description: 'in the shop but with no record of what was written (adopted and not pushed since)' }),
  shop_products: Type.Integer(),
  changed: Type.Integer(),
  missing_in_shop: Type.Integer(),
  orphan_in_shop: Type.Integer(),
});

const Report = Type.Object({
  id: Type.String({ description: 'uuid; also the id of its catalogue.drift job' }),
  state: Type.String({ enum: ['queued', 'running', 'completed', 'failed'] }),
  counts: Nullable(Counts),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
});

const Item = Type.Object({
  kind: Type.String({ enum: [...DRIFT_KINDS] }),
  pim_product_id: Nullable(Type.Integer()),
  storefront_product_id: Nullable(Type.Integer()),
  handle: Nullable(Type.String()),
  title: Nullable(Type.String()),
  fields: Type.Array(
    Type.Object({ field: Type.String(), storefront: Type.Unknown(), written: Type.Unknown({ description: 'the value the bridge last wrote' }) }),
  ),
});

const ReportPage = Type.Object({
  ...Report.properties,
  items: Type.Array(Item),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), has_more: Type.Boolean() }),
});

const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: '1-100, default 20' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'default 0' })),
    kind: Type.Optional(Type.Unsafe<DriftKind>({ type: 'string', enum: [...DRIFT_KINDS], description: 'changed, missing_in_shop or orphan_in_shop' })),
  },
  { additionalProperties: true },
);

const InProgress = Type.Object({ status: Type.Literal('error'), message: Type.String(), code: Type.Literal('SYNC_IN_PROGRESS'), data: Report });

const render = <T extends DriftView>(v: T) => ({
  ...v,
  created_at: ymdHis(v.created_at)!,
  started_at: ymdHis(v.started_at),
  finished_at: ymdHis(v.finished_at),
});

type PageArgs = { limit?: number; offset?: number; kind?: DriftKind };
const page = (q: PageArgs) => ({ limit: q.limit ?? 20, offset: q.offset ?? 0, kind: q.kind });

export function driftRoutes(app: App, drift: DriftService): void {
  app.post(
    '/api/drift',
    {
      config: { access: 'write', openapi: NO_BODY },
      schema: {
        tags: ['Drift'],
        security: bearer,
        operationId: 'startDriftReport',
        summary: 'Start a drift report of the shop',
        description:
          'The shop is read in one bulk query and compared with what the bridge last wrote, in the background; nothing is written to the shop. ' +
          'No body (VALIDATION_FAILED otherwise); answers 200 with the queued report, then poll GET /api/drift. ' +
          'Needs a connector token with the write scope (or a console session). While a report is queued or running: 409 SYNC_IN_PROGRESS with it in `data`.',
        response: { 200: connectorOk(Report), 409: InProgress, '4xx': ConnectorErrorEnvelope, '5xx': ConnectorErrorEnvelope },
      },
    },
    async (req, reply) => {
      const result = await drift.start(req.connector!.integrationId);
      if (result.started) return success('Drift report queued', render(result.report));
      return reply.code(409).send({
        status: 'error' as const,
        message: `A drift report of this shop is already ${result.report.state} (${result.report.id})`,
        code: 'SYNC_IN_PROGRESS' as const,
        data: render(result.report),
      });
    },
  );

  app.get(
    '/api/drift',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Drift'],
        security: bearer,
        operationId: 'getLatestDriftReport',
        summary: "Get the newest drift report of the caller's shop",
        description:
          "Returns the newest report's state, counts and a page of its items (limit 1-100, default 20; offset; kind changed, missing_in_shop or orphan_in_shop), or data null when the shop has no report yet (not an error: the console asks on every visit of its drift page). Needs a connector token with the read scope (or a console session). Errors: VALIDATION_FAILED (400) for a bad query parameter.",
        querystring: PageQuery,
        response: connectorResponses(Nullable(ReportPage)),
      },
    },
    async (req) => {
      const latest = await drift.latest(req.connector!.integrationId, page(req.query));
      return latest ? success('Drift report retrieved', render(latest)) : success('No drift report yet: POST /api/drift starts one', null);
    },
  );

  app.get(
    '/api/drift/:id',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Drift'],
        security: bearer,
        operationId: 'getDriftReport',
        summary: "Get one drift report of the caller's shop",
        description:
          "Returns the report's state, counts and a page of its items (limit 1-100, default 20; offset; kind changed, missing_in_shop or orphan_in_shop). Needs a connector token with the read scope (or a console session). Errors: VALIDATION_FAILED (400) for a bad query parameter, NOT_FOUND (404) for an unknown id, one that is not a UUID or one of another integration.",
        params: Type.Object({ id: Type.String() }),
        querystring: PageQuery,
        response: connectorResponses(ReportPage),
      },
    },
    async (req) => success('Drift report retrieved', render(await drift.report(req.connector!.integrationId, req.params.id, page(req.query)))),
  );
}
