// Start: config → database (migrated) → app → listen, and a graceful shutdown that lets in-flight requests finish.
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDemo, type DemoSeed } from './admin/demo-seed.js';
import { buildApp } from './server/app.js';

export async function startServer(config: Readonly<Config>): Promise<{ close: () => Promise<void>; url: string }> {
  const started = Date.now();
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  let redis: Redis | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let seed: DemoSeed | null = null;
  try {
    await database.migrate();
    if (config.redisUrl) {
      // No offline queue: while Redis is away the rate limiters fall back to in-process counters instead of waiting.
      redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      redis.on('error', () => {});
      await redis.connect();
    }
    app = await buildApp({ config, database, redis });
    if (config.seedDemo && (await app.services.organizations.count()) === 0) seed = await seedDemo(app.services);
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Whatever was opened is closed again, so the lock file and connections do not outlive a failed start.
    await app?.close().catch(() => {});
    redis?.disconnect();
    await database.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  printWelcome(config, url, database.kind, seed, Date.now() - started);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await app.close(); // stops accepting, waits for in-flight requests
      await redis?.quit().catch(() => {});
      await database.close();
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      close().then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        () => process.exit(1),
      );
    });
  }
  return { close, url };
}

function printWelcome(config: Readonly<Config>, url: string, kind: string, seed: DemoSeed | null, ms: number): void {
  const lines = [
    '',
    `Pimbridge is running at ${url} (${kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}, ready in ${ms} ms)`,
    `  API docs:    ${url}/docs`,
    `  Admin token: ${config.secretsGenerated ? config.adminToken : config.databaseUrl ? '(ADMIN_TOKEN)' : `in ${config.dataDir}/secrets.json`}`,
  ];
  if (seed) {
    const key = `-H 'X-API-KEY: ${seed.apiKey}'`;
    lines.push(
      '',
      'A demo organization with ten sample products was created. Its API credentials (shown once):',
      `  API key:    ${seed.apiKey}`,
      `  API secret: ${seed.apiSecret}`,
      '',
      'Try:',
      `  curl -s '${url}/api/products?limit=5' ${key}`,
      `  curl -s ${url}/api/products/${seed.firstProductId}/variants ${key}`,
      `  curl -s -X POST ${url}/api/products ${key} -H 'Content-Type: application/json' -d '{"name":"My first product","sku":"MY-001","price":"9.99"}'`,
    );
  } else {
    lines.push(`  New credentials: npx pimbridge org create --name "My shop" && npx pimbridge key create --org <id>`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}
