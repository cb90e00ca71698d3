// GET /metrics (Prometheus text format) and the per-request instrumentation. /metrics is served either on the main
// port behind a bearer token, or on a listener of its own (METRICS_PORT), where the token is optional.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import type { Metrics } from '../lib/metrics.js';
import { checkTokenLimited, type RateLimiter } from '../lib/rate-limiter.js';
import { slowClientServerOptions, type SlowClientLimits } from './slow-clients.js';

/** One histogram observation per request, labelled with the route's pattern (bounded), never the raw URL. */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeHttp(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export interface MetricsAccess {
  /** null: no token asked (a listener of its own, protected by where it is bound). */
  token: string | null;
  /** Wrong tokens per client address (ADMIN_AUTH_RATE_LIMIT a minute); a right token takes no point. */
  limiter: RateLimiter;
  /** Where refused attempts are logged (at warn, with the address); default the request's logger. */
  log?: FastifyBaseLogger;
}

/** The route. Its answers are never cached (Cache-Control: no-store). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, access: MetricsAccess): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { token } = access;
    if (token !== null) {
      const given = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const check = await checkTokenLimited(access.limiter, req.ip, () => given !== undefined && safeEqual(given, token), access.log ?? req.log, 'metrics');
      // A refusal says nothing of what is measured: no metric name in it.
      if (!check.ok && check.limited) {
        return reply
          .code(429)
          .header('retry-after', String(check.retryAfterSeconds))
          .send({ error: `Too many wrong metrics tokens from this address: try again in ${check.retryAfterSeconds} s` });
      }
      if (!check.ok) return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Missing or invalid metrics token' });
    }
    return reply.type(metrics.contentType).send(await metrics.render());
  });
}

/** The listener of its own (METRICS_PORT): /metrics only, no request logs, no other route; the main port's time limits. */
export async function listenMetrics(
  metrics: Metrics,
  options: { host: string; port: number; limits: SlowClientLimits } & Required<MetricsAccess>,
): Promise<FastifyInstance> {
  const server = Fastify({ logger: false, ...slowClientServerOptions(options.limits) });
  server.addHook('onSend', async (_req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  metricsRoute(server, metrics, options);
  await server.listen({ host: options.host, port: options.port });
  return server;
}
