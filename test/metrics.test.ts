// GET /metrics: the token (401 without it, no metric name in the refusal), the Prometheus text format, and that the
// metrics move: HTTP requests by route pattern, queue depth and job outcomes, pushes and products per integration,
// Shopify cost / throttle waits / THROTTLED answers per shop, the database pool, process metrics. Also the worker
// role and METRICS_PORT (a listener of its own, started by `serve`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Response as InjectResponse } from 'light-my-request';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import { syncProductHandler } from '../src/connector/sync/sync-product.handler.js';
import { JOB } from '../src/jobs/job-types.js';
import type { JobContext } from '../src/jobs/job-runner.js';
import { Metrics } from '../src/lib/metrics.js';
import { startServer } from '../src/main.js';
import { startApp } from '../src/server/start-app.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, testConfig, type Harness, type Tenant } from './helpers/harness.js';
import { until } from './helpers/jobs.js';
import { pimProduct } from './helpers/push.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format strictly: every line a comment, a HELP/TYPE line or a sample of a declared family. */
function parse(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        assert.match(meta[3], /^(counter|gauge|histogram|summary|untyped)$/, line);
        types.set(meta[2], meta[3]);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const rest = (m[2] ?? '').replace(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g, (_all, k: string, v: string) => {
      labels[k] = v;
      return '';
    });
    assert.equal(rest, '', `malformed labels: ${line}`);
    // Prometheus reads values with Go's ParseFloat: NaN and Inf in any case (prom-client writes "Nan").
    const value = /^nan$/i.test(m[3]) ? NaN : Number(m[3].replace(/^([+-]?)inf$/i, '$1Infinity'));
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(m[3]), line);
    const family = m[1].replace(/_(bucket|sum|count|total|created)$/, '');
    assert.ok(types.has(m[1]) || types.has(family), `sample of an undeclared family: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return { types, samples };
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

const METRIC_NAME = /pimbridge_|process_|nodejs_|# (HELP|TYPE)/;

function assertRefused(res: InjectResponse | { statusCode: number; body: string; headers: Record<string, unknown> }): void {
  assert.equal(res.statusCode, 401, res.body);
  assert.deepEqual(JSON.parse(res.body), { error: 'Missing or invalid metrics token' });
  assert.equal(res.headers['www-authenticate'], 'Bearer');
  assert.doesNotMatch(res.body, METRIC_NAME);
}

describe('METRICS_* settings', () => {
  const base = { ADMIN_TOKEN: 'a'.repeat(16), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), DATABASE_URL: 'postgres://u@127.0.0.1/db' };

  it('defaults: /metrics on the main port, behind the admin token in embedded mode; METRICS_TOKEN takes its place', () => {
    const { DATABASE_URL: _, ...embedded } = base;
    const c = loadConfig(embedded);
    assert.deepEqual([c.metricsPort, c.metricsToken, c.metricsHost], [null, 'a'.repeat(16), '127.0.0.1']);
    assert.equal(loadConfig({ ...embedded, METRICS_TOKEN: 'm'.repeat(20) }).metricsToken, 'm'.repeat(20));
    assert.equal(loadConfig({ ...base, METRICS_TOKEN: 'm'.repeat(20) }).metricsToken, 'm'.repeat(20));
  });

  it('with DATABASE_URL, /metrics on the main port needs METRICS_TOKEN: the admin token is not its default there', () => {
    assert.throws(
      () => loadConfig(base),
      (err: Error) => err instanceof ConfigError && err.message.startsWith('METRICS_TOKEN is required when DATABASE_URL is set'),
    );
  });

  it('METRICS_PORT: a listener of its own, without a token unless METRICS_TOKEN is set', () => {
    const own = loadConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
    assert.deepEqual([own.metricsPort, own.metricsToken, own.metricsHost], [9464, null, '0.0.0.0']);
    assert.equal(loadConfig({ ...base, METRICS_PORT: '9464', METRICS_TOKEN: 'm'.repeat(16) }).metricsToken, 'm'.repeat(16));
  });

  it('refuses a short token, a bad or clashing port, and METRICS_HOST without METRICS_PORT', () => {
    for (const [env, message] of [
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
      [{ METRICS_PORT: 'x' }, 'METRICS_PORT must be an integer between 0 and 65535, got "x"'],
      [{ METRICS_PORT: '8080' }, 'METRICS_PORT must differ from PORT (8080)'],
      [{ METRICS_HOST: '0.0.0.0' }, 'METRICS_HOST needs METRICS_PORT: without it /metrics is served on PORT'],
    ] as const) {
      assert.throws(
        () => loadConfig({ ...base, ...env }),
        (err: Error) => err instanceof ConfigError && err.message === message,
      );
    }
  });
});

describe('Shopify metrics per shop (adapter with a scripted shop)', () => {
  it('counts cost spent, throttle waits and THROTTLED answers (in a 200 and as a 429)', async () => {
    const status = (available: number) => ({ maximumAvailable: 100, currentlyAvailable: available, restoreRate: 50 });
    const locations = {
      locations: { nodes: [{ id: 'gid://shopify/Location/1', name: 'Main', isActive: true }], pageInfo: { hasNextPage: false, endCursor: null } },
    };
    const answers: [number, unknown][] = [
      [
        200,
        {
          errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
          extensions: { cost: { requestedQueryCost: 9, actualQueryCost: null, throttleStatus: status(0) } },
        },
      ],
      [200, { data: locations, extensions: { cost: { requestedQueryCost: 9, actualQueryCost: 4, throttleStatus: status(96) } } }],
      [429, { errors: 'Throttled' }],
      [200, { data: locations, extensions: { cost: { requestedQueryCost: 9, actualQueryCost: 5, throttleStatus: status(91) } } }],
    ];
    const fetch = (async () => {
      const [code, body] = answers.shift()!;
      return new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    let now = 1_000_000;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms), random: () => 0 };
    const metrics = new Metrics();
    const adapter = new ShopifyAdapter({ fetch, clock, metrics });
    const shop = { domain: 'scripted.myshopify.com', accessToken: 'shpat_x', apiBaseUrl: 'http://127.0.0.1:9' };
    await adapter.locations(shop);
    // Read again: the bare 429 drains the known bucket, so the retry waits for it to restore.
    await adapter.locations(shop, { fresh: true });
    assert.equal(answers.length, 0);

    const { samples } = parse(await metrics.render());
    const s = { shop: shop.domain };
    assert.equal(value(samples, 'pimbridge_shopify_throttled_total', s), 2);
    assert.equal(value(samples, 'pimbridge_shopify_query_cost_total', s), 9);
    assert.equal(value(samples, 'pimbridge_shopify_throttle_waits_total', s), 2);
    assert.ok(value(samples, 'pimbridge_shopify_throttle_wait_seconds_total', s)! > 0);
    assert.equal(value(samples, 'pimbridge_shopify_cost_available', s), undefined, 'no budget source wired to this Metrics');
  });
});

describe('products synced by sync.product jobs', () => {
  it('counts synced and failed outcomes per integration; a skipped product is neither', async () => {
    const metrics = new Metrics();
    const outcomes = [
      { status: 'synced', method: 'create', storefrontProductId: 1 },
      { status: 'failed', error: 'refused' },
      { status: 'skipped', reason: 'inactive' },
    ] as const;
    let calls = 0;
    const handler = syncProductHandler({ push: { syncProduct: async () => outcomes[calls++] }, metrics });
    const job = (finalAttempt: boolean) =>
      ({
        id: 'j',
        name: JOB.syncProduct,
        data: { integrationId: 7, pimProductId: 1, reason: 'delta' },
        retryCount: 0,
        retryLimit: 0,
        finalAttempt,
        signal: new AbortController().signal,
      }) as JobContext<typeof JOB.syncProduct>;
    for (let i = 0; i < outcomes.length; i++) await handler(job(true));
    // A transient failure counts only on the last try.
    const failing = syncProductHandler({ push: { syncProduct: async () => Promise.reject(new Error('PIM away')) }, metrics });
    await assert.rejects(failing(job(false)));
    await assert.rejects(failing(job(true)));
    const { samples } = parse(await metrics.render());
    assert.equal(value(samples, 'pimbridge_sync_products_total', { integration_id: '7', source: 'job', outcome: 'synced' }), 1);
    assert.equal(value(samples, 'pimbridge_sync_products_total', { integration_id: '7', source: 'job', outcome: 'failed' }), 2);
  });
});

for (const target of databaseTargets()) {
  describe(`GET /metrics (${target.name})`, () => {
    let h: Harness;
    let tenant: Tenant;
    const scrape = async (token: string | null = TEST_ADMIN_TOKEN) =>
      h.app.inject({ method: 'GET', url: '/metrics', headers: token === null ? {} : { authorization: `Bearer ${token}` } }) as Promise<InjectResponse>;
    const samples = async () => {
      const res = await scrape();
      assert.equal(res.statusCode, 200, res.body);
      return parse(res.body).samples;
    };

    before(async () => {
      h = await harness(target);
      tenant = await h.tenant();
    });
    after(async () => h.close());

    it('without the token, or with a wrong one: 401, and no metric name in the answer', async () => {
      assertRefused(await scrape(null));
      assertRefused(await scrape('wrong-token-0123456789'));
      assertRefused(await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Basic ${TEST_ADMIN_TOKEN}` } }));
      assertRefused(await h.app.inject({ method: 'GET', url: '/metrics?x=1', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` } }));
    });

    it('with the token: the Prometheus text format, with process metrics', async () => {
      const res = await scrape();
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      const { types, samples: all } = parse(res.body);
      assert.equal(types.get('pimbridge_http_request_duration_seconds'), 'histogram');
      assert.equal(types.get('pimbridge_jobs_total'), 'counter');
      assert.equal(types.get('pimbridge_queue_jobs'), 'gauge');
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        assert.ok(value(all, name)! >= 0, name);
      }
    });

    it('HTTP requests by route pattern, method and status, never by raw URL; unknown routes share one label', async () => {
      const created = await h.as(tenant)('POST', '/api/products', { name: 'Measured', sku: `M-${target.name}`, price: '1.00' });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().data.id;
      const key = { method: 'GET', route: '/api/products/:id', status_code: '200' };
      const before = value(await samples(), 'pimbridge_http_request_duration_seconds_count', key) ?? 0;
      for (let i = 0; i < 3; i++) assert.equal((await h.as(tenant)('GET', `/api/products/${id}`)).statusCode, 200);
      await h.as(tenant)('GET', '/no/such/route/1');
      await h.as(tenant)('GET', '/no/such/route/2');
      const after = await samples();
      assert.equal(value(after, 'pimbridge_http_request_duration_seconds_count', key), before + 3);
      assert.equal(value(after, 'pimbridge_http_request_duration_seconds_bucket', { ...key, le: '+Inf' }), before + 3);
      assert.ok(value(after, 'pimbridge_http_request_duration_seconds_sum', key)! > 0);
      assert.equal(value(after, 'pimbridge_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' }), 2);
      const routes = new Set(after.filter((s) => s.name.startsWith('pimbridge_http_')).map((s) => s.labels.route));
      assert.ok(![...routes].some((r) => r.includes(String(id)) || r.includes('/no/such')), [...routes].join(', '));
    });

    it('queue depth per job type and state, and job outcomes per job type', async () => {
      const depth = async (state: string) => value(await samples(), 'pimbridge_queue_jobs', { queue: JOB.syncPoll, state });
      for (const queue of Object.values(JOB))
        for (const state of ['created', 'retry', 'active'])
          assert.ok(value(await samples(), 'pimbridge_queue_jobs', { queue, state }) !== undefined, `${queue} ${state}`);
      const waiting = (await depth('created'))!;
      const queue = h.app.services.jobs.queue;
      await queue.send(JOB.syncPoll, { integrationId: 900_001 }, { singletonKey: '900001' });
      await queue.send(JOB.syncPoll, { integrationId: 900_002 }, { singletonKey: '900002' });
      assert.equal(await depth('created'), waiting + 2);

      // sync.poll retries once: the first failure is a retry, the second (its last try) a failure.
      queue.work(
        JOB.syncPoll,
        async (job) => {
          if (job.data.integrationId === 900_002) throw new Error('the PIM is away');
        },
        { concurrency: 2 },
      );
      try {
        const outcome = async (o: string) => value(await samples(), 'pimbridge_jobs_total', { queue: JOB.syncPoll, outcome: o }) ?? 0;
        await until('a completed sync.poll', async () => (await outcome('completed')) >= 1);
        await until('a retried sync.poll', async () => (await outcome('retry')) >= 1);
        const all = await samples();
        assert.equal(value(all, 'pimbridge_jobs_total', { queue: JOB.syncPoll, outcome: 'completed' }), 1);
        assert.equal(value(all, 'pimbridge_job_duration_seconds_count', { queue: JOB.syncPoll }), 2);
        assert.equal(value(all, 'pimbridge_jobs_total', { queue: JOB.syncProduct, outcome: 'completed' }), undefined);
      } finally {
        await queue.stopWorkers(1_000);
      }
    });

    it(target.name === 'postgres' ? 'the PostgreSQL pool: size, open, idle and waiting connections' : 'PGlite has no pool: no pool metrics', async () => {
      const all = await samples();
      if (target.name === 'postgres') {
        assert.equal(value(all, 'pimbridge_db_pool_max'), 10);
        assert.ok(value(all, 'pimbridge_db_pool_connections')! >= 1);
        assert.ok(value(all, 'pimbridge_db_pool_idle')! <= value(all, 'pimbridge_db_pool_connections')!);
        // Queries of this very scrape may be waiting for a connection being opened.
        assert.ok(value(all, 'pimbridge_db_pool_waiting')! >= 0);
      } else {
        assert.equal(all.filter((s) => s.name.startsWith('pimbridge_db_pool')).length, 0);
      }
    });

    it('a worker node serves /metrics too (behind the token)', async () => {
      const config = testConfig({ DATABASE_URL: 'postgres://user@127.0.0.1:5432/db', ROLE: 'worker', METRICS_TOKEN: 'metrics-token-0123456789' });
      const worker = await startApp({ config, database: h.database, logger: false });
      try {
        assertRefused(await worker.inject({ method: 'GET', url: '/metrics' }));
        assertRefused(await worker.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }));
        const res = await worker.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
        assert.equal(res.statusCode, 200);
        assert.ok(value(parse(res.body).samples, 'pimbridge_queue_jobs', { queue: JOB.syncProduct, state: 'created' }) !== undefined);
      } finally {
        await worker.close();
      }
    });

    it('METRICS_ENABLED=false: no /metrics, and requests are answered as before', async () => {
      assert.equal(
        loadConfig({
          ADMIN_TOKEN: 'a'.repeat(16),
          ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
          DATABASE_URL: 'postgres://u@127.0.0.1/db',
          METRICS_TOKEN: 'metrics-token-0123456789',
        }).metricsEnabled,
        true,
      );
      const app = await startApp({ config: testConfig({ METRICS_ENABLED: 'false' }), database: h.database, logger: false });
      try {
        const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        assert.equal(res.statusCode, 404);
        assert.doesNotMatch(res.body, /pimbridge_/);
        assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      } finally {
        await app.close();
      }
    });

    it('with METRICS_PORT the main port has no /metrics', async () => {
      const app = await startApp({ config: testConfig({ METRICS_PORT: '0' }), database: h.database, logger: false });
      try {
        assert.equal((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode, 404);
      } finally {
        await app.close();
      }
    });
  });

  describe(`push and Shopify metrics through the sandbox (${target.name})`, () => {
    let h: ConnectorHarness;
    let token: string;
    let tenant: Tenant;
    let integrationId: number;
    const domain = 'metrics-e2e.myshopify.com';

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      tenant = await h.tenant();
      assert.equal((await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId })).statusCode, 201);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      ({ api_token: token, integration_id: integrationId } = res.json().data);
    });
    after(async () => h.close());

    it('pushes and products per integration, cost spent and budget per shop', async () => {
      const ok = await pimProduct(h, tenant, 'Metered Boot', 1);
      const res = await h.call('POST', '/api/products/push', token, {
        products: [{ id: ok }, { id: 880_002, sku: 'BAD-2', name: '', status: 'active', variants: [] }],
      });
      assert.equal(res.statusCode, 207, res.body);
      assert.equal((await h.call('POST', '/api/products/push', token, { id: ok })).statusCode, 200);

      const scraped = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      const all = parse(scraped.body).samples;
      const i = String(integrationId);
      assert.equal(value(all, 'pimbridge_pushes_total', { integration_id: i, outcome: 'partial' }), 1);
      assert.equal(value(all, 'pimbridge_pushes_total', { integration_id: i, outcome: 'success' }), 1);
      assert.equal(value(all, 'pimbridge_sync_products_total', { integration_id: i, source: 'push', outcome: 'synced' }), 2);
      assert.equal(value(all, 'pimbridge_sync_products_total', { integration_id: i, source: 'push', outcome: 'failed' }), 1);
      assert.ok(value(all, 'pimbridge_shopify_query_cost_total', { shop: domain })! > 0);
      const available = value(all, 'pimbridge_shopify_cost_available', { shop: domain })!;
      assert.ok(available > 0, String(available));
    });
  });
}

describe('`serve` with METRICS_PORT', () => {
  it('serves /metrics on a listener of its own (token only when METRICS_TOKEN is set), not on the main port', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-metrics-'));
    const write = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write; // the welcome banner
    let server: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      const env = {
        DATA_DIR: dataDir,
        PORT: '0',
        METRICS_PORT: '0',
        SEED_DEMO: 'false',
        SHOPIFY_SANDBOX: 'false',
        LOG_LEVEL: 'silent',
        SYNC_POLL_SECONDS: '0',
      };
      server = await startServer(loadConfig(env));
      assert.ok(server.metricsUrl && server.metricsUrl !== server.url);
      const open = await fetch(`${server.metricsUrl}/metrics`);
      assert.equal(open.status, 200);
      assert.ok(value(parse(await open.text()).samples, 'pimbridge_queue_jobs', { queue: JOB.syncProduct, state: 'created' }) !== undefined);
      assert.equal((await fetch(`${server.metricsUrl}/healthz`)).status, 404, 'nothing else on the metrics listener');
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
      await server.close();
      server = null;

      server = await startServer(loadConfig({ ...env, METRICS_TOKEN: 'metrics-token-0123456789' }));
      const refused = await fetch(`${server.metricsUrl}/metrics`);
      assertRefused({ statusCode: refused.status, body: await refused.text(), headers: { 'www-authenticate': refused.headers.get('www-authenticate') } });
      assert.equal((await fetch(`${server.metricsUrl}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } })).status, 200);
    } finally {
      process.stdout.write = write;
      await server?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
