// The sandbox over HTTP: `POST /sandbox/shopify/{domain}/admin/api/{version}/graphql.json` (and the staged-upload and
// bulk-result routes of bulk.routes.ts, the media files of media.routes.ts), an encapsulated scope with
// its own not-found and error handlers answering in Shopify's shapes (never the PIM envelope).
import type { FastifyError, FastifyInstance } from 'fastify';
import { bulkRoutes } from './bulk.routes.js';
import { mediaRoutes } from './media.routes.js';
import { NOT_FOUND_BODY, UNAUTHORIZED_BODY, type SandboxGraphqlService } from './sandbox-graphql.service.js';

export const SANDBOX_PREFIX = '/sandbox/shopify';

/** Registered with `{ prefix: SANDBOX_PREFIX }`. */
export async function sandboxRoutes(scope: FastifyInstance, graphql: SandboxGraphqlService): Promise<void> {
  // Shopify also takes a bare GraphQL document as application/graphql.
  scope.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_req, body, done) => done(null, { query: body }));

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

  // The merchant uninstalls the app (the store's access token stands for the app): app/uninstalled goes to the store's
  // subscriptions (sandbox-webhooks.service.ts). The store and its token stay, so a test can install again.
  scope.post<{ Params: { domain: string } }>('/:domain/admin/app/uninstall', { schema: { hide: true } }, async (req, reply) => {
    const token = req.headers['x-shopify-access-token'];
    const store = await graphql.stores.find(req.params.domain);
    if (!store) return reply.code(404).type('application/json; charset=utf-8').send(NOT_FOUND_BODY);
    if (!graphql.stores.tokenMatches(store, typeof token === 'string' ? token : undefined))
      return reply.code(401).type('application/json; charset=utf-8').send(UNAUTHORIZED_BODY);
    const webhookIds = await graphql.webhooks.emit(store, 'APP_UNINSTALLED', {
      id: store.id,
      name: store.name,
      domain: store.domain,
      myshopify_domain: store.domain,
    });
    return reply.code(200).type('application/json; charset=utf-8').send({ uninstalled: true, webhook_ids: webhookIds });
  });

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

  // The media files' CDN route (media.routes.ts).
  await mediaRoutes(scope, graphql.media, graphql.stores);

  // Last: registering a child scope loads the routes declared so far, with the error handler set by then.
  await bulkRoutes(scope, graphql.bulk, graphql.stores);
}
