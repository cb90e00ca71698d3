// queue_stats and the health score from the job queue, through GET /api/status and GET /api/status/{id}: pending
// (queued, and waiting for a retry), processing (running) and failed (for good, last 24 h) jobs of the integration,
// never another integration's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JOB_QUEUE_NOTE } from '../src/connector/status/queue-stats.js';
import { JOB } from '../src/jobs/job-types.js';
import { StorefrontError } from '../src/storefront/port/errors.js';
import type { KnownStorefrontProduct } from '../src/storefront/port/known-product.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { jobRows, until } from './helpers/jobs.js';
import { FakeStorefront, pimProduct } from './helpers/push.js';

/** Holds products named `hold…` until released; fails products named `fail…` as unavailable. */
class ScriptedStorefront extends FakeStorefront {
  private release!: () => void;
  readonly released = new Promise<void>((r) => (this.release = r));
  holding = 0;
  open(): void {
    this.release();
  }
  override async upsertProduct(shop: StorefrontShop, snapshot: PimProductSnapshot, known: KnownStorefrontProduct) {
    if (snapshot.name.startsWith('fail')) throw new StorefrontError('unavailable', 'Shopify answered HTTP 503');
    if (snapshot.name.startsWith('hold')) {
      this.holding++;
      await this.released;
    }
    return super.upsertProduct(shop, snapshot, known);
  }
}

for (const target of databaseTargets()) {
  describe(`queue_stats and the health score from the job queue (${target.name})`, () => {
    let h: ConnectorHarness;
    const store = new ScriptedStorefront();

    before(async () => {
      // No delta poller (SYNC_POLL_SECONDS=0): every job here is one the test sent (the poller would queue the new products too).
      h = await connectorHarness(target, { SYNC_RETRY_LIMIT: '1', SYNC_RETRY_DELAY_SECONDS: '0', SYNC_POLL_SECONDS: '0' }, 0, { syncStorefront: store });
    });
    after(async () => h.close());

    const stats = async (token: string, id: number) => {
      const own = await h.call('GET', '/api/status', token);
      assert.equal(own.statusCode, 200, own.body);
      const pub = await h.call('GET', `/api/status/${id}`);
      assert.equal(pub.statusCode, 200, pub.body);
      assert.deepEqual(pub.json().queue_stats, own.json().data.queue_stats, 'both views count the same');
      assert.deepEqual(
        pub.json().health_score.factors.filter((f: string) => /queue/.test(f)),
        own.json().data.health_score.factors.filter((f: string) => /queue/.test(f)),
      );
      return { queue: own.json().data.queue_stats, health: pub.json().health_score };
    };
    const send = (integrationId: number, pimProductId: number) =>
      h.app.services.jobs.queue.send(JOB.syncProduct, { integrationId, pimProductId, reason: 'delta' }, { singletonKey: `${integrationId}:${pimProductId}` });

    it('pending, processing and failed jobs of this integration only; failed jobs cost health', async () => {
      const a = await h.connected();
      const b = await h.connected();
      const held = await pimProduct(h, a.tenant, 'hold me');
      const doomed = [await pimProduct(h, a.tenant, 'fail one'), await pimProduct(h, a.tenant, 'fail two')];
      const fine = await pimProduct(h, a.tenant, 'fine');

      // (The shop is not reachable from here: its factor is in the baseline, the same before and after.)
      const baseline = await stats(a.token, a.integrationId);
      assert.deepEqual(baseline.queue, { pending_messages: 0, processing_messages: 0, failed_messages: 0, note: JOB_QUEUE_NOTE });
      assert.deepEqual(
        baseline.health.factors.filter((f: string) => /queue/.test(f)),
        [],
      );

      // Pending: queued, no worker yet.
      for (const id of [held, ...doomed, fine]) await send(a.integrationId, id);
      await send(b.integrationId, 1);
      assert.deepEqual((await stats(a.token, a.integrationId)).queue, {
        pending_messages: 4,
        processing_messages: 0,
        failed_messages: 0,
        note: JOB_QUEUE_NOTE,
      });
      assert.equal((await stats(b.token, b.integrationId)).queue.pending_messages, 1, "the other integration's own job only");

      // Processing: the held product is running; the failing ones end failed for good (first try + one retry).
      await h.app.services.jobs.workers.start();
      await until('the held job running and the doomed ones failed', async () => {
        const rows = await jobRows(h.database, JOB.syncProduct);
        return store.holding === 1 && rows.filter((r) => r.state === 'failed').length === 2;
      });
      await until('the rest done', async () => (await jobRows(h.database, JOB.syncProduct)).filter((r) => r.state === 'completed').length >= 2);
      const during = await stats(a.token, a.integrationId);
      assert.deepEqual(during.queue, { pending_messages: 0, processing_messages: 1, failed_messages: 2, note: JOB_QUEUE_NOTE });
      assert.ok(during.health.factors.includes('2 failed queue jobs (-4)'), JSON.stringify(during.health));
      assert.ok(during.health.factors.includes('2 product mappings of 4 in error (-10)'), JSON.stringify(during.health));
      // The delta jobs' outcomes are in the integration's delta sync log (products.delta_sync): with two failed, it is
      // one failed (partial) sync.
      assert.ok(during.health.factors.includes('1 failed sync in the last 24 hours (-5)'), JSON.stringify(during.health));
      assert.equal(during.health.score, baseline.health.score - 4 - 10 - 5, '-2 per failed job (and the two mappings in error, and the failed delta sync)');

      store.open();
      await until('the held job completed', async () => (await stats(a.token, a.integrationId)).queue.processing_messages === 0);
      const afterwards = await stats(a.token, a.integrationId);
      assert.deepEqual(afterwards.queue, { pending_messages: 0, processing_messages: 0, failed_messages: 2, note: JOB_QUEUE_NOTE });
      assert.deepEqual((await stats(b.token, b.integrationId)).queue.failed_messages, 0, "a's failures are not b's");
      // GET /api/system/status keeps exactly the spec's stats: queue counts are per integration only.
      const system = await h.call('GET', '/api/system/status');
      assert.deepEqual(Object.keys(system.json().stats).sort(), ['active_integrations', 'recent_syncs', 'system_health', 'total_integrations']);
    });

    it('a job waiting for its retry counts as pending', async () => {
      await h.app.services.jobs.workers.stop(1_000);
      const c = await h.connected();
      const jobId = await send(c.integrationId, 5);
      const [job] = await h.app.services.jobs.queue.fetch(JOB.syncProduct, 10);
      assert.equal(job.id, jobId);
      assert.equal((await stats(c.token, c.integrationId)).queue.processing_messages, 1);
      await h.database.executor.executeSql(`UPDATE pgboss.job SET retry_delay = 3600, retry_backoff = false WHERE id = $1`, [jobId]);
      await h.app.services.jobs.queue.fail(JOB.syncProduct, jobId!, new Error('blip'));
      assert.deepEqual((await stats(c.token, c.integrationId)).queue, {
        pending_messages: 1,
        processing_messages: 0,
        failed_messages: 0,
        note: JOB_QUEUE_NOTE,
      });
    });
  });
}
