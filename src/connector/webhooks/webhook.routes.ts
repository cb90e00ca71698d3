// GET/POST/PUT /api/integration/webhooks (admin scope; webhook.service.ts): the shop's webhook subscriptions, subscribing
// again (e.g. after PUBLIC_URL changed) and the recreate_deleted_products setting. Beyond the spec; same envelope.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { IGNORED_BODY } from '../../http/route-docs.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, Timestamp } from '../connector.schemas.js';
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
  driftEventRoutes(app, webhooks);
  subscriptionRoutes(app, webhooks);
}

/** The merchant's edits the products/update webhooks reported (read scope). */
function driftEventRoutes(app: App, webhooks: WebhookService): void {
  app.get(
    '/api/drift/events',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Drift'],
        security: bearer,
        operationId: 'listDriftEvents',
        summary: "List the merchant's edits to fields the bridge owns",
        description:
          "Beyond the spec: the edits the shop's products/update webhooks reported to the fields the bridge owns (title, handle, variant SKUs), newest first, paginated with limit (1-100, default 20) and offset, optionally for one pim_product_id. Between drift reports they tell when a field changed; a report compares everything. Needs a connector token with the read scope (or a console session).",
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
}

/** The shop's webhook subscriptions and the recreate_deleted_products setting (admin scope). */
function subscriptionRoutes(app: App, webhooks: WebhookService): void {
  const admin = { config: { access: 'admin' as const } };
  app.get(
    '/api/integration/webhooks',
    {
      ...admin,
      schema: {
        tags: ['Webhooks'],
        security: bearer,
        operationId: 'listWebhooks',
        summary: "The shop's webhook subscriptions",
        description:
          "Reads the shop's webhook subscriptions live and shows the callback URL, whether each topic the bridge needs (product updates and deletions, inventory levels, app uninstalled) is subscribed, and recreate_deleted_products, what a deletion in the shop does. Needs a connector token with the admin scope (or a console session); CONNECTION_FAILED (503) when the shop cannot be read.",
        response: connectorResponses(WebhooksView),
      },
    },
    async (req) => success('Webhooks retrieved successfully', await webhooks.view(req.connector!.integrationId)),
  );
  app.post(
    '/api/integration/webhooks',
    {
      config: { access: 'admin', openapi: IGNORED_BODY },
      schema: {
        tags: ['Webhooks'],
        security: bearer,
        operationId: 'resubscribeWebhooks',
        summary: "Subscribe the shop's webhooks again",
        description:
          "Creates the missing subscriptions and deletes those of the same topics at another address, moving them to the server's current public URL (PUBLIC_URL); idempotent. Answers status subscribed with the subscriptions and counts, or skipped with the reason (a Shopify shop connected with a legacy token while no app secret is configured). Needs a connector token with the admin scope (or a console session); CONNECTION_FAILED (503) when the shop cannot be reached.",
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
        tags: ['Webhooks'],
        security: bearer,
        operationId: 'setWebhookSettings',
        summary: 'Set whether products deleted in the shop are created again',
        description:
          'Body {recreate_deleted_products: boolean}: true (the default) lets the next push or sync create a product the merchant deleted in the shop again; false makes the push answer an error for that product instead. Needs a connector token with the admin scope (or a console session). Errors: MISSING_FIELD, VALIDATION_FAILED (400).',
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
