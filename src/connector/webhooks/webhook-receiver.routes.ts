// POST /webhooks/shopify, Shopify's deliveries (webhook.service.ts): a scope of its own whose body parser keeps the raw
// bytes (the HMAC is over them) for every content type, answered in the connector's envelope. Hidden from the OpenAPI
// document: Shopify calls it, signed with the app's secret, not API clients (docs/connector-api.md describes it).
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { sendConnectorError } from '../connector.plugin.js';
import { WEBHOOK_PATH, type WebhookService } from './webhook.service.js';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Registered as a plugin of its own (app.ts): its content-type parser must not reach the other routes. */
export async function webhookReceiverRoutes(scope: App, webhooks: WebhookService): Promise<void> {
  scope.setErrorHandler(sendConnectorError);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  scope.post(WEBHOOK_PATH, { schema: { hide: true }, bodyLimit: 5 * 1024 * 1024 }, async (req) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = await webhooks.receive(
      {
        hmac: header(req.headers['x-shopify-hmac-sha256']),
        topic: header(req.headers['x-shopify-topic']),
        shopDomain: header(req.headers['x-shopify-shop-domain']),
        webhookId: header(req.headers['x-shopify-webhook-id']),
        triggeredAt: header(req.headers['x-shopify-triggered-at']),
      },
      raw,
    );
    return success(result.duplicate ? 'Webhook already received' : 'Webhook received', { outcome: result.outcome, duplicate: result.duplicate });
  });
}
