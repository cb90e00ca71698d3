// The connector's status endpoints: GET /api/status (enveloped, Y-m-d H:i:s, live checks cached 30 s and shared
// in flight), GET /api/status/{integrationId} and GET /api/system/status (public, raw, ISO 8601, stored state only).
// The PIM is a fake on a real port (the connector's PimClient talks HTTP to it); the storefront is a fake
// StorefrontPort for the service tests and a fake Admin GraphQL server behind the real Shopify adapter for the HTTP ones.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Db } from '../src/db/client.js';
import { connectorTokens, integrations, shops } from '../src/connector/connector.tables.js';
import { productMappings } from '../src/connector/mapping.tables.js';
import { syncLogs } from '../src/connector/sync.tables.js';
import { sha256Hex } from '../src/lib/crypto.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { PimClient } from '../src/connector/pim/pim-client.js';
import { ConnectivityChecker, PimClientProbe, type Clock } from '../src/connector/status/connectivity.js';
import { INLINE_QUEUE_NOTE, JOB_QUEUE_NOTE } from '../src/connector/status/queue-stats.js';
import { StatusRepository } from '../src/connector/status/status.repository.js';
import { statusRoutes } from '../src/connector/status/status.routes.js';
import { createStatusService, humanBytes, syncDuration, type StatusService } from '../src/connector/status/status.service.js';
import type { App } from '../src/http/app-type.js';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { ShopHealth, StorefrontShop } from '../src/storefront/port/shop.js';
import type { ProductUpsertResult } from '../src/storefront/port/upsert-result.js';
import type { StorefrontPort } from '../src/storefront/storefront.port.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { until } from './helpers/until.js';

const PIM_KEY = 'pk_status_test_key';
const PIM_SECRET = 'sk_status_test_secret';
const SHOP_TOKEN = 'shpat_status_test_token';
const YMD_HIS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const HUMAN = /^\d+(\.\d)? (B|KB|MB|GB|TB)$/;
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

// ---- fakes ----------------------------------------------------------------------------------------------------------

interface FakeServer {
  url: string;
  calls: number;
  mode: 'ok' | 'reject' | 'down';
  close(): Promise<void>;
}

async function listen(handler: (state: FakeServer, req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<FakeServer> {
  const state = { url: '', calls: 0, mode: 'ok' } as FakeServer;
  const server = http.createServer((req, res) => handler(state, req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  state.url = `http://127.0.0.1:${port}`;
  state.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return state;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A PIM answering GET /api/auth/verify for PIM_KEY / PIM_SECRET; counts every call. */
const fakePim = () =>
  listen((state, req, res) => {
    if (!req.url?.startsWith('/api/auth/verify')) return json(res, 404, { status: 0, data: null, error: 'not found' });
    state.calls++;
    if (state.mode === 'down') return json(res, 503, { status: 0, data: null, error: 'maintenance' });
    const ok = state.mode === 'ok' && req.headers['x-api-key'] === PIM_KEY && req.headers['x-api-secret'] === PIM_SECRET;
    return ok
      ? json(res, 200, { status: 1, data: { organization: { id: 1, name: 'Acme' } }, error: null })
      : json(res, 401, { status: 0, data: null, error: 'Invalid API key or secret' });
  });

/** A Shopify Admin GraphQL endpoint answering ShopHealth for SHOP_TOKEN; counts every call. */
const fakeShopify = () =>
  listen((state, req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url?.endsWith('/graphql.json')) return json(res, 404, { errors: 'Not Found' });
      state.calls++;
      if (state.mode === 'down') return json(res, 503, { errors: 'Unavailable' });
      if (state.mode === 'reject' || req.headers['x-shopify-access-token'] !== SHOP_TOKEN) {
        return json(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      }
      return json(res, 200, {
        data: {
          shop: {
            id: 'gid://shopify/Shop/77',
            name: 'Graph Shop',
            myshopifyDomain: 'graph.myshopify.com',
            currencyCode: 'EUR',
            plan: { publicDisplayName: 'Advanced', shopifyPlus: false, partnerDevelopment: false },
            resourceLimits: { maxProductVariants: 2048, maxProductOptions: 3 },
          },
        },
        extensions: {
          cost: { requestedQueryCost: 1, actualQueryCost: 1, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 } },
        },
      });
    });
  });

/** A StorefrontPort that counts calls, can fail, and can hold every call until a gate opens. */
class FakeStorefront implements StorefrontPort {
  calls = 0;
  seen: StorefrontShop[] = [];
  fail = false;
  gate: Promise<void> | null = null;

  async shopHealth(shop: StorefrontShop): Promise<ShopHealth> {
    this.calls++;
    this.seen.push(shop);
    if (this.gate) await this.gate;
    if (this.fail) throw new StorefrontError('unavailable', `${shop.domain} is unavailable (HTTP 503)`);
    return { id: 'gid://shopify/Shop/42', name: 'Fake Shop', myshopifyDomain: shop.domain, plan: 'Basic', currencyCode: 'EUR' };
  }

  /** The status endpoints read no publications or locations either. */
  async publications(): Promise<never> {
    throw new Error('the status endpoints must not read publications');
  }

  async locations(): Promise<never> {
    throw new Error('the status endpoints must not read locations');
  }

  /** The status endpoints never push: a call here is a bug in them. */
  async upsertProduct(): Promise<ProductUpsertResult> {
    throw new Error('the status endpoints must not push products');
  }

  preflight(): string[] {
    return [];
  }

  async startBulkUpsert(): Promise<never> {
    throw new Error('the status endpoints must not push products');
  }

  async bulkUpsertState(): Promise<never> {
    throw new Error('the status endpoints must not push products');
  }
}

class TestClock implements Clock {
  constructor(public t: Date) {}
  now(): Date {
    return this.t;
  }
  advance(ms: number): void {
    this.t = new Date(this.t.getTime() + ms);
  }
}

// ---- fixtures: rows written directly (the tables of src/connector/*.tables.ts) ----------------------------------

let sequence = 0;

interface Seeded {
  id: number;
  domain: string;
  token: string;
}

async function addToken(db: Db, integrationId: number, scope: 'read' | 'write' | 'admin', revoked = false): Promise<string> {
  const token = `pbt_${randomBytes(32).toString('base64url')}`;
  await db.insert(connectorTokens).values({ integrationId, tokenHash: sha256Hex(token), scope, revokedAt: revoked ? new Date() : null });
  return token;
}

async function seedIntegration(
  db: Db,
  box: SecretBox,
  options: { pimBaseUrl: string; apiBaseUrl?: string | null; active?: boolean; createdAt?: Date; lastSyncAt?: Date | null },
): Promise<Seeded> {
  const domain = `status-${process.pid}-${++sequence}.myshopify.com`;
  const [shop] = await db
    .insert(shops)
    .values({ domain, platform: 'shopify', apiBaseUrl: options.apiBaseUrl ?? null, accessTokenEncrypted: box.seal(SHOP_TOKEN) })
    .returning({ id: shops.id });
  // A minute ago by default: the tests' clocks start at "now", after the integration's last change (updated_at).
  const createdAt = options.createdAt ?? new Date(Date.now() - 60 * SECOND);
  const [row] = await db
    .insert(integrations)
    .values({
      shopId: shop.id,
      pimBaseUrl: options.pimBaseUrl,
      pimApiKeyEncrypted: box.seal(PIM_KEY),
      pimApiSecretEncrypted: box.seal(PIM_SECRET),
      isActive: options.active ?? true,
      lastSyncAt: options.lastSyncAt ?? null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: integrations.id });
  return { id: row.id, domain, token: await addToken(db, row.id, 'admin') };
}

async function seedMappings(db: Db, integrationId: number, counts: Record<string, number>): Promise<void> {
  let pimProductId = 1000;
  const rows = Object.entries(counts).flatMap(([syncStatus, n]) =>
    Array.from({ length: n }, () => ({
      integrationId,
      pimProductId: ++pimProductId,
      syncStatus,
      syncError: syncStatus === 'error' ? 'Title is required' : null,
    })),
  );
  if (rows.length > 0) await db.insert(productMappings).values(rows);
}

interface LogSeed {
  status: string;
  ago: number;
  ms?: number | null;
  error?: string | null;
  processed?: number;
  failed?: number;
  operation?: string;
}

async function seedLogs(db: Db, integrationId: number, now: Date, logs: LogSeed[]): Promise<void> {
  await db.insert(syncLogs).values(
    logs.map((l) => {
      const startedAt = new Date(now.getTime() - l.ago);
      return {
        integrationId,
        operation: l.operation ?? 'products.push',
        status: l.status,
        recordsProcessed: l.processed ?? 1,
        recordsFailed: l.failed ?? 0,
        error: l.error ?? null,
        startedAt,
        completedAt: l.ms === null ? null : new Date(startedAt.getTime() + (l.ms ?? 1230)),
      };
    }),
  );
}

// ---- the suite ------------------------------------------------------------------------------------------------------

const ENCRYPTION_KEY = randomBytes(32);

for (const target of databaseTargets()) {
  describe(`connector status (${target.name})`, () => {
    let h: Harness;
    let db: Db;
    let pim: FakeServer;
    let shopify: FakeServer;
    const box = new SecretBox(ENCRYPTION_KEY);
    const probe = new PimClientProbe(new PimClient({ allowPrivateNetworks: true, publicUrl: 'http://127.0.0.1:9', timeoutMs: 3000 }));

    before(async () => {
      h = await harness(target, { ENCRYPTION_KEY: ENCRYPTION_KEY.toString('base64'), CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
      db = h.database.db;
      pim = await fakePim();
      shopify = await fakeShopify();
    });
    after(async () => {
      await pim?.close();
      await shopify?.close();
      await h?.close();
    });

    const service = (storefront: StorefrontPort, clock: Clock, extra: { ping?: () => Promise<boolean> } = {}): StatusService =>
      createStatusService({ db, secretBox: box, storefront, pim: probe, clock, ...extra });

    describe('live checks (service, injected clock and StorefrontPort)', () => {
      it('a burst of 10 makes one PIM call and one storefront call; cached for 30 s, then checked again', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        const status = service(port, clock);
        pim.mode = 'ok';
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url, apiBaseUrl: 'http://127.0.0.1:1/shop' });
        const before = pim.calls;

        const burst = await Promise.all(Array.from({ length: 10 }, () => status.ownStatus(seeded.id)));
        assert.equal(pim.calls - before, 1, 'one PIM verify for the burst');
        assert.equal(port.calls, 1, 'one shopHealth for the burst');
        for (const s of burst) {
          assert.deepEqual(s.pim_status, { status: 'connected' });
          assert.deepEqual(s.storefront_status, { status: 'connected', shop_name: 'Fake Shop', shop_id: 'gid://shopify/Shop/42', plan: 'Basic' });
        }
        // The port got the shop with its token decrypted.
        assert.deepEqual(port.seen[0], { domain: seeded.domain, apiBaseUrl: 'http://127.0.0.1:1/shop', accessToken: SHOP_TOKEN });

        // Stored on the integration for the public endpoint.
        const row = (await new StatusRepository(db).integration(seeded.id))!;
        assert.deepEqual(row.pimStatus, { status: 'connected' });
        assert.deepEqual(row.storefrontStatus, { status: 'connected', shop_name: 'Fake Shop', shop_id: 'gid://shopify/Shop/42', plan: 'Basic' });
        assert.equal(row.checkedAt?.getTime(), clock.t.getTime());
        assert.equal(row.lastError, null);

        clock.advance(30 * SECOND - 1);
        await status.ownStatus(seeded.id);
        assert.equal(pim.calls - before, 1, 'still cached just before 30 s');
        assert.equal(port.calls, 1);

        clock.advance(1);
        await Promise.all(Array.from({ length: 10 }, () => status.ownStatus(seeded.id)));
        assert.equal(pim.calls - before, 2, 'checked again once 30 s have passed');
        assert.equal(port.calls, 2);
      });

      it('the cache lives in the database: a second node (service) reuses a fresh stored check', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        const before = pim.calls;
        await service(port, clock).ownStatus(seeded.id);
        const otherNode = new FakeStorefront();
        await service(otherNode, clock).ownStatus(seeded.id);
        assert.equal(otherNode.calls, 0);
        assert.equal(pim.calls - before, 1);
      });

      it('a change of the integration (update, reconnect) voids the stored check: both views treat it as unchecked', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        const status = service(port, clock);
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        await status.ownStatus(seeded.id);
        assert.equal((await status.publicStatus(String(seeded.id))).is_connected, true);
        await db
          .update(integrations)
          .set({ updatedAt: new Date(clock.t.getTime() + 1) })
          .where(eq(integrations.id, seeded.id));
        clock.advance(5 * SECOND);
        assert.equal((await status.publicStatus(String(seeded.id))).is_connected, false);
        await status.ownStatus(seeded.id);
        assert.equal(port.calls, 2, 'checked again within 30 s: the integration changed since');
        assert.equal((await status.publicStatus(String(seeded.id))).is_connected, true);
      });

      it('concurrent checks of one integration share one in-flight check (single-flight, no cache)', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        let open!: () => void;
        port.gate = new Promise<void>((resolve) => (open = resolve));
        const repository = new StatusRepository(db);
        const checker = new ConnectivityChecker({ repository, secretBox: box, storefront: port, pim: probe, clock, ttlMs: 0 });
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        const state = (await repository.integration(seeded.id))!;
        const before = pim.calls;

        const pending = Array.from({ length: 10 }, () => checker.current(state));
        // Let the one check reach the storefront, then release it.
        await until('the check at the storefront', () => port.calls > 0, 20_000, 0);
        open();
        const results = await Promise.all(pending);
        assert.equal(port.calls, 1);
        assert.equal(pim.calls - before, 1);
        assert.ok(
          results.every((r) => r === results[0]),
          'every caller gets the one result',
        );

        // With no cache (ttl 0) a later call checks again: the sharing above was single-flight, not caching.
        port.gate = null;
        await checker.current(state);
        assert.equal(port.calls, 2);
        assert.equal(pim.calls - before, 2);
      });

      it('failures: the spec texts, last_error stored with its time, health penalties, and is_connected false', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        port.fail = true;
        pim.mode = 'reject';
        try {
          const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
          const own = await service(port, clock).ownStatus(seeded.id);
          assert.equal(own.pim_status.status, 'error');
          assert.match((own.pim_status as { error: string }).error, /^PIM cannot be reached: .*refused the API key or secret/);
          assert.deepEqual(Object.keys(own.pim_status).sort(), ['error', 'status']);
          assert.equal(own.storefront_status.status, 'error');
          assert.match((own.storefront_status as { error: string }).error, /^Storefront cannot be reached: .*unavailable \(HTTP 503\)/);
          assert.deepEqual(Object.keys(own.storefront_status).sort(), ['error', 'status']);
          assert.deepEqual(own.health_score, { score: 40, status: 'poor', factors: ['PIM is unreachable (-30)', 'Storefront is unreachable (-30)'] });

          const row = (await new StatusRepository(db).integration(seeded.id))!;
          assert.match(row.lastError ?? '', /^PIM cannot be reached: .*; Storefront cannot be reached: /);
          assert.equal(row.lastErrorAt?.getTime(), clock.t.getTime());

          const pub = await service(port, clock).publicStatus(String(seeded.id));
          assert.equal(pub.is_connected, false);
          assert.equal(pub.last_error, row.lastError);
          assert.deepEqual(pub.health_score, own.health_score);
        } finally {
          pim.mode = 'ok';
        }
      });

      it('an unreachable PIM (5xx, closed port) is an error too', async () => {
        const clock = new TestClock(new Date());
        pim.mode = 'down';
        try {
          const down = await seedIntegration(db, box, { pimBaseUrl: pim.url });
          const own = await service(new FakeStorefront(), clock).ownStatus(down.id);
          assert.match((own.pim_status as { error: string }).error, /^PIM cannot be reached: .*HTTP 503/);
        } finally {
          pim.mode = 'ok';
        }
        const closed = await listen(() => {});
        await closed.close();
        const gone = await seedIntegration(db, box, { pimBaseUrl: closed.url });
        const own = await service(new FakeStorefront(), clock0()).ownStatus(gone.id);
        assert.match((own.pim_status as { error: string }).error, /^PIM cannot be reached: .*connection refused/);
        assert.deepEqual(own.storefront_status.status, 'connected');

        // Sealed under another key: reported as such, nothing sent.
        const other = new SecretBox(randomBytes(32));
        const foreign = await seedIntegration(db, other, { pimBaseUrl: pim.url });
        const port = new FakeStorefront();
        const before = pim.calls;
        const sealed = await service(port, clock0()).ownStatus(foreign.id);
        assert.match((sealed.pim_status as { error: string }).error, /^PIM cannot be reached: the stored PIM credentials cannot be decrypted/);
        assert.match((sealed.storefront_status as { error: string }).error, /^Storefront cannot be reached: the stored access token cannot be decrypted/);
        assert.equal(pim.calls, before);
        assert.equal(port.calls, 0);
      });

      it('a storefront that never answers is cut off by the check timeout', async () => {
        const unused = () => Promise.reject(new Error('not used'));
        const hung: StorefrontPort = {
          shopHealth: () => new Promise<never>(() => {}),
          upsertProduct: unused,
          preflight: () => [],
          startBulkUpsert: unused,
          bulkUpsertState: unused,
          publications: unused,
          locations: unused,
        };
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        const own = await createStatusService({ db, secretBox: box, storefront: hung, pim: probe, clock: clock0(), timeoutMs: 50 }).ownStatus(seeded.id);
        assert.deepEqual(own.pim_status, { status: 'connected' });
        assert.equal(own.storefront_status.status, 'error');
        assert.match((own.storefront_status as { error: string }).error, /^Storefront cannot be reached: no answer within/);
      });

      it('the public view never calls out: no PIM or storefront call, stale or never-checked alike', async () => {
        const clock = new TestClock(new Date());
        const port = new FakeStorefront();
        const status = service(port, clock);
        const never = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        const checked = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        await status.ownStatus(checked.id);
        clock.advance(DAY); // the stored check is long stale
        const pimBefore = pim.calls;
        const portBefore = port.calls;
        const a = await status.publicStatus(String(never.id));
        const b = await status.publicStatus(String(checked.id));
        assert.equal(pim.calls, pimBefore);
        assert.equal(port.calls, portBefore);
        // Never checked: not connected (nothing seen yet), and no penalty for it in the score.
        assert.equal(a.is_connected, false);
        assert.deepEqual(a.health_score, { score: 100, status: 'excellent', factors: [] });
        // Checked (both connected): connected, whatever the age of the check.
        assert.equal(b.is_connected, true);
      });
    });

    describe('stats, recent syncs, queue stats and health factors', () => {
      it('counts seeded mappings and sync logs in both views', async () => {
        const clock = new TestClock(new Date());
        const now = clock.t;
        const status = service(new FakeStorefront(), clock);
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url, lastSyncAt: new Date(now.getTime() - HOUR) });
        await seedMappings(db, seeded.id, { synced: 3, pending: 2, error: 1, skipped: 1 });
        await seedLogs(db, seeded.id, now, [
          { status: 'success', ago: 1 * HOUR, ms: 1234, processed: 5 },
          { status: 'error', ago: 2 * HOUR, error: 'Shopify rejected the title', processed: 2, failed: 2 },
          { status: 'partial', ago: 3 * HOUR, processed: 4, failed: 1 },
          { status: 'running', ago: 1 * SECOND, ms: null },
          { status: 'success', ago: 30 * HOUR }, // outside the last 24 h
          { status: 'error', ago: 40 * HOUR, error: 'old failure' },
          ...Array.from({ length: 8 }, (_, i) => ({ status: 'success', ago: (50 + i) * HOUR })),
        ]);
        await addToken(db, seeded.id, 'read');
        await addToken(db, seeded.id, 'write', true);

        const own = await status.ownStatus(seeded.id);
        assert.deepEqual(own.product_mapping_stats, { synced: 3, pending: 2, error: 1, skipped: 1 });
        assert.equal(own.active_tokens, 2, 'the admin and the read token; the revoked one is not counted');
        assert.equal(own.recent_syncs.length, 10);
        assert.deepEqual(
          own.recent_syncs.slice(0, 4).map((s) => s.status),
          ['running', 'success', 'error', 'partial'],
          'newest first',
        );
        const [running, first] = own.recent_syncs;
        assert.deepEqual(first, {
          id: first.id,
          operation: 'products.push',
          status: 'success',
          records_processed: 5,
          records_failed: 0,
          duration: '1.23s',
          started_at: first.started_at,
          completed_at: first.completed_at,
        });
        assert.match(first.started_at!, YMD_HIS);
        assert.match(first.completed_at!, YMD_HIS);
        assert.equal(running.completed_at, null);
        assert.equal(running.duration, '1.00s', 'a running sync shows its time so far');
        assert.deepEqual(own.queue_stats, { pending_messages: 0, processing_messages: 1, failed_messages: 0, note: INLINE_QUEUE_NOTE });
        assert.deepEqual(own.health_score.factors, ['2 failed syncs in the last 24 hours (-10)', '1 product mapping of 7 in error (-3)']);
        assert.equal(own.health_score.score, 87);
        assert.equal(own.health_score.status, 'good');

        const pub = await status.publicStatus(String(seeded.id));
        assert.deepEqual(pub.sync_stats, {
          last_24h: { total_syncs: 4, successful_syncs: 1, failed_syncs: 2 },
          product_mappings: { total: 7, synced: 3, pending: 2, failed: 1 },
        });
        assert.equal(pub.last_error, 'Shopify rejected the title', 'the latest failed sync (the live check succeeded: no check error)');
        assert.deepEqual(pub.queue_stats, own.queue_stats);
        assert.deepEqual(pub.health_score, own.health_score);
      });

      it('an empty integration has zero counts with the three standard keys', async () => {
        const clock = clock0();
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        const status = service(new FakeStorefront(), clock);
        const own = await status.ownStatus(seeded.id);
        assert.deepEqual(own.product_mapping_stats, { synced: 0, pending: 0, error: 0 });
        assert.deepEqual(own.recent_syncs, []);
        assert.equal(own.last_sync_at, null);
        const pub = await status.publicStatus(String(seeded.id));
        assert.deepEqual(pub.sync_stats, {
          last_24h: { total_syncs: 0, successful_syncs: 0, failed_syncs: 0 },
          product_mappings: { total: 0, synced: 0, pending: 0, failed: 0 },
        });
        assert.equal(pub.last_error, null);
        assert.equal(pub.last_sync_at, null);
      });

      it('last_error is the later of the stored check error and the latest failed sync', async () => {
        const clock = new TestClock(new Date());
        const seeded = await seedIntegration(db, box, { pimBaseUrl: pim.url });
        await seedLogs(db, seeded.id, clock.t, [{ status: 'error', ago: HOUR, error: 'sync broke' }]);
        await db
          .update(integrations)
          .set({ lastError: 'PIM cannot be reached: older', lastErrorAt: new Date(clock.t.getTime() - 2 * HOUR) })
          .where(eq(integrations.id, seeded.id));
        const status = service(new FakeStorefront(), clock);
        assert.equal((await status.publicStatus(String(seeded.id))).last_error, 'sync broke');
        await db.update(integrations).set({ lastError: 'PIM cannot be reached: newer', lastErrorAt: clock.t }).where(eq(integrations.id, seeded.id));
        assert.equal((await status.publicStatus(String(seeded.id))).last_error, 'PIM cannot be reached: newer');
      });

      it('health factors: inactive, no sync in 7 days, never synced after 7 days', async () => {
        const clock = new TestClock(new Date());
        const status = service(new FakeStorefront(), clock);
        const inactive = await seedIntegration(db, box, { pimBaseUrl: pim.url, active: false, lastSyncAt: clock.t });
        const stale = await seedIntegration(db, box, { pimBaseUrl: pim.url, lastSyncAt: new Date(clock.t.getTime() - 8 * DAY) });
        const never = await seedIntegration(db, box, { pimBaseUrl: pim.url, createdAt: new Date(clock.t.getTime() - 10 * DAY) });
        const a = await status.publicStatus(String(inactive.id));
        assert.equal(a.is_active, false);
        assert.equal(a.is_connected, false);
        assert.deepEqual(a.health_score, { score: 50, status: 'fair', factors: ['Integration is inactive (-50)'] });
        assert.deepEqual((await status.publicStatus(String(stale.id))).health_score, { score: 90, status: 'excellent', factors: ['No sync in 7 days (-10)'] });
        assert.deepEqual((await status.publicStatus(String(never.id))).health_score.factors, ['Never synced (connected over 7 days ago) (-10)']);
        const own = await status.ownStatus(inactive.id);
        assert.equal(own.status, 'inactive');
        assert.equal(own.is_active, false);
      });

      it('formats durations and memory sizes', () => {
        const t = new Date('2026-11-23T10:00:00Z');
        assert.equal(syncDuration(t, new Date(t.getTime() + 1234), t), '1.23s');
        assert.equal(syncDuration(t, t, t), '0.00s');
        assert.equal(syncDuration(t, null, new Date(t.getTime() + 61_000)), '61.00s');
        assert.equal(humanBytes(512), '512 B');
        assert.equal(humanBytes(1536), '1.5 KB');
        assert.equal(humanBytes(123.4 * 1024 * 1024), '123.4 MB');
      });
    });

    describe('over HTTP (the real app: connector plugin, Shopify adapter against a fake Admin GraphQL server)', () => {
      const get = (url: string, token?: string | null, headers: Record<string, string> = {}) =>
        h.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
      const seedHttp = (options: { active?: boolean; lastSyncAt?: Date | null } = {}) =>
        seedIntegration(db, box, { pimBaseUrl: pim.url, apiBaseUrl: shopify.url, ...options });

      it('GET /api/status: 401 without a valid token; any scope reads; rate-limit headers only on failure', async () => {
        const seeded = await seedHttp();
        for (const [token, why] of [
          [null, 'no token'],
          ['pbt_not-a-real-token', 'unknown token'],
        ] as const) {
          const res = await get('/api/status', token);
          assert.equal(res.statusCode, 401, why);
          assert.equal(res.json().status, 'error');
          assert.equal(res.json().code, 'AUTHENTICATION_FAILED');
          assert.ok(res.headers['x-ratelimit-remaining'] !== undefined, why);
          assert.ok(res.headers['x-ratelimit-reset'] !== undefined, why);
        }
        const revoked = await addToken(db, seeded.id, 'read', true);
        assert.equal((await get('/api/status', revoked)).statusCode, 401);
        for (const scope of ['read', 'write', 'admin'] as const) {
          const res = await get('/api/status', await addToken(db, seeded.id, scope));
          assert.equal(res.statusCode, 200, scope);
          assert.equal(res.json().data.integration_id, seeded.id);
          assert.equal(res.headers['x-ratelimit-remaining'], undefined);
          assert.equal(res.headers['x-ratelimit-reset'], undefined);
        }
      });

      it('GET /api/sync/logs: the logs of the last hours, newest first, with their errors; bounded and validated', async () => {
        const seeded = await seedHttp();
        const token = await addToken(db, seeded.id, 'read');
        const now = new Date();
        await seedLogs(db, seeded.id, now, [
          { status: 'success', ago: 1 * HOUR, processed: 5 },
          { status: 'error', ago: 2 * HOUR, error: 'Shopify rejected the title', processed: 2, failed: 2 },
          { status: 'success', ago: 30 * HOUR },
          ...Array.from({ length: 12 }, (_, i) => ({ status: 'partial', ago: (3 + i) * HOUR, failed: 1 })),
        ]);
        const res = await get('/api/sync/logs?hours=24', token);
        assert.equal(res.statusCode, 200, res.body);
        const data = res.json().data;
        assert.equal(data.hours, 24);
        assert.equal(data.sync_logs.length, 14, 'beyond the 10 of /api/status, within the 24 hours');
        assert.deepEqual(
          data.sync_logs.slice(0, 2).map((l: { status: string; error: string | null }) => [l.status, l.error]),
          [
            ['success', null],
            ['error', 'Shopify rejected the title'],
          ],
        );
        assert.equal((await get('/api/sync/logs', token)).json().data.sync_logs.length, 15, 'default: 48 hours');
        assert.equal((await get('/api/sync/logs?hours=48&limit=3', token)).json().data.sync_logs.length, 3);
        for (const bad of ['hours=0', 'hours=721', 'limit=0', 'limit=1001', 'hours=x']) {
          const refused = await get(`/api/sync/logs?${bad}`, token);
          assert.equal(refused.statusCode, 400, bad);
          assert.equal(refused.json().code, 'VALIDATION_FAILED');
        }
        const other = await seedHttp();
        const otherToken = await addToken(db, other.id, 'read');
        assert.deepEqual((await get('/api/sync/logs', otherToken)).json().data.sync_logs, [], "another integration's logs stay its own");
        assert.equal((await get('/api/sync/logs', null)).statusCode, 401);
      });

      it('GET /api/status: every field of the spec in its format', async () => {
        const seeded = await seedHttp({ lastSyncAt: new Date(Date.now() - HOUR) });
        await seedLogs(db, seeded.id, new Date(), [{ status: 'success', ago: HOUR, ms: 2500 }]);
        await seedMappings(db, seeded.id, { synced: 2 });
        const res = await get('/api/status', seeded.token);
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.equal(body.status, 'success');
        assert.equal(typeof body.message, 'string');
        assert.equal(body.code ?? null, null);
        const data = body.data;
        // The spec's fields, plus channel_mapping, translations and storefront_access (beyond the spec: where each PIM
        // channel is published, the PIM locales the shop lacks, how the shop is connected).
        assert.deepEqual(Object.keys(data).sort(), [
          'active_tokens',
          'channel_mapping',
          'created_at',
          'health_score',
          'integration_id',
          'is_active',
          'last_sync_at',
          'pim_base_url',
          'pim_status',
          'product_mapping_stats',
          'queue_stats',
          'recent_syncs',
          'shop_domain',
          'status',
          'storefront_access',
          'storefront_status',
          'translations',
          'updated_at',
        ]);
        assert.deepEqual(data.translations, { missing_locales: [] });
        assert.equal(data.storefront_access.method, 'access_token');
        assert.equal(data.storefront_access.status, 'ok');
        assert.equal(data.storefront_access.token_expires_at, null);
        assert.deepEqual(data.channel_mapping.web, { source: 'default', publications: ['Online Store'] });
        assert.deepEqual(data.channel_mapping.email, { source: 'default', publications: [] });
        assert.equal(data.integration_id, seeded.id);
        assert.equal(data.shop_domain, seeded.domain);
        assert.equal(data.pim_base_url, pim.url);
        assert.equal(data.status, 'active');
        assert.equal(data.is_active, true);
        for (const field of ['created_at', 'last_sync_at', 'updated_at']) assert.match(data[field], YMD_HIS, field);
        assert.deepEqual(data.product_mapping_stats, { synced: 2, pending: 0, error: 0 });
        assert.equal(data.recent_syncs.length, 1);
        assert.deepEqual(Object.keys(data.recent_syncs[0]).sort(), [
          'completed_at',
          'duration',
          'id',
          'operation',
          'records_failed',
          'records_processed',
          'started_at',
          'status',
        ]);
        assert.equal(data.recent_syncs[0].duration, '2.50s');
        assert.match(data.recent_syncs[0].started_at, YMD_HIS);
        assert.deepEqual(data.pim_status, { status: 'connected' });
        assert.deepEqual(data.storefront_status, { status: 'connected', shop_name: 'Graph Shop', shop_id: 'gid://shopify/Shop/77', plan: 'Advanced' });
        assert.equal(data.active_tokens, 1);
        assert.deepEqual(data.queue_stats, { pending_messages: 0, processing_messages: 0, failed_messages: 0, note: JOB_QUEUE_NOTE });
        assert.deepEqual(data.health_score, { score: 100, status: 'excellent', factors: [] });
        // No credential field (`storefront_access.method` may name the kind of token, never carry one).
        assert.ok(!/pim_api|secret|"access_token":|shpat_/.test(res.body), 'no credential in the answer');
      });

      it('GET /api/status: a burst of 10 requests makes one call to each side; a rejected shop token is reported', async () => {
        const seeded = await seedHttp();
        const pimBefore = pim.calls;
        const shopBefore = shopify.calls;
        const answers = await Promise.all(Array.from({ length: 10 }, () => get('/api/status', seeded.token)));
        assert.ok(answers.every((r) => r.statusCode === 200));
        assert.equal(pim.calls - pimBefore, 1);
        assert.equal(shopify.calls - shopBefore, 1);

        shopify.mode = 'reject';
        try {
          const rejected = await seedHttp();
          const data = (await get('/api/status', rejected.token)).json().data;
          assert.equal(data.storefront_status.status, 'error');
          assert.match(data.storefront_status.error, /^Storefront cannot be reached: .*HTTP 401/);
          assert.equal(data.health_score.score, 70);
        } finally {
          shopify.mode = 'ok';
        }
      });

      it('a token reads only its own integration', async () => {
        const a = await seedHttp();
        const b = await seedHttp();
        await seedMappings(db, b.id, { error: 3 });
        const own = (await get('/api/status', a.token)).json().data;
        assert.equal(own.integration_id, a.id);
        assert.deepEqual(own.product_mapping_stats, { synced: 0, pending: 0, error: 0 });
        assert.equal((await get('/api/status', b.token)).json().data.integration_id, b.id);
      });

      it('GET /api/status/{id}: public, raw, ISO 8601, the spec fields only, and never an outbound call', async () => {
        const checked = await seedHttp({ lastSyncAt: new Date(Date.now() - HOUR) });
        const never = await seedHttp();
        await seedMappings(db, checked.id, { synced: 1, pending: 1, error: 1, skipped: 1 });
        assert.equal((await get('/api/status', checked.token)).statusCode, 200); // one live check, stored
        const pimBefore = pim.calls;
        const shopBefore = shopify.calls;
        for (let i = 0; i < 5; i++) {
          for (const id of [checked.id, never.id]) assert.equal((await get(`/api/status/${id}`)).statusCode, 200);
        }
        assert.equal(pim.calls, pimBefore, 'no PIM call from the public endpoint');
        assert.equal(shopify.calls, shopBefore, 'no storefront call from the public endpoint');

        const res = await get(`/api/status/${checked.id}`, null, { authorization: 'Bearer garbage' });
        assert.equal(res.statusCode, 200, 'public: a bad Authorization header does not matter');
        assert.equal(res.headers['x-ratelimit-remaining'], undefined);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), [
          'created_at',
          'health_score',
          'integration_id',
          'is_active',
          'is_connected',
          'last_error',
          'last_sync_at',
          'queue_stats',
          'shop_domain',
          'sync_stats',
        ]);
        assert.equal(body.status, undefined, 'raw: no envelope');
        assert.equal(body.integration_id, checked.id);
        assert.equal(body.shop_domain, checked.domain);
        assert.equal(body.is_active, true);
        assert.equal(body.is_connected, true);
        assert.equal(body.last_error, null);
        assert.match(body.created_at, ISO);
        assert.match(body.last_sync_at, ISO);
        assert.deepEqual(body.sync_stats, {
          last_24h: { total_syncs: 0, successful_syncs: 0, failed_syncs: 0 },
          product_mappings: { total: 4, synced: 1, pending: 1, failed: 1 },
        });
        assert.equal(body.queue_stats.note, JOB_QUEUE_NOTE);
        assert.deepEqual(Object.keys(body.health_score).sort(), ['factors', 'score', 'status']);

        const neverBody = (await get(`/api/status/${never.id}`)).json();
        assert.equal(neverBody.is_connected, false, 'never checked is not connected');
        assert.equal(neverBody.last_sync_at, null);
      });

      it('GET /api/status/{id}: unknown or malformed ids are a raw 404', async () => {
        for (const id of ['999999', '0', 'abc', '1.5', '-1', '99999999999', '1e3', '%20']) {
          const res = await get(`/api/status/${id}`);
          assert.equal(res.statusCode, 404, id);
          assert.deepEqual(res.json(), { error: 'Integration not found' }, id);
        }
      });

      it('GET /api/system/status: public, raw, every field in its format', async () => {
        const res = await get('/api/system/status');
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), ['stats', 'status', 'timestamp']);
        assert.equal(body.status, 'operational');
        assert.match(body.timestamp, ISO);
        assert.deepEqual(Object.keys(body.stats).sort(), ['active_integrations', 'recent_syncs', 'system_health', 'total_integrations']);
        assert.ok(Number.isInteger(body.stats.total_integrations) && body.stats.total_integrations >= body.stats.active_integrations);
        assert.deepEqual(Object.keys(body.stats.recent_syncs).sort(), ['failed_syncs_24h', 'successful_syncs_24h', 'total_syncs_24h']);
        const health = body.stats.system_health;
        assert.equal(health.database, 'healthy');
        assert.equal(health.php_version, `node ${process.version}`);
        assert.match(health.php_version, /^node v\d+\.\d+\.\d+$/);
        assert.match(health.memory_usage, HUMAN);
        assert.match(health.memory_peak, HUMAN);
      });

      it('end to end with the real connect: the PIM is this app, the shop a fake Shopify; disconnect ends access', async () => {
        await h.app.listen({ port: 0, host: '127.0.0.1' });
        const self = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
        const tenant = await h.tenant();
        const domain = `e2e-status-${process.pid}.myshopify.com`;
        const shop = await h.admin('POST', '/admin/shops', {
          domain,
          platform: 'shopify',
          organization_id: tenant.organizationId,
          access_token: SHOP_TOKEN,
          api_base_url: shopify.url,
        });
        assert.equal(shop.statusCode, 201, shop.body);
        const connect = await h.app.inject({
          method: 'POST',
          url: '/api/connect',
          payload: { shop_domain: domain, pim_base_url: self, pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
        });
        assert.equal(connect.statusCode, 200, connect.body);
        const { integration_id: id, api_token: token } = connect.json().data;
        const data = (await get('/api/status', token)).json().data;
        assert.deepEqual(data.pim_status, { status: 'connected' });
        assert.equal(data.storefront_status.status, 'connected');
        assert.equal(data.active_tokens, 1);
        assert.equal((await get(`/api/status/${id}`)).json().is_connected, true);

        // New credentials (the same pair, revalidated): the stored check is void until the next GET /api/status.
        const update = await h.app.inject({
          method: 'PUT',
          url: '/api/integration/update',
          headers: { authorization: `Bearer ${token}` },
          payload: { pim_api_key: tenant.apiKey, pim_api_secret: tenant.apiSecret },
        });
        assert.equal(update.statusCode, 200, update.body);
        assert.equal((await get(`/api/status/${id}`)).json().is_connected, false);
        assert.equal((await get('/api/status', token)).statusCode, 200);
        assert.equal((await get(`/api/status/${id}`)).json().is_connected, true);

        const bye = await h.app.inject({ method: 'POST', url: '/api/disconnect', headers: { authorization: `Bearer ${token}` } });
        assert.equal(bye.statusCode, 200, bye.body);
        assert.equal((await get('/api/status', token)).statusCode, 401);
        const after = (await get(`/api/status/${id}`)).json();
        assert.equal(after.is_active, false);
        assert.equal(after.is_connected, false);
        assert.ok(after.health_score.factors.includes('Integration is inactive (-50)'));
      });
    });

    describe('system status (service)', () => {
      it('counts integrations and 24 h syncs across the system; a failing ping is degraded, not a 500', async () => {
        const clock = new TestClock(new Date());
        const healthy = await service(new FakeStorefront(), clock).systemStatus();
        assert.equal(healthy.status, 'operational');
        assert.match(healthy.timestamp!, ISO);
        assert.equal(healthy.stats.system_health.database, 'healthy');
        assert.ok(healthy.stats.total_integrations >= healthy.stats.active_integrations);
        assert.ok(healthy.stats.active_integrations >= 1);
        assert.ok(healthy.stats.total_integrations > healthy.stats.active_integrations, 'one inactive was seeded');
        const s = healthy.stats.recent_syncs;
        assert.ok(s.total_syncs_24h >= s.successful_syncs_24h + s.failed_syncs_24h);

        const degraded = await service(new FakeStorefront(), clock, { ping: async () => false }).systemStatus();
        assert.equal(degraded.status, 'degraded');
        assert.equal(degraded.stats.system_health.database, 'unhealthy');
        const thrown = await service(new FakeStorefront(), clock, { ping: () => Promise.reject(new Error('connection lost')) }).systemStatus();
        assert.equal(thrown.stats.system_health.database, 'unhealthy');
      });
    });
  });
}

function clock0(): TestClock {
  return new TestClock(new Date());
}

// The raw endpoints' error shapes, on a bare Fastify scope with a service that fails.
describe('status routes: raw error shapes', () => {
  const failing = {
    ownStatus: async () => {
      throw new Error('boom');
    },
    publicStatus: async () => {
      throw new Error('SELECT secret FROM somewhere');
    },
    systemStatus: async () => {
      throw new Error('SELECT secret FROM somewhere');
    },
  } as unknown as StatusService;

  it('answers 500 {error: "Status check failed"} and 500 {status: "error", timestamp, error} without details', async () => {
    const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
    app.decorateRequest('connector', null);
    statusRoutes(app as unknown as App, { status: failing });
    await app.ready();
    const one = await app.inject({ method: 'GET', url: '/api/status/1' });
    assert.equal(one.statusCode, 500);
    assert.deepEqual(one.json(), { error: 'Status check failed' });
    const system = await app.inject({ method: 'GET', url: '/api/system/status' });
    assert.equal(system.statusCode, 500);
    const body = system.json();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'status', 'timestamp']);
    assert.equal(body.status, 'error');
    assert.equal(body.error, 'System status check failed');
    assert.match(body.timestamp, ISO);
    assert.doesNotMatch(one.body + system.body, /SELECT|secret|boom/);
    await app.close();
  });
});
