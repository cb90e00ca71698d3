// Start: config → database → app (start-up: the database prepared, the queue, the modules; server/start-app.ts) → listen, and a graceful shutdown that lets in-flight requests finish.
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { makeDataDirPrivate, privacyWarning } from './lib/private-files.js';
import { addDemoPictures, connectDemo, demoOrganization, seedDemo, type DemoBridge, type DemoSeed } from './server/demo-seed.js';
import { type StartedApp, startApp } from './server/start-app.js';
import { closeOnSignals } from './server/shutdown.js';
import { listenMetrics } from './server/metrics.js';

export async function startServer(config: Readonly<Config>): Promise<{ close: () => Promise<void>; url: string; metricsUrl: string | null }> {
  const started = Date.now();
  const database = await openDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir });
  let redis: Redis | null = null;
  let app: StartedApp | null = null;
  let metricsServer: Awaited<ReturnType<typeof listenMetrics>> | null = null;
  let seed: DemoSeed | null = null;
  let readyMs = 0;
  try {
    if (config.redisUrl) {
      // No offline queue: while Redis is away the rate limiters fall back to in-process counters instead of waiting.
      redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      redis.on('error', () => {});
      await redis.connect();
    }
    app = await startApp({ config, database, redis });
    // DATA_DIR private to this user (lib/private-files.ts): PGlite's open walked it; with PostgreSQL, its media and uploads.
    const privacy = privacyWarning(config.dataDir, database.privacy ?? makeDataDirPrivate(config.dataDir));
    if (privacy) app.log.warn(privacy);
    if (config.role !== 'worker' && config.seedDemo && (await app.services.organizations.count()) === 0) seed = await seedDemo(app.services);
    await app.listen({ port: config.port, host: config.host });
    // METRICS_PORT: /metrics on a listener of its own (and not on the main port).
    if (config.metricsEnabled && config.metricsPort !== null) {
      metricsServer = await listenMetrics(app.services.metrics, {
        host: config.metricsHost,
        port: config.metricsPort,
        token: config.metricsToken,
        limiter: app.services.metricsTokenLimiter,
        log: app.log,
        limits: config,
      });
    }
    readyMs = Date.now() - started; // serving HTTP from here; the workers below are background work
    // Roles worker and all run the queue's jobs and the delta poller; an api node only sends jobs.
    if (config.role !== 'api') await app.services.jobs.workers.start();
  } catch (err) {
    // Whatever was opened is closed again, so the lock file and connections do not outlive a failed start.
    await app?.close().catch(() => {});
    await metricsServer?.close().catch(() => {});
    redis?.disconnect();
    await database.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // The demo bridge needs the server listening (the connector reaches the PIM and the sandbox over HTTP); a failure
  // leaves the demo without it, never the server down.
  let bridge: DemoBridge | null = null;
  if (seed) await addDemoPictures(app.services, seed).catch((err: unknown) => app.log.warn({ err }, 'the demo products could not be given pictures'));
  if (seed)
    bridge = await connectDemo(app.services, seed, config.publicUrl).catch((err: unknown) => {
      app.log.warn({ err }, 'the demo shop could not be connected and pushed');
      return null;
    });
  const demo = seed || config.role === 'worker' ? null : await demoOrganization(app.services).catch(() => null);
  printWelcome(config, url, database.kind, { seed, bridge, demo }, readyMs);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await app.close(); // stops accepting, waits for in-flight requests; workers finish or release their jobs
      await metricsServer?.close();
      await redis?.quit().catch(() => {});
      await database.close();
    })());
  closeOnSignals(close, (signal) => app.log.info({ signal }, 'shutting down'));
  const metricsAddress = metricsServer?.server.address();
  const metricsUrl =
    metricsAddress && typeof metricsAddress === 'object'
      ? `http://${config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost}:${metricsAddress.port}`
      : null;
  return { close, url, metricsUrl };
}

function printWelcome(
  config: Readonly<Config>,
  url: string,
  kind: string,
  { seed, bridge, demo }: { seed: DemoSeed | null; bridge: DemoBridge | null; demo: { id: number; name: string } | null },
  ms: number,
): void {
  const lines = [
    '',
    `Pimbridge is running at ${url} (${kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}, role ${config.role}, ready in ${ms} ms)`,
  ];
  if (config.role === 'worker') {
    // A worker serves only /healthz and /readyz: the API, its docs and the quick start are the API nodes'.
    process.stdout.write(`${[...lines, `  Running jobs (concurrency ${config.syncConcurrency}); health: ${url}/healthz`].join('\n')}\n\n`);
    return;
  }
  lines.push(
    `  Console:     ${url}/  (sign in with an organization's API key and secret)`,
    `  API docs:    ${url}/docs`,
    `  Admin token: ${config.secretsGenerated ? config.adminToken : config.databaseUrl ? '(ADMIN_TOKEN)' : `in ${config.dataDir}/secrets.json`}`,
  );
  if (seed) {
    const key = `-H 'X-API-KEY: ${seed.apiKey}'`;
    lines.push(
      '',
      'A demo organization with ten sample products was created. Its API credentials (shown once; they also sign in to the console):',
      `  API key:    ${seed.apiKey}`,
      `  API secret: ${seed.apiSecret}`,
      '',
      'Try:',
      `  curl -s '${url}/api/products?limit=5' ${key}`,
      `  curl -s ${url}/api/products/${seed.firstProductId}/variants ${key}`,
      `  curl -s -X POST ${url}/api/products ${key} -H 'Content-Type: application/json' -d '{"name":"My first product","sku":"MY-001","price":"9.99"}'`,
    );
    if (bridge) {
      const bearer = `-H 'Authorization: Bearer ${bridge.apiToken}'`;
      lines.push(
        '',
        `The sandbox shop ${bridge.shopDomain} is connected to it and the products were pushed (${bridge.pushed} of ${bridge.pushed + bridge.failed});`,
        `${config.syncPollSeconds > 0 ? `changes in the PIM now reach the shop by themselves (every ${config.syncPollSeconds} s)` : 'the delta sync is off (SYNC_POLL_SECONDS=0)'}. Its connector token (admin scope, shown once):`,
        `  Connector token: ${bridge.apiToken}`,
        '',
        'Push a product and see the bridge status:',
        `  curl -s -X POST ${url}/api/products/push ${bearer} -H 'Content-Type: application/json' -d '{"id":${seed.firstProductId}}'`,
        `  curl -s ${url}/api/status ${bearer}`,
      );
    }
  } else {
    // The demo's key was shown once, at its first start: a new one signs in to it again (its catalogue and shop).
    if (demo)
      lines.push(
        '',
        `The demo organization "${demo.name}" (id ${demo.id}) is here. A new API key and secret to sign in to it:`,
        `  npx pimbridge key create --org ${demo.id}`,
      );
    lines.push(`  New credentials: npx pimbridge org create --name "My shop" && npx pimbridge key create --org <id>`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
