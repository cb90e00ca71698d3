// POST /api/adopt (admin scope) adopts the connected shop's existing products: 200 with the queued adoption (the spec's statuses have no 202), or 409
// SYNC_IN_PROGRESS while an adoption (carried in `data`) or a full sync of the integration is queued or running.
// GET /api/adopt/{id} (read scope) reports its state, progress, counts and unmatched products; another integration's
// id, or no id at all, is 404 NOT_FOUND.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorOk, ConnectorErrorEnvelope, connectorResponses, Nullable, Timestamp } from '../connector.schemas.js';
import { ymdHis } from '../timestamps.js';
import { parseStartBody, type AdoptionService, type AdoptionView } from './adoption.service.js';

const Count = Nullable(Type.Integer());

const Adoption = Type.Object({
  id: Type.String({ description: 'uuid; also the id of its catalogue.adopt job' }),
  state: Type.String({ enum: ['queued', 'running', 'completed', 'failed'] }),
  import_unmatched: Type.Boolean(),
  progress: Type.Object({
    phase: Nullable(Type.String({ enum: ['reading_shop', 'reading_pim', 'matching', 'importing'], description: 'null before it starts and once it ended' })),
    done: Type.Integer(),
    total: Nullable(Type.Integer({ description: 'null while not known (the shop is being read)' })),
    percent: Nullable(Type.Number({ description: 'done ÷ total of the phase, in percent with one decimal; 100 once completed' })),
  }),
  counts: Type.Object({
    shop_products: Count,
    pim_products: Count,
    matched: Type.Union([Type.Integer(), Type.Null()], { description: 'shop products linked to existing PIM products' }),
    matched_by: Nullable(Type.Record(Type.String(), Type.Integer(), { description: 'links by rule: pim_id, sku, barcode, handle, imported' })),
    already_mapped: Type.Union([Type.Integer(), Type.Null()], { description: 'shop products that had a mapping before (left as they are)' }),
    unmatched_shop: Count,
    unmatched_pim: Count,
    imported: Type.Union([Type.Integer(), Type.Null()], { description: 'PIM products made from unmatched shop products (import_unmatched)' }),
  }),
  unmatched: Type.Object({
    shop: Type.Array(
      Type.Object({
        storefront_product_id: Type.Integer(),
        handle: Type.String(),
        title: Type.String(),
        skus: Type.Array(Type.String()),
        reason: Type.String(),
      }),
      { description: 'the first 1,000 (counts.unmatched_shop is the total)' },
    ),
    pim: Type.Array(Type.Object({ pim_product_id: Type.Integer(), sku: Type.String(), name: Type.String(), slug: Nullable(Type.String()) }), {
      description: 'the first 1,000 (counts.unmatched_pim is the total)',
    }),
  }),
  error: Nullable(Type.String()),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
});

const InProgress = Type.Object({
  status: Type.Literal('error'),
  message: Type.String(),
  code: Type.Literal('SYNC_IN_PROGRESS'),
  data: Type.Optional(Adoption),
});

const render = (v: AdoptionView) => ({
  ...v,
  created_at: ymdHis(v.created_at)!,
  started_at: ymdHis(v.started_at),
  finished_at: ymdHis(v.finished_at),
});

/** Read by the service (parseStartBody), which answers VALIDATION_FAILED in the connector's envelope. */
const AdoptBody = Type.Object(
  { import_unmatched: Type.Optional(Type.Boolean({ description: "also make PIM products of the shop's unmatched products (default false)" })) },
  { additionalProperties: false },
);

export function adoptionRoutes(app: App, adoptions: AdoptionService): void {
  app.post(
    '/api/adopt',
    {
      config: { access: 'admin', openapi: { body: { 'application/json': AdoptBody }, bodyOptional: true } },
      schema: {
        tags: ['Adoption'],
        security: bearer,
        operationId: 'startAdoption',
        summary: "Adopt the shop's existing products",
        description:
          "Matches the shop's existing products to PIM products and links them, writing nothing to the shop; body (optional): `{\"import_unmatched\": true}` also makes PIM products of the shop's unmatched products (through the PIM's catalogue import). " +
          "Runs in the background: one bulk query of the shop's products, the PIM's products in pages of 100, matched by our metafield, SKU, barcode, then handle; answers 200 with the queued adoption, then poll GET /api/adopt/{id}. " +
          'Needs a connector token with the admin scope (or a console session); a bad body is VALIDATION_FAILED (400). While an adoption or a full sync of the integration is queued or running: 409 SYNC_IN_PROGRESS.',
        response: { 200: connectorOk(Adoption), 409: InProgress, '4xx': ConnectorErrorEnvelope, '5xx': ConnectorErrorEnvelope },
      },
    },
    async (req, reply) => {
      const result = await adoptions.start(req.connector!.integrationId, parseStartBody(req.body));
      // 200, as for a full sync: the connector spec's statuses have no 202.
      if (result.started) return success('Adoption queued', render(result.adoption));
      const message = result.adoption
        ? `An adoption of this shop is already ${result.adoption.state} (${result.adoption.id})`
        : `A full sync of this integration is running (${result.fullSyncId}): adopt once it ended`;
      return reply
        .code(409)
        .send({ status: 'error' as const, message, code: 'SYNC_IN_PROGRESS' as const, ...(result.adoption ? { data: render(result.adoption) } : {}) });
    },
  );

  app.get(
    '/api/adopt/:id',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Adoption'],
        security: bearer,
        operationId: 'getAdoption',
        summary: 'State, progress and result of an adoption of the caller’s shop',
        description:
          "Returns the adoption's state, phase and progress, its counts (matches by rule, already mapped, unmatched, imported) and the first 1,000 unmatched shop and PIM products. Needs a connector token with the read scope (or a console session). Errors: AUTHENTICATION_FAILED (401), NOT_FOUND (404) for an unknown id or one of another integration.",
        params: Type.Object({ id: Type.String() }),
        response: connectorResponses(Adoption),
      },
    },
    async (req) => success('Adoption status retrieved', render(await adoptions.progress(req.connector!.integrationId, req.params.id))),
  );
}
