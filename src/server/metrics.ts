// GET /metrics (Prometheus text format) and the per-request instrumentation. /metrics is served either on the main
// port behind a bearer token, or on a listener of its own (METRICS_PORT), where the token is optional.
import Fastify, { type FastifyInstance } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import type { Metrics } from '../lib/metrics.js';

/** One histogram observation per request, labelled with the route's pattern (bounded), never the raw URL. */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeHttp(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** The route; `token` null: no token asked (a listener of its own, protected by where it is bound). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (token !== null) {
      const given = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      // A refusal says nothing of what is measured: no metric name in it.
      if (!given || !safeEqual(given, token)) return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Missing or invalid metrics token' });
    }
    return reply.type(metrics.contentType).send(await metrics.render());
  });
}

/** The listener of its own (METRICS_PORT): /metrics only, no logs, no other route. */
export async function listenMetrics(metrics: Metrics, options: { host: string; port: number; token: string | null }): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  metricsRoute(server, metrics, options.token);
  await server.listen({ host: options.host, port: options.port });
  return server;
}
