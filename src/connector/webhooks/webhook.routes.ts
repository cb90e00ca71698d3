// GET/POST/PUT /api/integration/webhooks (admin scope; webhook.service.ts): the shop's webhook subscriptions, subscribing
// again (e.g. after PUBLIC_URL changed) and the recreate_deleted_products setting. Beyond the spec; same envelope.
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/kernel/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, connectorTags as tags, Timestamp } from '../connector.schemas.js';
import type { WebhookService } from './webhook.service.js';

const Subscription = Type.Object({ id: Type.String(), topic: Type.String(), uri: Type.String() });
const WebhooksView = Type.Object({
  callback_url: Type.String(),
  topics: Type.Array(Type.Object({ topic: Type.String(), subscribed: Type.Boolean() })),
  subscriptions: Type.Array(Subscription),
  recreate_deleted_products: Type.Boolean(),
});
const SubscribeView = Type.Object({
  status: Type.Union([Type.Literal('subscribed'), Type.Literal('skipped')]),
  callback_url: Type.String(),
  subscriptions: Type.Optional(Type.Array(Subscription)),
  created: Type.Optional(Type.Integer()),
  deleted: Type.Optional(Type.Integer()),
  reason: Type.Optional(Type.String()),
});

const DriftEvent = Type.Object({
  id: Type.Integer(),
  pim_product_id: Type.Integer(),
  storefront_product_id: Type.Integer(),
  field: Type.String({ description: 'title, handle or variant_skus' }),
  written: Type.Union([Type.String(), Type.Null()], { description: 'what the last push wrote (JSON text for lists)' }),
  storefront: Type.Union([Type.String(), Type.Null()], { description: 'what the shop had after the edit' }),
  source: Type.String(),
  detected_at: Timestamp,
});

export function webhookSettingsRoutes(app: App, webhooks: WebhookService): void {
  app.get(
    '/api/drift/events',
    {
      config: { access: 'read' },
      schema: {
        tags,
        security: bearer,
        summary: "Beyond the spec: the merchant's edits to fields the bridge owns, as the shop's products/update webhooks reported them, newest first",
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
          pim_product_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
        }),
        response: connectorResponses(
          Type.Object({
            events: Type.Array(DriftEvent),
            pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
          }),
        ),
      },
    },
    async (req) =>
      success(
        'Drift events retrieved',
        await webhooks.driftEvents(req.connector!.integrationId, { limit: req.query.limit, offset: req.query.offset, pimProductId: req.query.pim_product_id }),
      ),
  );

  const admin = { config: { access: 'admin' as const } };
  app.get(
    '/api/integration/webhooks',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: "The shop's webhook subscriptions (read live) and what a deletion in the shop does",
        response: connectorResponses(WebhooksView),
      },
    },
    async (req) => success('Webhooks retrieved successfully', await webhooks.view(req.connector!.integrationId)),
  );
  app.post(
    '/api/integration/webhooks',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Subscribe the shop again (idempotent; moves subscriptions to the current PUBLIC_URL)',
        response: connectorResponses(SubscribeView),
      },
    },
    async (req) => success('Webhooks subscribed', await webhooks.subscribe(req.connector!.integrationId)),
  );
  app.put(
    '/api/integration/webhooks',
    {
      ...admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Whether a product deleted in the shop is created again by the next sync (default true)',
        body: Type.Object({ recreate_deleted_products: Type.Boolean() }, { additionalProperties: false }),
        response: connectorResponses(Type.Object({ recreate_deleted_products: Type.Boolean() })),
      },
    },
    async (req) => {
      await webhooks.setRecreateDeleted(req.connector!.integrationId, req.body.recreate_deleted_products);
      return success('Webhook settings updated successfully', { recreate_deleted_products: await webhooks.recreateDeleted(req.connector!.integrationId) });
    },
  );
}
