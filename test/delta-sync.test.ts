// DeltaSyncService.poll and DeltaPoller.tick against the real PIM (over HTTP) and the real queue (pg-boss in the test
// database): exactly the changed products are queued, versions already synced are skipped, the watermark moves with
// the jobs in one transaction (ties across page boundaries, a failure between pages, a failure inside a page's
// transaction, an unreachable PIM), recent changes are queued at once but passed by the watermark only once settled,
// and ticks of several nodes make one poll per integration per interval.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { PimClient } from '../src/connector/pim/pim-client.js';
import { PimReadError } from '../src/connector/pim/pim-http.js';
import { DeltaPoller } from '../src/connector/sync/delta-poller.js';
import { DeltaSyncRepository } from '../src/connector/sync/delta-sync.repository.js';
import { DeltaSyncService, type DeltaSyncDeps } from '../src/connector/sync/delta-sync.service.js';
import { JOB, type JobQueue } from '../src/jobs/job-types.js';
import { executorOf, PgBossQueue } from '../src/jobs/queue.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { clockPast, createProduct, okData, type Call } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`delta sync poll [${target.name}]`, () => {
    let h: ConnectorHarness;
    let queue: PgBossQueue;
    let pim: PimClient;
    let repo: DeltaSyncRepository;
    let db: Db;
    // One integration per test (fresh watermark and jobs).
    let integrationId: number;
    let tenant: Tenant;
    let token: string;
    let c: Call;
    let clock: number | null;

    before(async () => {
      h = await connectorHarness(target);
      db = h.database.db;
      queue = new PgBossQueue(h.database.executor, { retryLimit: 1, retryDelaySeconds: 0, expireInSeconds: 60 });
      await queue.start();
      pim = new PimClient({ allowPrivateNetworks: true, publicUrl: h.pimUrl });
      repo = new DeltaSyncRepository(db);
    });
    after(async () => {
      await queue.stop();
      await h.close();
    });
    beforeEach(async () => {
      const made = await h.connected();
      integrationId = made.integrationId;
      tenant = made.tenant;
      token = made.token;
      c = h.as(tenant);
      clock = null;
    });

    const service = (over: Partial<DeltaSyncDeps> = {}) =>
      new DeltaSyncService({
        db,
        repo,
        integrations: h.app.services.connector.integrations,
        pim,
        mappings: new MappingRepository(db),
        queue,
        executorOf,
        settleMs: 0,
        now: () => clock ?? Date.now(),
        ...over,
      });

    /** The sync.product jobs of this integration: PIM product ids, sorted, with how many jobs each. */
    const queued = async () => {
      const { rows } = await h.database.executor.executeSql(
        `SELECT (data->>'pimProductId')::int AS id, data->>'reason' AS reason, singleton_key FROM pgboss.job WHERE name = $1 AND data->>'integrationId' = $2 ORDER BY 1`,
        [JOB.syncProduct, String(integrationId)],
      );
      for (const r of rows) {
        assert.equal(r.reason, 'delta');
        assert.equal(r.singleton_key, `${integrationId}:${r.id}`);
      }
      return rows.map((r) => Number(r.id));
    };
    const watermark = async () => {
      const s = await repo.state(integrationId);
      return s?.watermarkAt ? { at: s.watermarkAt.toISOString(), id: s.watermarkId } : null;
    };
    const product = async (name: string) => (await createProduct(c, { name })) as { id: number; updated_at: string };
    /** A mapping that synced this PIM version of the product (null: a version not known), as a push writes it. */
    const syncedAt = (pimProductId: number, version: string | null) =>
      new MappingRepository(db).saveSynced(integrationId, pimProductId, {
        storefrontProductId: pimProductId,
        storefrontVariantId: null,
        metadata: { storefront_handle: `pim-${pimProductId}`, storefront_title: 'Synced', variant_count: 0, image_count: 0, last_push_method: 'create' },
        state: { productId: `gid://shopify/Product/${pimProductId}`, variantIds: {}, mediaIds: {} },
        at: new Date(),
        pimUpdatedAt: version === null ? null : new Date(version),
      });

    it('queues exactly the products changed since connecting; a second poll finds nothing new', async () => {
      const before = await createProduct(c, { name: 'Before connecting' });
      // Connected after `before` was last changed: a new integration on the same tenant's PIM (no route dates one).
      await h.database.db.execute(sql`UPDATE integrations SET created_at = now() WHERE id = ${integrationId}`);
      const a = await product('A');
      const b = await product('B');
      okData(await c('PATCH', `/api/products/${a.id}`, { name: 'A changed' }));
      const first = await service().poll(integrationId);
      assert.deepEqual(
        await queued(),
        [b.id, a.id].sort((x, y) => x - y),
      );
      assert.equal(first.seen, 2);
      assert.equal(first.enqueued, 2);
      const changedA = okData(await c('GET', `/api/products/${a.id}`));
      assert.deepEqual(await watermark(), { at: changedA.updated_at, id: a.id }, 'the last product of the (updated_at, id) order');
      assert.ok(!(await queued()).includes(before.id), 'changes before the connection are the full sync’s');
      const second = await service().poll(integrationId);
      assert.deepEqual({ seen: second.seen, enqueued: second.enqueued }, { seen: 0, enqueued: 0 });
      assert.deepEqual(await watermark(), { at: changedA.updated_at, id: a.id });
    });

    it('skips products whose mapping synced that version (or a later one); queues older and unmapped ones', async () => {
      const synced = await product('Synced');
      const stale = await product('Stale');
      const newer = await product('Synced later');
      const fresh = await product('Never pushed');
      await syncedAt(synced.id, synced.updated_at);
      await syncedAt(stale.id, new Date(Date.parse(stale.updated_at) - 1).toISOString());
      await syncedAt(newer.id, new Date(Date.parse(newer.updated_at) + 5_000).toISOString());
      await syncedAt(fresh.id, null);
      const r = await service().poll(integrationId);
      assert.deepEqual(await queued(), [stale.id, fresh.id]);
      assert.deepEqual({ seen: r.seen, enqueued: r.enqueued, skipped: r.skipped }, { seen: 4, enqueued: 2, skipped: 2 });
      assert.deepEqual(await watermark(), { at: fresh.updated_at, id: fresh.id }, 'the watermark passes skipped products too');
    });

    it('pages through ties of one updated_at across page boundaries, each product once', async () => {
      const made: number[] = [];
      for (let i = 0; i < 7; i++) made.push((await product(`Tie ${i}`)).id);
      const category = okData(await c('POST', '/api/categories', { name: 'Ties' }), 201);
      okData(await c('POST', `/api/categories/${category.id}/products`, { product_ids: made }));
      const tie = okData(await c('GET', `/api/products/${made[0]}`)).updated_at;
      const pages: number[][] = [];
      const counting: Pick<PimClient, 'changedProducts'> = {
        changedProducts: async (conn, cursor) => {
          const page = await pim.changedProducts(conn, cursor);
          pages.push(page.map((p) => p.id));
          return page;
        },
      };
      const r = await service({ pim: counting, pageSize: 3 }).poll(integrationId);
      assert.deepEqual(pages, [made.slice(0, 3), made.slice(3, 6), made.slice(6)]);
      assert.deepEqual(await queued(), made);
      assert.equal(r.enqueued, 7);
      assert.deepEqual(await watermark(), { at: tie, id: made[6] });
    });

    it('a failure between pages keeps the pages done; the next poll goes on from there, nothing lost or sent twice', async () => {
      const made: number[] = [];
      for (let i = 0; i < 5; i++) made.push((await product(`P${i}`)).id);
      const sent: number[] = [];
      const spy: Pick<JobQueue, 'sendMany'> = {
        sendMany: async (name, jobs, options) => {
          sent.push(...jobs.map((j) => (j.data as { pimProductId: number }).pimProductId));
          return queue.sendMany(name, jobs, options);
        },
      };
      let calls = 0;
      const flaky: Pick<PimClient, 'changedProducts'> = {
        changedProducts: async (conn, cursor) => {
          if (++calls === 2) throw new PimReadError('unavailable', 'The PIM at test could not be reached: connection refused');
          return pim.changedProducts(conn, cursor);
        },
      };
      await assert.rejects(service({ pim: flaky, queue: spy, pageSize: 2 }).poll(integrationId), /could not be reached/);
      assert.deepEqual(await queued(), made.slice(0, 2));
      const mid = okData(await c('GET', `/api/products/${made[1]}`));
      assert.deepEqual(await watermark(), { at: mid.updated_at, id: made[1] });
      await service({ queue: spy, pageSize: 2 }).poll(integrationId);
      assert.deepEqual(await queued(), made);
      assert.deepEqual(sent, made, 'each product sent once');
    });

    it('a failure inside a page’s transaction leaves neither its jobs nor a moved watermark', async () => {
      const a = await product('A');
      const failing: Pick<JobQueue, 'sendMany'> = {
        sendMany: async (name, jobs, options) => {
          await queue.sendMany(name, jobs, options);
          throw new Error('crash after the insert, before the commit');
        },
      };
      await assert.rejects(service({ queue: failing }).poll(integrationId), /crash after the insert/);
      assert.deepEqual(await queued(), [], 'the jobs went with the transaction');
      assert.equal(await watermark(), null);
      await service().poll(integrationId);
      assert.deepEqual(await queued(), [a.id]);
    });

    it('an unreachable PIM fails the poll and keeps the watermark', async () => {
      const a = await product('A');
      await service().poll(integrationId);
      const before = await watermark();
      await product('B');
      // The PIM moved away (the update route would refuse an address it cannot reach: the row itself).
      await h.database.db.execute(sql`UPDATE integrations SET pim_base_url = 'http://127.0.0.1:9' WHERE id = ${integrationId}`);
      const err = await service()
        .poll(integrationId)
        .catch((e) => e);
      assert.ok(err instanceof PimReadError && err.kind === 'unavailable', String(err));
      assert.deepEqual(await watermark(), before);
      assert.deepEqual(await queued(), [a.id]);
    });

    it('an inactive integration is not polled', async () => {
      await product('A');
      assert.equal((await h.call('POST', '/api/disconnect', token)).statusCode, 200);
      const r = await service().poll(integrationId);
      assert.deepEqual(r, { seen: 0, enqueued: 0, skipped: 0, watermark: null });
      assert.deepEqual(await queued(), []);
      assert.ok(!(await repo.activeIntegrationIds()).includes(integrationId));
    });

    it('a change younger than the settle time is queued at once, but the watermark waits for it to settle', async () => {
      const a = await product('Settled');
      await clockPast(Date.now(), 1); // b in a later millisecond than a
      const b = await product('Fresh');
      // "Now" is b's own millisecond and the settle time 1 ms: a has settled, b not yet.
      clock = Date.parse(b.updated_at);
      const settle = service({ settleMs: 1 });
      const r1 = await settle.poll(integrationId);
      assert.deepEqual(await queued(), [a.id, b.id]);
      assert.equal(r1.enqueued, 2);
      assert.deepEqual(await watermark(), { at: a.updated_at, id: a.id });
      // Read again while its job still waits: sent again, dropped by the queue (one queued job per product).
      const again = await settle.poll(integrationId);
      assert.deepEqual({ seen: again.seen, enqueued: again.enqueued }, { seen: 1, enqueued: 1 });
      assert.deepEqual(await queued(), [a.id, b.id]);
      // b synced meanwhile: read again, skipped, and now passed.
      await syncedAt(b.id, b.updated_at);
      clock = Date.parse(b.updated_at) + 60_000;
      const r2 = await settle.poll(integrationId);
      assert.deepEqual({ seen: r2.seen, enqueued: r2.enqueued, skipped: r2.skipped }, { seen: 1, enqueued: 0, skipped: 1 });
      assert.deepEqual(await watermark(), { at: b.updated_at, id: b.id });
    });

    it('ticks of several nodes send one sync.poll per active integration per interval', async () => {
      await h.database.executor.executeSql(`DELETE FROM pgboss.job WHERE name = $1`, [JOB.syncPoll]);
      const active = await repo.activeIntegrationIds();
      assert.ok(active.includes(integrationId));
      const nodeA = new DeltaPoller(repo, queue, 3_600);
      const nodeB = new DeltaPoller(repo, queue, 3_600);
      assert.equal(await nodeA.tick(), active.length);
      assert.equal(await nodeB.tick(), 0, 'the other node’s tick finds this interval’s polls sent');
      // Even once the polls ran, the interval's slot stays taken.
      await h.database.executor.executeSql(`UPDATE pgboss.job SET state = 'completed', completed_on = now() WHERE name = $1`, [JOB.syncPoll]);
      assert.equal(await nodeA.tick(), 0);
      const { rows } = await h.database.executor.executeSql(`SELECT data->>'integrationId' AS id, singleton_key FROM pgboss.job WHERE name = $1 ORDER BY 1`, [
        JOB.syncPoll,
      ]);
      assert.deepEqual(rows.map((r) => r.singleton_key).sort(), active.map(String).sort());
      // start() ticks at once; stop() waits for the tick.
      await h.database.executor.executeSql(`DELETE FROM pgboss.job WHERE name = $1`, [JOB.syncPoll]);
      const poller = new DeltaPoller(repo, queue, 3_600);
      poller.start();
      await poller.stop();
      const after = await h.database.executor.executeSql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [JOB.syncPoll]);
      assert.equal(after.rows[0].n, active.length);
    });
  });
}
