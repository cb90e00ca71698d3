// POST /api/sync/full (admin scope) starts a full catalogue sync: 200 with its id and state (the connector answers 200
// for success; the spec's statuses have no 202), or 409 SYNC_IN_PROGRESS with the running one's id in `data`.
// GET /api/sync/full/{id} (read scope) reports its progress; another integration's id, or no id at all, is 404 NOT_FOUND.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { NO_BODY } from '../../http/route-docs.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorOk, ConnectorErrorEnvelope, connectorResponses, Nullable, Timestamp } from '../connector.schemas.js';
import { ymdHis } from '../timestamps.js';
import type { FullSyncService, FullSyncView } from './full-sync.service.js';

const FullSync = Type.Object({
  id: Type.String({ description: 'uuid; also the id of its sync.full job' }),
  status: Type.String({ enum: ['queued', 'running', 'completed', 'failed'] }),
  mode: Nullable(
    Type.String({ enum: ['per_call', 'bulk'], description: 'per_call below SYNC_BULK_THRESHOLD products, else bulk; null until the first PIM page' }),
  ),
  total: Type.Integer({ description: 'products of the PIM account (at the start; the products recorded once the fan-out is done)' }),
  queued: Type.Integer(),
  synced: Type.Integer(),
  failed: Type.Integer(),
  progress: Type.Number({ description: '(synced + failed) ÷ total in percent, one decimal' }),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  error: Nullable(Type.String()),
});

const InProgress = Type.Object({
  status: Type.Literal('error'),
  message: Type.String(),
  code: Type.Literal('SYNC_IN_PROGRESS'),
  /** The open full sync; absent when what is open is an adoption of the integration. */
  data: Type.Optional(FullSync),
});

const render = (v: FullSyncView) => ({
  ...v,
  created_at: ymdHis(v.created_at)!,
  started_at: ymdHis(v.started_at),
  finished_at: ymdHis(v.finished_at),
});

export function fullSyncRoutes(app: App, fullSync: FullSyncService): void {
  app.post(
    '/api/sync/full',
    {
      config: { access: 'admin', openapi: NO_BODY },
      schema: {
        tags: ['Full sync'],
        security: bearer,
        operationId: 'startFullSync',
        summary: 'Start a full catalogue sync of the PIM account to the storefront',
        description:
          'No body (VALIDATION_FAILED otherwise); one full sync per integration at a time. Runs in the background, product by product below the configured bulk threshold (SYNC_BULK_THRESHOLD products) and with bulk mutations from it on; answers 200 with the queued sync, then poll GET /api/sync/full/{id}. ' +
          'Needs a connector token with the admin scope (or a console session). While one is queued or running: 409 SYNC_IN_PROGRESS with that one in `data`; while an adoption of the integration is: 409 SYNC_IN_PROGRESS without `data`.',
        response: { 200: connectorOk(FullSync), 409: InProgress, '4xx': ConnectorErrorEnvelope, '5xx': ConnectorErrorEnvelope },
      },
    },
    async (req, reply) => {
      const result = await fullSync.start(req.connector!.integrationId);
      if (result.started) return success('Full sync queued', render(result.sync));
      return reply.code(409).send({
        status: 'error' as const,
        message: `A full sync of this integration is already ${result.sync.status} (${result.sync.id})`,
        code: 'SYNC_IN_PROGRESS' as const,
        data: render(result.sync),
      });
    },
  );

  app.get(
    '/api/sync/full/:id',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Full sync'],
        security: bearer,
        operationId: 'getFullSync',
        summary: 'Progress of a full sync of the caller’s integration',
        description:
          "Returns a full sync's state (queued, running, completed or failed), mode, counts, progress in percent and error. Needs a connector token with the read scope (or a console session). Errors: AUTHENTICATION_FAILED (401), NOT_FOUND (404) for an unknown id or one of another integration.",
        params: Type.Object({ id: Type.String() }),
        response: connectorResponses(FullSync),
      },
    },
    async (req) => success('Full sync status retrieved', render(await fullSync.progress(req.connector!.integrationId, req.params.id))),
  );
}
