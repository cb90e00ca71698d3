// buildApp: the whole HTTP application over built services, ready for inject() or listen(): the Fastify instance, its
// plugins and every module's routes. It starts nothing and never listens; start-up (start-app.ts) comes first.
import fastifyCookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { sendAdminError } from '../admin/admin.module.js';
import type { Config } from '../config.js';
import { sendConnectorError } from '../connector/connector.module.js';
import type { Database } from '../db/client.js';
import type { App } from '../http/app-type.js';
import { AppError, badRequest } from '../http/errors.js';
import { PathPatterns } from '../http/path-patterns.js';
import { sendPimError } from '../pim/pim.module.js';
import { consoleRoutes } from './console-static.js';
import { instrumentRequests, metricsRoute } from './metrics.js';
import { openapiOptions } from './openapi/document.js';
import { OneLinePerRequest } from './request-log.js';
import { BARE_ANSWER_HEADERS, installSecurityHeaders } from './security-headers.js';
import type { Services } from './services.js';
import { endUnusedConnectionsOnClose } from './unused-connections.js';
import { BodyRateWatchdog, slowClientServerOptions } from './slow-clients.js';
import { installValidation } from './validation.js';

export interface AppParts {
  config: Readonly<Config>;
  /** For /readyz (its ping and kind). */
  database: Pick<Database, 'ping' | 'kind'>;
  services: Services;
  /** The process's logger (Fastify's `loggerInstance`); null: none. */
  log: FastifyBaseLogger | null;
  /** Called on the new instance before anything is registered, so that its hooks cover every route (tests: the OpenAPI check). */
  instrument?: (app: App) => void;
}

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

/**
 * An error of a request no API scope took (an unknown route or method, a URL the router cannot read, a hook's refusal
 * on those), answered in the envelope of the API its path belongs to.
 */
function answerByPath(connectorPaths: PathPatterns) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0];
    if (connectorPaths.matches(path)) return sendConnectorError(err, req, reply);
    if (path === '/admin' || path.startsWith('/admin/')) return sendAdminError(err, req, reply);
    return sendPimError(err, req, reply);
  };
}

type AnswerByPath = ReturnType<typeof answerByPath>;

export async function buildApp(parts: AppParts): Promise<App & { services: Services }> {
  const connectorPaths = new PathPatterns();
  const sendByPath = answerByPath(connectorPaths);
  const app = createInstance(parts, sendByPath);
  parts.instrument?.(app as unknown as App);
  await installRequestHandling(app, parts);
  await registerRoutes(app, parts, connectorPaths, sendByPath);

  // Unknown routes answer 404 in the envelope of the API their path belongs to (a wrong method on a connector path in the
  // connector's, under /admin in the admin API's), the rest and errors outside the scoped handlers in the PIM envelope;
  // never with a stack trace.
  app.setNotFoundHandler((req, reply) => sendByPath(new AppError('not_found', `Route ${req.method} ${req.url.split('?')[0]} not found`), req, reply));
  app.setErrorHandler(sendByPath);

  return app as unknown as App & { services: Services };
}

/** The Fastify instance: logging, limits, proxies, request ids, and the router's own refusals in our envelopes. */
function createInstance({ config, log }: AppParts, sendByPath: AnswerByPath) {
  return Fastify({
    ...(log ? { loggerInstance: log } : { logger: false }),
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
}

type Instance = ReturnType<typeof createInstance>;

/**
 * What every request goes through, in this order: validation, security headers, the body's rate, cookies, JSON,
 * metrics, the console session (not on a worker node), the request id.
 */
async function installRequestHandling(app: Instance, { config, services }: AppParts): Promise<void> {
  installValidation(app);
  // Security headers first, so that every answer carries them (refusals by the hooks below included).
  installSecurityHeaders(app, { docsPrefix: '/docs' });
  const bodyRate = new BodyRateWatchdog(config, app.log);
  app.addHook('onRequest', (req, reply, done) => {
    bodyRate.watch(req.raw, reply.raw);
    done();
  });
  app.addHook('onClose', async () => bodyRate.close());
  endUnusedConnectionsOnClose(app);
  await app.register(fastifyCookie);
  // Fastify's JSON parser (prototype-poisoning checks included), except that an empty body is no body: clients that
  // send `Content-Type: application/json` on a DELETE or an argument-less POST are not refused for it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : parseJson(req, body as string, done),
  );
  if (config.metricsEnabled) instrumentRequests(app, services.metrics);
  if (config.role !== 'worker') services.modules.pim.installHooks(app as unknown as App);
  app.decorate('services', services);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Request-Id', req.id);
    done(null, payload);
  });

  for (const schema of services.modules.pim.sharedSchemas) app.addSchema(schema);
}

/** The routes: the OpenAPI document, health, /metrics, then (not on a worker node) the modules', the console, the sandbox. */
async function registerRoutes(app: Instance, parts: AppParts, connectorPaths: PathPatterns, sendByPath: AnswerByPath): Promise<void> {
  const { config, services } = parts;
  // A worker node (role worker) serves only /healthz and /readyz (and /metrics): its work is the queue's.
  const fullSurface = config.role !== 'worker';
  if (fullSurface) await app.register(swagger, openapiOptions(config));
  if (fullSurface) await app.register(swaggerUi, { routePrefix: '/docs' });
  if (fullSurface) app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  healthRoutes(app as unknown as App, parts.database);
  // Every role, worker included; with METRICS_PORT it is served by a listener of its own instead (main.ts).
  if (config.metricsEnabled && config.metricsPort === null)
    metricsRoute(app, services.metrics, { token: config.metricsToken, limiter: services.metricsTokenLimiter });

  if (fullSurface) {
    const root = app as unknown as App;
    await services.modules.admin.routes(root);
    await services.modules.pim.routes(root);
    await services.modules.connector.routes(root, connectorPaths);
    // The console's static page at `/` (server/console-static.ts).
    await app.register(async (scope) => consoleRoutes(scope as App, { dir: config.consoleDir, sendError: sendByPath }));
    // The built-in Shopify sandbox: a scope of its own whose answers and errors are in Shopify's shapes.
    const sandbox = services.sandbox;
    if (sandbox) await app.register(async (scope) => sandbox.routes(scope), { prefix: sandbox.prefix });
  }
}

/** Liveness and readiness probes, public, on every role. */
function healthRoutes(app: App, database: AppParts['database']): void {
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
}
