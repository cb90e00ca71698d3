// The sync.product job on a harness app whose workers are started explicitly: a PIM product read over HTTP from the
// app's own PIM and upserted into a counting in-memory storefront; its outcomes (synced, permanent failure, transient
// failure retried, failed for good, inactive integration) on the mapping, the job and the integration.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JOB } from '../src/jobs/job-types.js';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../src/storefront/port/known-product.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { mappingOf, mappingRowOf, publicStatusOf, syncLogsOf } from './helpers/connector-reads.js';
import { databaseTargets } from './helpers/harness.js';
import { jobRows, until } from './helpers/jobs.js';
import { FakeStorefront, pimProduct, StorefrontSwitch } from './helpers/push.js';

/** Fails the first `failures` calls per product as unavailable (after the adapter's own retries, as it would). */
class FlakyStorefront extends FakeStorefront {
  tries = new Map<number, number>();
  constructor(private readonly failures: number) {
    super();
  }
  override async upsertProduct(shop: StorefrontShop, snapshot: PimProductSnapshot, known: KnownStorefrontProduct) {
    const n = (this.tries.get(snapshot.id) ?? 0) + 1;
    this.tries.set(snapshot.id, n);
    if (n <= this.failures) throw new StorefrontError('unavailable', `Shopify answered HTTP 503 (try ${n})`);
    return super.upsertProduct(shop, snapshot, known);
  }
}

for (const target of databaseTargets()) {
  describe(`sync.product jobs (${target.name})`, () => {
    let h: ConnectorHarness;
    const storefront = new StorefrontSwitch();

    before(async () => {
      // No delta poller (SYNC_POLL_SECONDS=0): every job here is one the test sent (the poller would queue the new products too).
      h = await connectorHarness(target, { SYNC_RETRY_LIMIT: '2', SYNC_RETRY_DELAY_SECONDS: '0', SYNC_POLL_SECONDS: '0' }, 0, { syncStorefront: storefront });
      await h.app.services.jobs.workers.start();
    });
    after(async () => h.close());

    /** The product's mapping as GET /api/products/mapping/{id} answers it (null: none). */
    const mapping = async (c: { token: string }, pimId: number) => {
      const m = await mappingOf(h, c.token, pimId);
      return m && { sync_status: m.sync_status, sync_error: m.sync_error, storefront_product_id: m.storefront_product_id };
    };
    const job = async (id: string) => (await jobRows(h.database, JOB.syncProduct)).find((j) => j.id === id)!;
    const send = async (integrationId: number, pimProductId: number) =>
      (await h.app.services.jobs.queue.send(
        JOB.syncProduct,
        { integrationId, pimProductId, reason: 'delta' },
        { singletonKey: `${integrationId}:${pimProductId}` },
      ))!;
    const ended = (id: string) =>
      until(`job ${id} ended`, async () => {
        const row = await job(id);
        return ['completed', 'failed'].includes(row.state) ? row : null;
      });
    const useStorefront = <T extends FakeStorefront>(s: T): T => storefront.use(s);

    it('syncs the product: mapping synced, last_sync_at touched, counted in the delta sync log; the job completes', async () => {
      const store = useStorefront(new FakeStorefront());
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Queued Lamp', 2);
      const done = await ended(await send(c.integrationId, id));
      assert.equal(done.state, 'completed');
      assert.deepEqual(
        store.calls.map((x) => [x.pimId, x.snapshot.variants.length]),
        [[id, 2]],
      );
      const m = (await mapping(c, id))!;
      assert.equal(m.sync_status, 'synced');
      assert.equal(m.storefront_product_id, 9_000_000_001);
      assert.ok((await publicStatusOf(h, c.integrationId)).last_sync_at, 'last_sync_at set');
      // A delta job is counted in the integration's delta sync log (not one log per job: recordDelta gathers them).
      const logs = await syncLogsOf(h, c.token);
      assert.deepEqual(
        logs.map((l) => [l.operation, l.status, l.records_processed, l.records_failed]),
        [['products.delta_sync', 'success', 1, 0]],
      );

      // Again: an update of the same storefront product, never a second one; the same log counts it.
      await ended(await send(c.integrationId, id));
      assert.deepEqual(
        (await syncLogsOf(h, c.token)).map((l) => [l.operation, l.records_processed]),
        [['products.delta_sync', 2]],
      );
      assert.equal(store.products.size, 1);
      assert.equal(store.calls[1].known.productId, 'gid://shopify/Product/9000000001');
    });

    it('permanent failures (PIM 404, the storefront refusing the product) go on the mapping; the job completes untried', async () => {
      const store = useStorefront(new FakeStorefront());
      const c = await h.connected();
      const missing = await ended(await send(c.integrationId, 987_654));
      assert.equal(missing.state, 'completed');
      assert.equal(missing.retry_count, 0);
      assert.deepEqual(await mapping(c, 987_654), {
        sync_status: 'error',
        sync_error: 'PIM product 987654 not found',
        storefront_product_id: null,
      });

      const id = await pimProduct(h, c.tenant, 'TOO MANY OPTIONS chair');
      const refused = await ended(await send(c.integrationId, id));
      assert.equal(refused.state, 'completed');
      assert.equal(store.calls.length, 1);
      const m = (await mapping(c, id))!;
      assert.equal(m.sync_status, 'error');
      assert.match(m.sync_error!, /^The storefront refused PIM product \d+: .*3 options/);
    });

    it('a transient storefront failure is retried with the queue and then syncs', async () => {
      const store = useStorefront(new FlakyStorefront(2));
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Flaky Kettle');
      const done = await ended(await send(c.integrationId, id));
      assert.equal(done.state, 'completed');
      assert.equal(done.retry_count, 2);
      assert.equal(store.tries.get(id), 3);
      assert.equal((await mapping(c, id))?.sync_status, 'synced', 'the earlier tries left no error behind');
    });

    it('after the last try the error is on the mapping and the job is failed', async () => {
      const store = useStorefront(new FlakyStorefront(99));
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Doomed Vase');
      const done = await ended(await send(c.integrationId, id));
      assert.equal(done.state, 'failed');
      assert.equal(store.tries.get(id), 3, 'the first try and SYNC_RETRY_LIMIT=2 retries');
      assert.match(done.output.message, /could not take PIM product .*HTTP 503 \(try 3\)/);
      const m = (await mapping(c, id))!;
      assert.equal(m.sync_status, 'error');
      assert.match(m.sync_error!, /^The storefront could not take PIM product \d+: Shopify answered HTTP 503 \(try 3\)$/);
    });

    it('an inactive integration: the job completes doing nothing', async () => {
      const store = useStorefront(new FakeStorefront());
      const c = await h.connected();
      const id = await pimProduct(h, c.tenant, 'Orphan Mug');
      assert.equal((await h.call('POST', '/api/disconnect', c.token)).statusCode, 200);
      const done = await ended(await send(c.integrationId, id));
      assert.equal(done.state, 'completed');
      assert.equal(store.calls.length, 0);
      // The disconnect revoked the tokens: no mapping, through the repository.
      assert.equal(await mappingRowOf(h.database.db, c.integrationId, id), null);
    });
  });
}
