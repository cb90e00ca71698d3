// The sandbox over HTTP: `POST /sandbox/shopify/{domain}/admin/api/{version}/graphql.json` (and the staged-upload and
// bulk-result routes of bulk.routes.ts, the media files of media.routes.ts, the OAuth routes of oauth.routes.ts), an
// encapsulated scope with its own not-found and error handlers answering in Shopify's shapes (never the PIM envelope).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bulkRoutes } from './bulk.routes.js';
import { mediaRoutes } from './media.routes.js';
import { oauthRoutes } from './oauth.routes.js';
import { NOT_FOUND_BODY, UNAUTHORIZED_BODY, type SandboxGraphqlService } from './sandbox-graphql.service.js';
import type { SandboxStore } from './sandbox-store.repository.js';
import { COMPLIANCE_TOPICS, type ComplianceTopic } from './sandbox-webhooks.service.js';

export const SANDBOX_PREFIX = '/sandbox/shopify';

/** Registered with `{ prefix: SANDBOX_PREFIX }`. */
export async function sandboxRoutes(scope: FastifyInstance, graphql: SandboxGraphqlService): Promise<void> {
  // Shopify also takes a bare GraphQL document as application/graphql.
  scope.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_req, body, done) => done(null, { query: body }));

  graphqlRoute(scope, graphql);
  appRoutes(scope, graphql);
  shopifyShapedAnswers(scope, graphql);

  // The media files' CDN route (media.routes.ts).
  await mediaRoutes(scope, graphql.media, graphql.stores);

  // Each store's app: the authorization code grant, client credentials and refresh (oauth.routes.ts).
  await oauthRoutes(scope, graphql.oauth, graphql.stores);

  // Last: registering a child scope loads the routes declared so far, with the error handler set by then.
  await bulkRoutes(scope, graphql.bulk, graphql.stores);
}

/** The Admin GraphQL endpoint; a timeout fault holds its answer. */
function graphqlRoute(scope: FastifyInstance, graphql: SandboxGraphqlService): void {
  scope.post<{ Params: { domain: string; version: string } }>('/:domain/admin/api/:version/graphql.json', { schema: { hide: true } }, async (req, reply) => {
    const token = req.headers['x-shopify-access-token'];
    const answer = await graphql.handle({
      domain: req.params.domain,
      apiVersion: req.params.version,
      accessToken: typeof token === 'string' ? token : undefined,
      body: req.body,
      baseUrl: `${req.protocol}://${req.host}${SANDBOX_PREFIX}/${encodeURIComponent(req.params.domain)}`,
    });
    // A timeout fault: say nothing until the client gives up (its socket closes), or answer 504 after the hold.
    if (answer.hold) {
      const why = await graphql.hold(reply.raw, () => req.raw.socket.destroyed);
      if (why !== 'expired') {
        // The client is gone, or the server is stopping: drop the connection without an answer.
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
    }
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  });
}

/** The store, when the call's X-Shopify-Access-Token is one of its valid tokens; else the 404 or 401 is sent. */
async function authenticated(
  graphql: SandboxGraphqlService,
  req: FastifyRequest<{ Params: { domain: string } }>,
  reply: FastifyReply,
): Promise<SandboxStore | null> {
  const token = req.headers['x-shopify-access-token'];
  const store = await graphql.stores.find(req.params.domain);
  if (!store) {
    await reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND_BODY);
    return null;
  }
  if (!(await graphql.oauth.authenticate(store, typeof token === 'string' ? token : undefined))) {
    await reply.code(401).type('application/json; charset=utf-8').send(UNAUTHORIZED_BODY);
    return null;
  }
  return store;
}

/** What a merchant or Shopify does to the store's app, on a test's call: uninstall it, send a compliance webhook. */
function appRoutes(scope: FastifyInstance, graphql: SandboxGraphqlService): void {
  // The merchant uninstalls the app (the store's access token stands for the app): app/uninstalled goes to the store's
  // subscriptions (sandbox-webhooks.service.ts), and every OAuth and client credentials token of the app stops working
  // (docs/sandbox/oauth.md). The store and its legacy token stay, so a test can install again.
  scope.post<{ Params: { domain: string } }>('/:domain/admin/app/uninstall', { schema: { hide: true } }, async (req, reply) => {
    const store = await authenticated(graphql, req, reply);
    if (!store) return reply;
    const revoked = await graphql.oauth.revokeApp(store);
    const webhookIds = await graphql.webhooks.emit(store, 'APP_UNINSTALLED', {
      id: store.id,
      name: store.name,
      domain: store.domain,
      myshopify_domain: store.domain,
    });
    return reply.code(200).type('application/json; charset=utf-8').send({ uninstalled: true, revoked_tokens: revoked, webhook_ids: webhookIds });
  });

  // A test's trigger of a mandatory compliance webhook (customers/data_request, customers/redact, shop/redact): the
  // topic's payload, as https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance shows it, to the app's
  // compliance URL (store setting compliance_url, default {PUBLIC_URL}/webhooks/shopify), signed like every webhook. The
  // body may give `customer`, `orders_requested`, `orders_to_redact` and `data_request` instead of the examples'.
  scope.post<{ Params: { domain: string; group: string; action: string } }>(
    '/:domain/admin/app/compliance/:group/:action',
    { schema: { hide: true } },
    async (req, reply) => {
      const topic = `${req.params.group}/${req.params.action}`;
      if (!(COMPLIANCE_TOPICS as readonly string[]).includes(topic)) return reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND_BODY);
      const store = await authenticated(graphql, req, reply);
      if (!store) return reply;
      const origin = graphql.webhooks.origin;
      const uri = store.complianceUrl ?? (origin ? `${origin}/webhooks/shopify` : null);
      if (!uri) return reply.code(422).type('application/json; charset=utf-8').send({ errors: 'The app has no compliance URL (set compliance_url)' });
      const given = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
      const sent = await graphql.webhooks.deliver(store, topic as ComplianceTopic, uri, compliancePayload(topic as ComplianceTopic, store, given));
      if ('error' in sent) return reply.code(422).type('application/json; charset=utf-8').send({ errors: sent.error });
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send({ topic, uri, webhook_ids: [sent.webhookId] });
    },
  );
}

/** Held answers released on close, and every miss and error answered in Shopify's shapes (never the PIM envelope). */
function shopifyShapedAnswers(scope: FastifyInstance, graphql: SandboxGraphqlService): void {
  scope.addHook('onClose', async () => graphql.releaseHeld());
  scope.addHook('onClose', async () => graphql.webhooks.close());
  scope.addHook('preClose', async () => graphql.releaseHeld());

  scope.setNotFoundHandler((_req, reply) => reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND_BODY));
  scope.setErrorHandler((error: FastifyError, req, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) req.log.error({ err: error }, 'sandbox request failed');
    const message = status === 500 ? 'Internal Server Error' : status === 413 ? 'Payload Too Large' : status === 415 ? 'Unsupported Media Type' : 'Bad Request';
    // A body that is not JSON is what Shopify calls a missing query.
    const body = status === 400 ? { errors: { query: 'Required parameter missing or invalid' } } : { errors: message };
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
}

/**
 * The compliance topics' payloads, field for field as https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance
 * shows them: customers/data_request {shop_id, shop_domain, orders_requested, customer {id, email, phone}, data_request
 * {id}}, customers/redact {shop_id, shop_domain, customer {id, email, phone}, orders_to_redact}, shop/redact {shop_id,
 * shop_domain} (sent 48 hours after an uninstall by Shopify; here when asked).
 */
export function compliancePayload(topic: ComplianceTopic, store: Pick<SandboxStore, 'id' | 'domain'>, given: Record<string, unknown>): Record<string, unknown> {
  const shop = { shop_id: store.id, shop_domain: store.domain };
  if (topic === 'shop/redact') return shop;
  const customer = given.customer ?? { id: 191167, email: 'john@example.com', phone: '555-625-1199' };
  if (topic === 'customers/redact') return { ...shop, customer, orders_to_redact: given.orders_to_redact ?? [299938, 280263, 220458] };
  return {
    ...shop,
    orders_requested: given.orders_requested ?? [299938, 280263, 220458],
    customer,
    data_request: given.data_request ?? { id: 9999 },
  };
}
