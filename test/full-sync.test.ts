// Full catalogue sync (POST /api/sync/full, GET /api/sync/full/{id}) in one app with its workers started: the PIM of
// the same app read over a real port, the storefront an in-memory double with bulk upserts (the Shopify adapter and
// the sandbox are the reliability suite's). Routes and their errors; the per-call path (sync.product jobs) and the
// bulk path (sync.bulk jobs of chunks) to the end, with pre-flight and storefront refusals, a bulk operation failing
// as a whole, a job dying while it waits on its operation (resumed, not started again); the fan-out resuming from its
// cursor; a fan-out that fails for good; the sync log.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { SyncLogRepository } from '../src/connector/push/sync-log.repository.js';
import { FullSyncRepository } from '../src/connector/sync/full-sync.repository.js';
import type { PimPageReader } from '../src/connector/sync/full-sync.deps.js';
import { FullSyncService } from '../src/connector/sync/full-sync.service.js';
import { StatusRepository } from '../src/connector/status/status.repository.js';
import type { JobData, JobName, JobQueue } from '../src/jobs/job-types.js';
import type { BulkItemOutcome, BulkUpsertItem, BulkUpsertState } from '../src/storefront/port/bulk.js';
import { StorefrontError, StorefrontValidationError } from '../src/storefront/port/errors.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { mappingsOf as listMappings, publicStatusOf, syncLogsOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { assertError, FakeStorefront, pimProduct, StorefrontSwitch } from './helpers/push.js';
import { sqlRows } from './helpers/sql.js';
import { until } from './helpers/until.js';

const YMD_HIS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** FakeStorefront plus bulk upserts: an operation applies its lines at its first poll and reports them at the next. */
class BulkFake extends FakeStorefront {
  operations: { id: string; pimIds: number[]; polls: number; fail: boolean; outcomes: BulkItemOutcome[] | null }[] = [];
  /** Operations to fail as a whole (the next ones started). */
  failOperations = 0;
  /** Polls to answer with a non-storefront error (a crash of the job while it waits). */
  crashPolls = 0;
  starts = 0;
  /** Runs at an operation's first poll, while it is "running" (e.g. a delta sync of a newer version meanwhile). */
  whileRunning: (() => Promise<void>) | null = null;

  override preflight(product: PimProductSnapshot): string[] {
    return product.name.includes('BAD TITLE') ? ['title: is required'] : [];
  }

  override async startBulkUpsert(_shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }> {
    this.starts++;
    if (this.operations.some((o) => o.outcomes === null && !o.fail && o.polls < 2))
      throw new StorefrontError('unavailable', 'A bulk mutation is already in progress');
    const op = {
      id: `gid://shopify/BulkOperation/${this.operations.length + 1}`,
      pimIds: items.map((i) => i.product.id),
      polls: 0,
      fail: this.failOperations > 0,
      outcomes: null,
    };
    if (op.fail) this.failOperations--;
    this.operations.push(op);
    return { operationId: op.id };
  }

  override async bulkUpsertState(shop: StorefrontShop, operationId: string, items: BulkUpsertItem[]): Promise<BulkUpsertState> {
    if (this.crashPolls > 0) {
      this.crashPolls--;
      throw new Error('simulated crash while waiting on the operation');
    }
    const op = this.operations.find((o) => o.id === operationId);
    if (!op) throw new StorefrontError('invalid_response', `no operation ${operationId}`);
    assert.deepEqual(
      items.map((i) => i.product.id),
      op.pimIds,
      'polled with the items it was started with',
    );
    op.polls++;
    if (op.fail) return op.polls < 2 ? { state: 'running', objectCount: 0 } : { state: 'failed', message: 'INTERNAL_SERVER_ERROR' };
    if (op.polls === 1) {
      await this.whileRunning?.();
      op.outcomes = [];
      for (const item of items) {
        try {
          op.outcomes.push({ ok: true, result: await this.upsertProduct(shop, item.product, item.known) });
        } catch (err) {
          op.outcomes.push({ ok: false, errors: err instanceof StorefrontValidationError ? err.errors : [String(err)] });
        }
      }
      return { state: 'running', objectCount: items.length };
    }
    return { state: 'completed', outcomes: op.outcomes! };
  }
}

/** A JobQueue that only records what is sent (the fan-out's logic, without workers). */
class RecordingQueue implements JobQueue {
  sent: { name: JobName; data: unknown; singletonKey?: string }[] = [];
  async send<N extends JobName>(name: N, data: JobData[N], options: { singletonKey?: string } = {}): Promise<string> {
    this.sent.push({ name, data, singletonKey: options.singletonKey });
    return 'job';
  }
  async sendMany<N extends JobName>(name: N, jobs: { data: JobData[N]; singletonKey?: string }[]): Promise<void> {
    for (const j of jobs) this.sent.push({ name, data: j.data, singletonKey: j.singletonKey });
  }
}

/** A full sync's jobs run on this app's workers: waits of up to 30 s, polled every 100 ms. */
const WAIT_MS = 30_000;
const EVERY_MS = 100;

for (const target of databaseTargets()) {
  describe(`full sync (${target.name})`, () => {
    let h: ConnectorHarness;
    let fake: BulkFake;
    /** One app per bulk threshold and chunk size the cases use, built with its storefront switch and short polls. */
    const apps = new Map<string, { h: ConnectorHarness; storefront: StorefrontSwitch }>();

    /** The case's app (`h`, by threshold and chunk) with a new BulkFake as the storefront of its pushes and syncs. */
    const fresh = async (options: { threshold?: number; chunk?: number } = {}) => {
      const threshold = options.threshold ?? 200;
      const chunk = options.chunk ?? 1_000;
      let app = apps.get(`${threshold}/${chunk}`);
      if (!app) {
        const storefront = new StorefrontSwitch();
        // No delta polls here (SYNC_POLL_SECONDS=0): only the full sync's own jobs run. The cases poll the connector
        // API for progress and mappings: no per-address limit on those reads.
        const env = {
          AUTH_RATE_LIMIT: '1000000',
          SYNC_RETRY_DELAY_SECONDS: '0',
          SYNC_RETRY_LIMIT: '2',
          SYNC_POLL_SECONDS: '0',
          SYNC_BULK_THRESHOLD: String(threshold),
          SYNC_BULK_CHUNK: String(chunk),
        };
        app = { h: await connectorHarness(target, env, 0, { syncStorefront: storefront, fullSync: { pollMs: { first: 20, max: 50 } } }), storefront };
        apps.set(`${threshold}/${chunk}`, app);
        await app.h.app.services.jobs.workers.start();
      }
      h = app.h;
      fake = app.storefront.use(new BulkFake());
      return fake;
    };

    before(async () => {
      await fresh();
    });
    after(async () => {
      for (const app of apps.values()) await app.h.close();
    });

    const fullSync = () => h.app.services.connector.fullSync;
    const products = async (tenant: Tenant, names: string[]) => {
      const ids: number[] = [];
      for (const name of names) ids.push(await pimProduct(h, tenant, name, 1));
      return ids;
    };
    const finished = (token: string, id: string) =>
      until(
        `full sync ${id}`,
        async () => {
          const res = await h.call('GET', `/api/sync/full/${id}`, token);
          assert.equal(res.statusCode, 200, res.body);
          const data = res.json().data;
          return data.status === 'completed' || data.status === 'failed' ? data : null;
        },
        WAIT_MS,
        EVERY_MS,
      );
    /**
     * The integration's mappings by PIM id (GET /api/products/mappings), each with the PIM version it last synced
     * (`pim_updated_at`, which no route shows: MappingRepository.syncedVersions).
     */
    const mappingsOf = async (c: { integrationId: number; token: string }) => {
      const maps = (await listMappings(h, c.token)).sort((a, b) => a.pim_product_id - b.pim_product_id);
      const versions = await new MappingRepository(h.database.db).syncedVersions(
        c.integrationId,
        maps.map((m) => m.pim_product_id),
      );
      return maps.map((m) => ({ ...m, pim_updated_at: versions.get(m.pim_product_id) ?? null }));
    };
    /** The integration's full-sync logs, oldest first (GET /api/sync/logs). */
    const logsOf = async (c: { token: string }) =>
      (await syncLogsOf(h, c.token)).filter((l) => l.operation === 'products.full_sync').sort((a, b) => a.id - b.id);

    it('POST needs an admin token; answers 200 with the queued sync; a second one while it runs is 409 SYNC_IN_PROGRESS', async () => {
      await fresh();
      const c = await h.connected();
      await products(c.tenant, ['Scope A']);
      const read = (await h.call('POST', '/api/tokens', c.token, { scope: 'read' })).json().data.api_token;
      const write = (await h.call('POST', '/api/tokens', c.token, { scope: 'write' })).json().data.api_token;
      assertError(await h.call('POST', '/api/sync/full', null), 401, 'AUTHENTICATION_FAILED');
      assertError(await h.call('POST', '/api/sync/full', read), 403, 'INSUFFICIENT_SCOPE');
      assertError(await h.call('POST', '/api/sync/full', write), 403, 'INSUFFICIENT_SCOPE');
      assertError(await h.call('POST', '/api/sync/full', c.token, { product_ids: [1] }), 400, 'VALIDATION_FAILED');

      // Hold the storefront so the sync stays running while the second POST comes.
      let release!: () => void;
      fake.gate = new Promise((r) => (release = r));
      const res = await h.call('POST', '/api/sync/full', c.token);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.status, 'success');
      const sync = body.data;
      assert.match(sync.id, UUID);
      assert.equal(sync.status, 'queued');
      assert.deepEqual(Object.keys(sync).sort(), [
        'created_at',
        'error',
        'failed',
        'finished_at',
        'id',
        'mode',
        'progress',
        'queued',
        'started_at',
        'status',
        'synced',
        'total',
      ]);
      assert.match(sync.created_at, YMD_HIS);

      const again = await h.call('POST', '/api/sync/full', c.token, {});
      assertError(again, 409, 'SYNC_IN_PROGRESS');
      assert.equal(again.json().data.id, sync.id);
      assert.match(again.json().message, new RegExp(sync.id));

      await until('the product on its way', async () => fake.inFlight > 0, WAIT_MS, EVERY_MS);
      release();
      fake.gate = null;
      const done = await finished(read, sync.id);
      assert.equal(done.status, 'completed');
      // Once it ended, a new one may start.
      const next = await h.call('POST', '/api/sync/full', c.token);
      assert.equal(next.statusCode, 200, next.body);
      assert.notEqual(next.json().data.id, sync.id);
      await finished(c.token, next.json().data.id);
    });

    it('GET of another integration’s sync, of a malformed or an unknown id is 404 NOT_FOUND', async () => {
      await fresh();
      const a = await h.connected();
      const b = await h.connected();
      const res = await h.call('POST', '/api/sync/full', a.token);
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data.id;
      assertError(await h.call('GET', `/api/sync/full/${id}`, b.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', '/api/sync/full/abc', a.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', `/api/sync/full/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, a.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', `/api/sync/full/${id}`, null), 401, 'AUTHENTICATION_FAILED');
      // An empty PIM account: completed at once, nothing to sync.
      const done = await finished(a.token, id);
      assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed, done.progress], ['completed', 'per_call', 0, 0, 0, 100]);
      const [log] = await logsOf(a);
      assert.deepEqual([log.status, log.records_processed, log.records_failed], ['success', 0, 0]);
    });

    it('per call (below the threshold): one sync.product per product, refusals on the item and the mapping, one sync log', async () => {
      await fresh({ threshold: 10 });
      const c = await h.connected();
      const ids = await products(c.tenant, ['Per call 1', 'Per call 2', 'Per call TOO MANY OPTIONS', 'Per call 4']);
      const res = await h.call('POST', '/api/sync/full', c.token);
      const done = await finished(c.token, res.json().data.id);
      assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed, done.queued, done.progress], ['completed', 'per_call', 4, 3, 1, 0, 100]);
      assert.match(done.started_at, YMD_HIS);
      assert.match(done.finished_at, YMD_HIS);
      assert.equal(done.error, null);
      assert.equal(fake.operations.length, 0, 'no bulk operation below the threshold');
      assert.deepEqual(
        fake.calls.map((x) => x.pimId).sort((x, y) => x - y),
        ids,
      );

      const maps = await mappingsOf(c);
      assert.deepEqual(
        maps.map((m) => [m.pim_product_id, m.sync_status]),
        [
          [ids[0], 'synced'],
          [ids[1], 'synced'],
          [ids[2], 'error'],
          [ids[3], 'synced'],
        ],
      );
      assert.match(maps[2].sync_error!, /TOO MANY OPTIONS|at most 3 options/);
      assert.ok(
        maps.every((m, i) => i === 2 || m.pim_updated_at),
        'the PIM version synced is recorded',
      );

      // The one failed item (done.failed above) and its reason, in the sync log.
      const logs = await logsOf(c);
      assert.equal(logs.length, 1);
      assert.deepEqual([logs[0].status, logs[0].records_processed, logs[0].records_failed], ['partial', 4, 1]);
      assert.match(logs[0].error!, /^1 of 4 products failed; first: .*3 options/);
      assert.ok((await publicStatusOf(h, c.integrationId)).last_sync_at);
    });

    it('bulk (from the threshold on): chunks, one operation per chunk, pre-flight and line refusals, a failed operation run again', async () => {
      await fresh({ threshold: 3, chunk: 2 });
      fake.failOperations = 1;
      const c = await h.connected();
      const ids = await products(c.tenant, ['Bulk 1', 'Bulk 2 BAD TITLE', 'Bulk 3', 'Bulk 4 TOO MANY OPTIONS', 'Bulk 5']);
      const res = await h.call('POST', '/api/sync/full', c.token);
      const done = await finished(c.token, res.json().data.id);
      assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed], ['completed', 'bulk', 5, 3, 2]);

      // Three chunks of at most two, by PIM id; the pre-flight refusal never reaches the storefront; the first
      // operation failed as a whole and was run again.
      // The batches as recorded (no route shows them).
      const batches = await sqlRows<{ product_ids: number[]; status: string }>(
        h.database.db,
        sql`select product_ids, status from full_sync_batches where full_sync_id = ${done.id} order by id`,
      );
      assert.deepEqual(
        batches.map((b) => b.product_ids),
        [ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)],
      );
      assert.ok(batches.every((b) => b.status === 'completed'));
      // The batches run side by side (five slots per shop), so their operations start in any order: the first one
      // started failed and its batch ran again.
      const runs = new Map<string, boolean[]>();
      for (const o of fake.operations) runs.set(o.pimIds.join(','), [...(runs.get(o.pimIds.join(',')) ?? []), o.fail]);
      assert.deepEqual([...runs.keys()].sort(), [[ids[0]], ids.slice(2, 4), [ids[4]]].map((b) => b.join(',')).sort());
      assert.deepEqual([...runs.values()].map((r) => r.join('/')).sort(), ['false', 'false', 'true/false']);
      assert.equal(fake.operations[0].fail, true);
      // Every line sent once (the refused one too), no per-call upsert besides; the refused line made no product.
      assert.equal(fake.products.size, 3);
      assert.deepEqual(
        fake.calls.map((x) => x.pimId).sort((x, y) => x - y),
        [ids[0], ids[2], ids[3], ids[4]],
      );

      const maps = await mappingsOf(c);
      assert.deepEqual(
        maps.map((m) => [m.pim_product_id, m.sync_status]),
        [
          [ids[0], 'synced'],
          [ids[1], 'error'],
          [ids[2], 'synced'],
          [ids[3], 'error'],
          [ids[4], 'synced'],
        ],
      );
      assert.match(maps[1].sync_error!, /^The storefront refused PIM product \d+: title: is required/);
      assert.match(maps[3].sync_error!, /3 options/);
      assert.ok(maps[0].pim_updated_at);
      const [log] = await logsOf(c);
      assert.deepEqual([log.status, log.records_processed, log.records_failed], ['partial', 5, 2]);
    });

    it('bulk: a job that dies while waiting is retried and resumes the recorded operation instead of starting another', async () => {
      await fresh({ threshold: 2, chunk: 10 });
      fake.crashPolls = 1;
      const c = await h.connected();
      const ids = await products(c.tenant, ['Resume 1', 'Resume 2', 'Resume 3']);
      const res = await h.call('POST', '/api/sync/full', c.token);
      const done = await finished(c.token, res.json().data.id);
      assert.deepEqual([done.status, done.mode, done.synced, done.failed], ['completed', 'bulk', 3, 0]);
      assert.equal(fake.starts, 1, 'one operation started');
      assert.deepEqual(
        fake.operations.map((o) => o.pimIds),
        [ids],
      );
      assert.equal(fake.products.size, 3);
    });

    it('bulk: a product synced at a newer version while the operation ran is queued again, not left stale in the store', async () => {
      await fresh({ threshold: 2, chunk: 10 });
      const c = await h.connected();
      const ids = await products(c.tenant, ['Overtaken', 'Untouched']);
      // A delta job syncs a newer version of the first product while the bulk operation (which carries the older one)
      // runs: its write replaces the mapping's state, the batch's claim with it (MappingRepository.saveSynced).
      fake.whileRunning = async () => {
        await h.database.db.execute(
          sql`update product_mappings set pim_updated_at = now() + interval '1 hour', storefront_state = storefront_state - 'bulkWrite' where integration_id = ${c.integrationId} and pim_product_id = ${ids[0]}`,
        );
      };
      const res = await h.call('POST', '/api/sync/full', c.token);
      const done = await finished(c.token, res.json().data.id);
      assert.deepEqual([done.status, done.synced, done.failed], ['completed', 2, 0]);
      const callsOf = (id: number) => fake.calls.filter((x) => x.pimId === id).length;
      await until('the overtaken product synced again, per call', async () => callsOf(ids[0]) === 2, WAIT_MS, EVERY_MS);
      assert.equal(callsOf(ids[1]), 1, 'the other product is not synced twice');
      await until(
        'its mapping back at the PIM version',
        async () => {
          const [now] = (await mappingsOf(c)).filter((x) => x.pim_product_id === ids[0]);
          return now.sync_status === 'synced' && now.pim_updated_at !== null && now.pim_updated_at.getTime() < Date.now() + 60_000;
        },
        WAIT_MS,
        EVERY_MS,
      );
    });

    it('bulk: a product another writer holds when the batch starts is left out of the file and written after that writer, per call', async () => {
      await fresh({ threshold: 2, chunk: 10 });
      const c = await h.connected();
      const ids = await products(c.tenant, ['Busy', 'Free']);
      // An inline push (or a job) holds the first product's write lease as the batch claims its products.
      const leases = new MappingRepository(h.database.db);
      assert.ok(await leases.acquireLease(c.integrationId, ids[0], 'another-writer', 60_000));
      const res = await h.call('POST', '/api/sync/full', c.token);
      const done = await finished(c.token, res.json().data.id);
      assert.deepEqual([done.status, done.synced, done.failed], ['completed', 2, 0]);
      assert.deepEqual(
        fake.operations.map((o) => o.pimIds),
        [[ids[1]]],
        'the held product is not in the bulk file',
      );
      const callsOf = (id: number) => fake.calls.filter((x) => x.pimId === id).length;
      assert.equal(callsOf(ids[0]), 0, 'nothing written while the other writer holds it');
      await leases.releaseLease(c.integrationId, ids[0], 'another-writer');
      await until('the held product synced per call, after the other writer', async () => callsOf(ids[0]) === 1, WAIT_MS, EVERY_MS);
      await until(
        'its mapping synced',
        async () => (await mappingsOf(c)).find((x) => x.pim_product_id === ids[0])?.sync_status === 'synced',
        WAIT_MS,
        EVERY_MS,
      );
    });

    it('the fan-out pages by id, goes on from its cursor after a failure, and never queues a product twice', async () => {
      const c = await h.connected();
      const ids = await products(c.tenant, ['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
      const services = h.app.services.connector;
      const repo = new FullSyncRepository(h.database.db);
      const queue = new RecordingQueue();
      let reads = 0;
      let failAt = 2;
      const pim: PimPageReader = {
        async productPage(conn, page) {
          if (++reads === failAt) throw new Error('the PIM went away');
          return services.pimClient.productPage(conn, page);
        },
      };
      const deps = {
        db: h.database.db,
        repo,
        queue,
        txExecutor: () => ({ executeSql: async () => ({ rows: [] }) }),
        integrations: services.integrations,
        pim,
        mappings: new MappingRepository(h.database.db),
        syncLogs: new SyncLogRepository(h.database.db),
        storefront: new BulkFake(),
        settings: services.settings,
      };
      const service = new FullSyncService(deps, { pageSize: 2, bulkThreshold: 100 });
      const id = crypto.randomUUID();
      await repo.create(id, c.integrationId, new Date());
      await assert.rejects(service.fanOut({ integrationId: c.integrationId, fullSyncId: id }), /the PIM went away/);
      let row = await repo.find(id);
      assert.deepEqual([row!.status, row!.mode, row!.totalProducts, row!.cursorId, row!.fannedOut], ['running', 'per_call', 5, ids[1], false]);
      failAt = 0;
      await service.fanOut({ integrationId: c.integrationId, fullSyncId: id });
      row = await repo.find(id);
      assert.deepEqual([row!.cursorId, row!.fannedOut], [ids[4], true]);
      assert.deepEqual(
        queue.sent.map((s) => [s.name, (s.data as { pimProductId: number }).pimProductId, s.singletonKey]),
        ids.map((p) => ['sync.product', p, `${c.integrationId}:${p}`]),
      );
      assert.ok(
        queue.sent.every((s) => (s.data as { fullSyncId: string; reason: string }).fullSyncId === id && (s.data as { reason: string }).reason === 'full'),
      );
      assert.deepEqual(await repo.counts(id), { queued: 5, synced: 0, failed: 0 });
      // Another run after the end changes nothing.
      await service.fanOut({ integrationId: c.integrationId, fullSyncId: id });
      assert.equal(queue.sent.length, 5);
      // Bulk mode, in a sync of its own: batches of the chunk size, the last one short, a sync.bulk per batch with the
      // integration and a slot as singleton key.
      queue.sent = [];
      const bulk = new FullSyncService(deps, { pageSize: 2, bulkThreshold: 2, chunkSize: 3 });
      const id2 = crypto.randomUUID();
      await repo.create(id2, c.integrationId, new Date());
      reads = 0;
      await bulk.fanOut({ integrationId: c.integrationId, fullSyncId: id2 });
      // The batches as recorded (no route shows them).
      const batches = await sqlRows<{ id: number; product_ids: number[] }>(
        h.database.db,
        sql`select id, product_ids from full_sync_batches where full_sync_id = ${id2} order by id`,
      );
      assert.deepEqual(
        batches.map((b) => b.product_ids),
        [ids.slice(0, 3), ids.slice(3)],
      );
      // Each batch on one of the shop's five slots (Shopify runs five bulk mutations of an app at once).
      assert.deepEqual(
        queue.sent.map((s) => [s.name, (s.data as { batchId: number }).batchId, s.singletonKey]),
        batches.map((b) => ['sync.bulk', b.id, `${c.integrationId}:bulk:${b.id % 5}`]),
      );
      assert.equal((await repo.find(id2))!.mode, 'bulk');
    });

    it('a fan-out that fails for good fails the sync: its error, a failed sync log; a new one can start', async () => {
      await fresh();
      const c = await h.connected();
      await products(c.tenant, ['Doomed 1']);
      const repo = new FullSyncRepository(h.database.db);
      const id = crypto.randomUUID();
      await repo.create(id, c.integrationId, new Date());
      await fullSync().fanOutFailed({ integrationId: c.integrationId, fullSyncId: id }, 'The PIM at 127.0.0.1 could not be reached: connection refused');
      const res = await h.call('GET', `/api/sync/full/${id}`, c.token);
      const data = res.json().data;
      assert.equal(data.status, 'failed');
      assert.match(data.error, /could not be reached/);
      assert.match(data.finished_at, YMD_HIS);
      const [log] = await logsOf(c);
      assert.equal(log.status, 'error');
      assert.match(log.error!, /could not be reached/);
      const next = await h.call('POST', '/api/sync/full', c.token);
      assert.equal(next.statusCode, 200, next.body);
      await finished(c.token, next.json().data.id);
    });

    it('a disconnected integration’s fan-out fails the sync instead of reading its PIM', async () => {
      await fresh();
      const c = await h.connected();
      await products(c.tenant, ['Gone 1']);
      const repo = new FullSyncRepository(h.database.db);
      const id = crypto.randomUUID();
      await repo.create(id, c.integrationId, new Date());
      const res = await h.call('POST', '/api/disconnect', c.token);
      assert.equal(res.statusCode, 200, res.body);
      await fullSync().fanOut({ integrationId: c.integrationId, fullSyncId: id });
      const row = await repo.find(id);
      assert.deepEqual([row!.status, row!.error, row!.mode], ['failed', 'The integration was disconnected', null]);
      assert.equal(fake.calls.length, 0);
      // The token went with the disconnect: the log through the status views' repository.
      const logs = await new StatusRepository(h.database.db).syncLogsSince(c.integrationId, 48, 1000);
      assert.deepEqual(
        logs.filter((l) => l.operation === 'products.full_sync').map((l) => l.status),
        ['error'],
      );
    });

    it('an open sync without a job left to finish it does not block a new one: it is failed as interrupted', async () => {
      await fresh();
      const c = await h.connected();
      const repo = new FullSyncRepository(h.database.db);
      const id = crypto.randomUUID();
      await repo.create(id, c.integrationId, new Date()); // no sync.full job: as if its last try failed unrecorded
      const res = await h.call('POST', '/api/sync/full', c.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.notEqual(res.json().data.id, id);
      const old = (await h.call('GET', `/api/sync/full/${id}`, c.token)).json().data;
      assert.deepEqual([old.status, old.error], ['failed', 'Interrupted: no job was left to finish it']);
      await finished(c.token, res.json().data.id);
    });

    it('the routes are in the OpenAPI document', async () => {
      const doc = (await h.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
      assert.ok(doc.paths['/api/sync/full']?.post);
      assert.ok(doc.paths['/api/sync/full/{id}']?.get);
      assert.ok(doc.paths['/api/sync/full'].post.responses['409']);
    });
  });
}
