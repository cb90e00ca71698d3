// Scale-out: two `pimbridge serve --role worker` processes on one PostgreSQL database share 200 sync.product jobs,
// and each job is done exactly once. The API node (PIM, connector, built-in sandbox store) is an app in this process
// on the same database. Evidence: every job id appears in exactly one worker's "job completed" log line, exactly once,
// both workers took a share, every job completed on its first fetch (a second fetch would count a retry), and the
// sandbox store holds exactly one product per PIM product, each mapped once.
//
// PostgreSQL only: registered when TEST_DATABASE_URL is set. The embedded database (PGlite) opens in one process only,
// so two worker processes cannot share it: that case does not exist (role worker requires DATABASE_URL).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DeltaSyncRepository } from '../src/connector/sync/delta-sync.repository.js';
import { testDatabaseUrl } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { JOB } from '../src/jobs/job-types.js';
import { startApp } from '../src/server/start-app.js';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import type { ConnectorHarness } from './helpers/connector.js';
import { mappingsOf } from './helpers/connector-reads.js';
import { freePort } from './helpers/connector.js';
import { TEST_ADMIN_TOKEN, testConfig, type TestApp } from './helpers/harness.js';
import { jobRows, until } from './helpers/jobs.js';
import { CLI } from './helpers/cli-command.js';
import { sandboxData } from './helpers/sandbox-graphql.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const JOBS = 200;
const baseUrl = testDatabaseUrl();

interface Worker {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

if (baseUrl) {
  describe('two worker processes on one PostgreSQL (postgres)', () => {
    const dbName = `pimbridge_test_workers_${process.pid}_${randomBytes(3).toString('hex')}`;
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    const encryptionKey = randomBytes(32).toString('base64');
    let database: Database;
    let app: TestApp;
    const workers: Worker[] = [];

    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };

    before(async () => {
      await admin(`CREATE DATABASE ${dbName}`);
      database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
      await database.migrate();
      const port = await freePort();
      const env = {
        DATABASE_URL: url.toString(),
        ENCRYPTION_KEY: encryptionKey,
        METRICS_TOKEN: 'metrics-token-0123456789',
        SHOPIFY_SANDBOX: 'true',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
        ROLE: 'api',
      };
      app = await startApp({ config: testConfig(env), database, logger: false });
      await app.listen({ port, host: '127.0.0.1' });
    });

    after(async () => {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
      await app?.close();
      await database?.close();
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    });

    const inject = async (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method: method as never, url: path, payload: payload as never, headers });
      assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${res.body}`);
      return res.json();
    };

    const startWorker = (): Worker => {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: url.toString(),
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        ENCRYPTION_KEY: encryptionKey,
        METRICS_TOKEN: 'metrics-token-0123456789',
        PORT: '0',
        HOST: '127.0.0.1',
        CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
        SYNC_CONCURRENCY: '8',
        LOG_LEVEL: 'debug',
      };
      const child = spawn(process.execPath, [...CLI, 'serve', '--role', 'worker'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const w: Worker = { child, output: '', exited: new Promise((r) => child.on('close', (code) => r(code))) };
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (w.output += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (w.output += d));
      workers.push(w);
      return w;
    };

    it(`${JOBS} sync.product jobs: each done exactly once, shared by both workers`, { timeout: 240_000 }, async () => {
      // A sandbox shop with a roomy bucket (this test is about the queue, not the throttle) connected to a PIM account.
      const org = await inject('POST', '/admin/organizations', { name: 'Workers' }, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      const key = await inject('POST', `/admin/organizations/${org.id}/api-keys`, {}, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      const shop = await inject(
        'POST',
        '/admin/shops',
        { domain: 'two-workers.myshopify.com', platform: 'sandbox', organization_id: org.id },
        { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      );
      await inject(
        'PATCH',
        `/admin/shops/${shop.id}/sandbox`,
        { bucket_size: 1_000_000, restore_rate: 100_000 },
        { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      );
      const pimUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const connected = await inject('POST', '/api/connect', {
        shop_domain: 'two-workers.myshopify.com',
        pim_base_url: pimUrl,
        pim_api_key: key.api_key,
        pim_api_secret: key.api_secret,
      });
      const integrationId = connected.data.integration_id as number;
      const ids: number[] = [];
      for (let i = 1; i <= JOBS; i++) {
        const p = await inject(
          'POST',
          '/api/products',
          { name: `Worker product ${i}`, sku: `WK-${i}`, price: '9.99', status: 'active' },
          { 'x-api-key': key.api_key },
        );
        ids.push(p.data.id);
      }
      // The workers' delta poller must not queue these products as well: its watermark is put past them.
      await new DeltaSyncRepository(database.db).advanceWatermark(integrationId, new Date(Date.now() + 86_400_000), 0);

      await app.services.jobs.queue.sendMany(
        JOB.syncProduct,
        ids.map((pimProductId) => ({ data: { integrationId, pimProductId, reason: 'full' as const }, singletonKey: `${integrationId}:${pimProductId}` })),
      );
      const [a, b] = [startWorker(), startWorker()];
      await until(
        `all ${JOBS} jobs completed`,
        async () => {
          for (const w of [a, b]) if (w.child.exitCode !== null) throw new Error(`a worker exited:\n${w.output.slice(-3000)}`);
          const rows = await jobRows(database, JOB.syncProduct);
          return rows.length === JOBS && rows.every((r) => r.state === 'completed');
        },
        180_000,
        250,
      );

      // Graceful stop: both exit 0.
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      assert.deepEqual(await Promise.all([a.exited, b.exited]), [0, 0], `${a.output.slice(-2000)}\n${b.output.slice(-2000)}`);

      const rows = await jobRows(database, JOB.syncProduct);
      assert.ok(
        rows.every((r) => r.retry_count === 0),
        'every job completed on its first and only fetch',
      );
      const completedBy = (w: Worker) =>
        w.output
          .split('\n')
          .filter((l) => l.includes('"job completed"') && l.includes('"queue":"sync.product"'))
          .map((l) => JSON.parse(l).jobId as string);
      const [byA, byB] = [completedBy(a), completedBy(b)];
      assert.equal(byA.length + byB.length, JOBS, `a ran ${byA.length}, b ran ${byB.length}`);
      assert.deepEqual([...new Set([...byA, ...byB])].sort(), rows.map((r) => r.id).sort(), 'every job id exactly once across both');
      assert.ok(byA.length > 0 && byB.length > 0, `both workers took a share (a ${byA.length}, b ${byB.length})`);

      // The store, over its Admin GraphQL API: one product per PIM product.
      const graphql = `${pimUrl}/sandbox/shopify/two-workers.myshopify.com/admin/api/${ADMIN_API_VERSION}/graphql.json`;
      const store = await sandboxData(graphql, shop.access_token, '{ productsCount { count } products(first: 250) { nodes { handle } } }');
      const handles = (store.products.nodes as { handle: string }[]).map((p) => p.handle);
      assert.deepEqual([store.productsCount.count, new Set(handles).size], [JOBS, JOBS], 'one storefront product per PIM product');
      // The mappings, through the connector API: every one synced, each to a product of its own.
      const maps = await mappingsOf(
        {
          call: (method, url, token) =>
            app.inject({ method: method as never, url, headers: token ? { authorization: `Bearer ${token}` } : {} }) as ReturnType<ConnectorHarness['call']>,
        },
        connected.data.api_token,
        'synced',
      );
      assert.deepEqual([maps.length, new Set(maps.map((m) => m.storefront_product_id)).size], [JOBS, JOBS]);
    });
  });
}
