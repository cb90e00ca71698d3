// buildApp: the whole HTTP application, ready for inject() or listen(); it never listens itself.
import fastifyCookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { adminPlugin, sendAdminError } from '../admin/admin.routes.js';
import { connectorPlugin, sendConnectorError } from '../connector/connector.plugin.js';
import { installRoutes } from '../connector/shop-auth/install.routes.js';
import { webhookReceiverRoutes } from '../connector/webhooks/webhook-receiver.routes.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { mediaFileRoutes } from '../pim/media/media.routes.js';
import { sendPimError, pimPlugin } from '../pim/pim.plugin.js';
import { PimErrorEnvelope } from '../pim/pim.schemas.js';
import type { App } from '../http/app-type.js';
import { sandboxMigrations } from '../sandbox/sandbox.module.js';
import { Product } from '../pim/products/product.schemas.js';
import { Variant } from '../pim/variants/variant.schemas.js';
import { ProductWithIncludes } from '../pim/products/product-with-includes.schema.js';
import { AppError, badRequest } from '../http/errors.js';
import { createServices, type ServiceOverrides, type Services } from './services.js';
import { PgBossQueue, type QueueOptions } from '../jobs/queue.js';
import { installValidation } from './validation.js';
import { openapiOptions } from './openapi/document.js';
import { Metrics } from '../lib/metrics.js';
import { instrumentRequests, metricsRoute } from './metrics.js';
import { loggerOptions } from '../lib/logging.js';
import { OneLinePerRequest } from './request-log.js';
import { PathPatterns } from '../http/path-patterns.js';
import { installSessionHook, sessionRoutes } from '../pim/session/session.routes.js';
import { consoleRoutes } from './console-static.js';
import { BodyRateWatchdog, slowClientServerOptions } from './slow-clients.js';
import { BARE_ANSWER_HEADERS, installSecurityHeaders } from './security-headers.js';

export interface AppDeps {
  config: Readonly<Config>;
  database: Database;
  redis?: Redis | null;
  /** Fastify logger options; defaults to config.logFormat at config.logLevel with secrets redacted (lib/logging.ts). */
  logger?: FastifyServerOptions['logger'];
  /** Job queue settings beyond the config (tests: a short poll interval). */
  queue?: Partial<QueueOptions>;
  /** Collaborators put in place of the defaults when the services are built (tests: a storefront double, short polls). */
  services?: ServiceOverrides;
  /** Called on the new instance before anything is registered, so that its hooks cover every route (tests: the OpenAPI check). */
  instrument?: (app: App) => void;
}

/** Running jobs get this long to finish when the app closes; then they go back to the queue. */
const WORKER_STOP_MS = 7_000;

export { REDACTED_PATHS } from '../lib/logging.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * TRUST_PROXY in Fastify's terms. A hop count is a function of ours: Fastify 5's own number form trusts nobody (it
 * cannot tell a proxy from a client that connects directly, so keep the nodes reachable only through the proxies when
 * counting hops, or list the proxies' addresses instead).
 */
function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === null) return false;
  if ('hops' in trust) return (_address, hop) => hop < trust.hops;
  return [...trust.addresses];
}

export async function buildApp(deps: AppDeps): Promise<App & { services: Services }> {
  const { config, database } = deps;
  const connectorPaths = new PathPatterns();
  /**
   * An error of a request no API scope took (an unknown route or method, a URL the router cannot read, a hook's refusal
   * on those), answered in the envelope of the API its path belongs to.
   */
  const sendByPath = (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    if (connectorPaths.matches(path)) return sendConnectorError(err, req, reply);
    if (path === '/admin' || path.startsWith('/admin/')) return sendAdminError(err, req, reply);
    return sendPimError(err, req, reply);
  };
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    // Slow clients: header and keep-alive time limits (the body's minimum rate is the watchdog below).
    ...slowClientServerOptions(config),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    logController: new OneLinePerRequest(config.logFormat === 'pretty'),
    // The router's own refusals (a bad percent-encoding, a path parameter over 100 characters) in our envelopes too.
    frameworkErrors: (err, req, reply) =>
      sendByPath(
        badRequest(
          err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? 'A path segment is longer than 100 characters'
            : 'The URL is not valid: a percent-encoding in it is malformed',
        ),
        req,
        // No hook runs before these: the security headers are set here.
        reply.headers(BARE_ANSWER_HEADERS),
      ),
  }).withTypeProvider<TypeBoxTypeProvider>();

  deps.instrument?.(app as unknown as App);
  installValidation(app);
  // Security headers first, so that every answer carries them (refusals by the hooks below included).
  await installSecurityHeaders(app, { docsPrefix: '/docs' });
  const bodyRate = new BodyRateWatchdog(config, app.log);
  app.addHook('onRequest', (req, reply, done) => {
    bodyRate.watch(req.raw, reply.raw);
    done();
  });
  app.addHook('onClose', async () => bodyRate.close());
  await app.register(fastifyCookie);
  // Fastify's JSON parser (prototype-poisoning checks included), except that an empty body is no body: clients that
  // send `Content-Type: application/json` on a DELETE or an argument-less POST are not refused for it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : parseJson(req, body as string, done),
  );
  // The queue is there for sending on every node (schema and queues made at start); workers start separately.
  const metrics = new Metrics();
  const queue = new PgBossQueue(
    database.executor,
    { retryLimit: config.syncRetryLimit, retryDelaySeconds: config.syncRetryDelaySeconds, expireInSeconds: config.syncJobExpireSeconds, ...deps.queue },
    app.log,
    metrics,
  );
  await queue.start();
  // The sandbox's own tables, where it runs (idempotent; `pimbridge migrate` applies them too when it is on).
  if (config.shopifySandbox) await database.migrate(sandboxMigrations);
  // A worker node (role worker) serves only /healthz and /readyz: its work is the queue's.
  const fullSurface = config.role !== 'worker';
  const services = createServices(config, database, deps.redis ?? null, { queue, databaseKind: database.kind, log: app.log }, metrics, deps.services);
  // Read at each scrape, not counted on the hot paths.
  metrics.sources.queueDepth = () => queue.depth();
  metrics.sources.shopBudgets = () =>
    [...services.storefront.budgets.domains()].map((shop) => ({ shop, available: services.storefront.budgets.available(shop) ?? 0 }));
  if (database.poolUse) metrics.watchPool(database.poolUse);
  if (config.metricsEnabled) instrumentRequests(app, metrics);
  await services.credentials.listen();
  // Console sessions: a cookie on an /api request stands for its organization (pim/session); registered on the root so
  // that every API scope sees it.
  if (fullSurface) installSessionHook(app as unknown as App, services.pim.sessions);
  // Integrations made before their PIM key was fingerprinted get it now (the console finds an account's integrations by it).
  if (fullSurface) await services.connector.integrations.fillPimKeyHashes();
  app.decorate('services', services);
  // Before the database closes: workers stop (running jobs finish or go back to the queue), then the queue.
  app.addHook('onClose', async () => {
    await services.jobs.workers.stop(WORKER_STOP_MS);
    await queue.stop(0);
  });

  app.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
  app.addHook('onClose', async () => {
    services.throttleReport?.close();
    await services.credentials.close();
  });

  app.addSchema(PimErrorEnvelope);
  app.addSchema(Product);
  app.addSchema(Variant);
  app.addSchema(ProductWithIncludes);

  if (fullSurface) await app.register(swagger, openapiOptions(config));
  if (fullSurface) await app.register(swaggerUi, { routePrefix: '/docs' });
  if (fullSurface) app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Health'],
        security: [],
        operationId: 'getHealth',
        summary: 'The process is up',
        description: 'Liveness probe: answers 200 {status: "ok"} while the process serves requests; it checks nothing else. Public, no credentials.',
        response: { 200: Type.Object({ status: Type.String({ enum: ['ok'] }) }) },
      },
    },
    async () => ({
      status: 'ok',
    }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Health'],
        security: [],
        operationId: 'getReadiness',
        summary: 'The database answers',
        description:
          'Readiness probe: 200 {status: "ready"} when the database answers a ping, 503 {status: "unavailable"} when it does not; both name the database kind. Public, no credentials.',
        response: {
          200: Type.Object({ status: Type.String({ enum: ['ready'] }), database: Type.String() }),
          503: Type.Object({ status: Type.String({ enum: ['unavailable'] }), database: Type.String() }),
        },
      },
    },
    async (_req, reply) => {
      const up = await database.ping();
      reply.code(up ? 200 : 503);
      return { status: up ? 'ready' : 'unavailable', database: database.kind };
    },
  );
  // Every role, worker included; with METRICS_PORT it is served by a listener of its own instead (main.ts).
  if (config.metricsEnabled && config.metricsPort === null) metricsRoute(app, metrics, { token: config.metricsToken, limiter: services.tokenLimiters.metrics });

  if (fullSurface)
    await app.register(async (scope) =>
      adminPlugin(scope as App, { adminToken: config.adminToken, limiter: services.tokenLimiters.admin, admin: services.admin, shops: services.shops }),
    );
  if (fullSurface) await app.register(async (scope) => pimPlugin(scope as App, services.pim));
  if (fullSurface) await app.register(async (scope) => connectorPlugin(scope as App, services.connector, connectorPaths));
  // Installing the app on a shop (GET /shopify/install, /shopify/callback): pages the merchant's browser goes through.
  if (fullSurface)
    await app.register(async (scope) =>
      installRoutes(scope as App, {
        installs: services.connector.installs,
        secure: (req) => req.protocol === 'https' || config.publicUrl.startsWith('https:'),
      }),
    );
  // Shopify's webhook deliveries (POST /webhooks/shopify): a scope of its own, whose parser keeps the raw body for the HMAC.
  if (fullSurface) await app.register(async (scope) => webhookReceiverRoutes(scope as App, services.connector.webhooks));
  // The console's sign-in (/api/session) and its static page at `/` (server/console-static.ts).
  if (fullSurface)
    await app.register(async (scope) => {
      scope.setErrorHandler(sendPimError);
      sessionRoutes(scope as App, {
        sessions: services.pim.sessions,
        limiter: services.pim.writeLimiter,
        ttlSeconds: config.consoleSessionHours * 3600,
        secure: (req) => req.protocol === 'https' || config.publicUrl.startsWith('https:'),
      });
    });
  if (fullSurface)
    await app.register(async (scope) =>
      consoleRoutes(scope as App, {
        dir: config.consoleDir,
        sendError: sendByPath,
      }),
    );
  // The built-in Shopify sandbox: a scope of its own whose answers and errors are in Shopify's shapes.
  const sandbox = services.sandbox;
  if (fullSurface && sandbox) await app.register(async (scope) => sandbox.routes(scope), { prefix: sandbox.prefix });
  // Public, outside the PIM scope (no API key, no rate limit): storefronts fetch product images by URL.
  if (fullSurface)
    await app.register(async (scope) => {
      scope.setErrorHandler(sendPimError);
      mediaFileRoutes(scope as App, services.pim.media);
    });

  // Unknown routes answer 404 in the envelope of the API their path belongs to (a wrong method on a connector path in the
  // connector's, under /admin in the admin API's), the rest and errors outside the scoped handlers in the PIM envelope;
  // never with a stack trace.
  app.setNotFoundHandler((req, reply) => sendByPath(new AppError('not_found', `Route ${req.method} ${req.url.split('?')[0]} not found`), req, reply));
  app.setErrorHandler(sendByPath);

  return app as unknown as App & { services: Services };
}
