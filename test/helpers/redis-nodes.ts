// Two app instances over one database that share one Redis connection, as two nodes behind a load balancer would:
// the cases that check a limit is shared through Redis (only with TEST_REDIS_URL, see harness.ts).
import { Redis } from 'ioredis';
import type { Database } from '../../src/db/client.js';
import { startApp } from '../../src/server/start-app.js';
import { TEST_ADMIN_TOKEN, testConfig, testRedisUrl, type DatabaseTarget, type Tenant, type TestApp } from './harness.js';

/** Two app instances over one database that share one Redis connection, as two nodes behind a load balancer would. */
export interface TwoNodes {
  a: TestApp;
  b: TestApp;
  redis: Redis;
  database: Database;
  tenant(name: string): Promise<Tenant>;
  close(): Promise<void>;
}

export async function twoNodes(target: DatabaseTarget, env: Record<string, string>): Promise<TwoNodes> {
  const database = await target.open();
  await database.migrate();
  // The options main.ts uses for REDIS_URL.
  const redis = new Redis(testRedisUrl()!, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  await redis.connect();
  const config = testConfig(env);
  const apps: TestApp[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const app = await startApp({ config, database, redis, logger: false });
      apps.push(app);
      await app.ready();
    }
  } catch (err) {
    for (const app of apps) await app.close();
    redis.disconnect();
    await database.close();
    throw err;
  }
  const [a, b] = apps;
  const admin = (method: string, url: string, payload?: unknown) =>
    a.inject({ method: method as never, url, payload: payload as never, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  return {
    a,
    b,
    redis,
    database,
    async tenant(name) {
      const org = (await admin('POST', '/admin/organizations', { name })).json();
      const key = (await admin('POST', `/admin/organizations/${org.id}/api-keys`, {})).json();
      return { organizationId: org.id, apiKey: key.api_key, apiSecret: key.api_secret, keyId: key.id };
    },
    async close() {
      await a.close();
      await b.close();
      await redis.quit().catch(() => redis.disconnect());
      await database.close();
    },
  };
}
