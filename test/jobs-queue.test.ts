// The job queue itself (pg-boss through the database's executor) on PGlite and PostgreSQL: sends and their
// de-duplication, transactional sends, workers with a concurrency bound, retries with the final try flagged, one job
// per singleton key at a time without holding up other keys, leases (heartbeat, expiry), releasing jobs of a dead
// process, and a graceful stop.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { after, before, describe, it } from 'node:test';
import { JOB } from '../src/jobs/job-types.js';
import { executorOf, PgBossQueue } from '../src/jobs/queue.js';
import { Workers } from '../src/jobs/workers.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { jobRows, until } from './helpers/jobs.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
};

for (const target of databaseTargets()) {
  describe(`job queue (${target.name})`, () => {
    let h: Harness;
    const queues: PgBossQueue[] = [];

    before(async () => {
      h = await harness(target);
    });
    after(async () => {
      for (const q of queues) await q.stop(0);
      await h.close();
    });

    /** A queue of its own on the harness's database, fast to poll and retry. */
    const newQueue = async (tuning: Partial<{ retryLimit: number; expireInSeconds: number }> = {}) => {
      const q = new PgBossQueue(h.database.executor, { retryLimit: 2, retryDelaySeconds: 0, expireInSeconds: 30, pollIntervalMs: 50, ...tuning });
      await q.start();
      queues.push(q);
      return q;
    };
    const purge = async () => {
      await h.database.executor.executeSql('DELETE FROM pgboss.job');
    };

    it('creates its schema and queues with their policies; start is idempotent', async () => {
      const q = await newQueue();
      await q.start();
      const { rows } = await h.database.executor.executeSql('SELECT name, policy, retry_limit FROM pgboss.queue ORDER BY name');
      assert.deepEqual(
        rows.map((r) => [r.name, r.policy]),
        [
          ['catalogue.adopt', 'standard'],
          ['catalogue.drift', 'standard'],
          ['catalogue.import', 'standard'],
          ['sync.bulk', 'singleton'],
          ['sync.full', 'standard'],
          ['sync.poll', 'stately'],
          ['sync.product', 'stately'],
        ],
      );
      assert.equal(Number(rows.find((r) => r.name === 'sync.product').retry_limit), 2);
    });

    it('a send with the singletonKey of a queued job is dropped; sendMany skips such duplicates too', async () => {
      await purge();
      const q = await newQueue();
      const first = await q.send(JOB.syncProduct, { integrationId: 1, pimProductId: 7, reason: 'delta' }, { singletonKey: '1:7' });
      assert.match(first ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(await q.send(JOB.syncProduct, { integrationId: 1, pimProductId: 7, reason: 'delta' }, { singletonKey: '1:7' }), null);
      await q.sendMany(JOB.syncProduct, [
        { data: { integrationId: 1, pimProductId: 7, reason: 'full' }, singletonKey: '1:7' },
        { data: { integrationId: 1, pimProductId: 8, reason: 'full' }, singletonKey: '1:8' },
        { data: { integrationId: 1, pimProductId: 8, reason: 'full' }, singletonKey: '1:8' },
      ]);
      const rows = await jobRows(h.database, JOB.syncProduct);
      assert.deepEqual(rows.map((r) => r.singleton_key).sort(), ['1:7', '1:8']);
      assert.ok(rows.every((r) => r.state === 'created'));
    });

    it('a send inside a transaction exists only if the transaction commits', async () => {
      await purge();
      const q = await newQueue();
      await assert.rejects(
        h.database.db.transaction(async (tx) => {
          await q.send(JOB.syncPoll, { integrationId: 41 }, { db: executorOf(tx as never), singletonKey: '41' });
          await tx.execute(sql`select 1`);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal((await jobRows(h.database, JOB.syncPoll)).length, 0);
      await h.database.db.transaction(async (tx) => {
        await q.send(JOB.syncPoll, { integrationId: 42 }, { db: executorOf(tx as never), singletonKey: '42' });
        await q.sendMany(JOB.syncPoll, [{ data: { integrationId: 43 }, singletonKey: '43' }], { db: executorOf(tx as never) });
      });
      assert.deepEqual((await jobRows(h.database, JOB.syncPoll)).map((r) => r.data.integrationId).sort(), [42, 43]);
    });

    it('workers run every job once, never more than the concurrency at a time', async () => {
      await purge();
      const q = await newQueue();
      const seen: number[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      q.work(
        JOB.syncProduct,
        async (job) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          // Each job stays in flight until the workers are full (or only the last ones are left): a fourth would show.
          await until('the workers full', () => inFlight >= 3 || seen.length + inFlight >= 30, 20_000, 1);
          seen.push(job.data.pimProductId);
          inFlight--;
        },
        { concurrency: 3 },
      );
      await q.sendMany(
        JOB.syncProduct,
        Array.from({ length: 30 }, (_, i) => ({ data: { integrationId: 1, pimProductId: i + 1, reason: 'full' as const }, singletonKey: `1:${i + 1}` })),
      );
      await until('30 jobs done', () => seen.length === 30);
      await q.stopWorkers(1_000);
      assert.deepEqual(
        [...seen].sort((a, b) => a - b),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      assert.ok(maxInFlight <= 3 && maxInFlight >= 2, `max in flight ${maxInFlight}`);
      await until('all completed', async () => (await jobRows(h.database, JOB.syncProduct)).every((r) => r.state === 'completed'));
    });

    it('a throwing handler is retried; the last try is flagged final, then the job is failed with the error', async () => {
      await purge();
      const q = await newQueue({ retryLimit: 2 });
      const tries: boolean[] = [];
      q.work(
        JOB.syncProduct,
        async (job) => {
          tries.push(job.finalAttempt);
          throw new Error(`storefront unavailable (try ${tries.length})`);
        },
        { concurrency: 2 },
      );
      await q.send(JOB.syncProduct, { integrationId: 1, pimProductId: 1, reason: 'delta' }, { singletonKey: '1:1' });
      const [job] = await until('the job failed for good', async () => {
        const rows = await jobRows(h.database, JOB.syncProduct);
        return rows[0]?.state === 'failed' ? rows : null;
      });
      await q.stopWorkers(1_000);
      assert.deepEqual(tries, [false, false, true]);
      assert.equal(job.retry_count, 2);
      assert.equal(job.output.message, 'storefront unavailable (try 3)');
    });

    it('one job per singleton key runs at a time (sync.bulk per shop) without holding up other keys', async () => {
      await purge();
      const q = await newQueue();
      const started: string[] = [];
      const gates = new Map<string, ReturnType<typeof gate>>();
      q.work(
        JOB.syncBulk,
        async (job) => {
          const tag = `${job.data.integrationId}/${job.data.batchId}`;
          started.push(tag);
          const g = gate();
          gates.set(tag, g);
          await g.opened;
        },
        { concurrency: 4 },
      );
      const fs = '00000000-0000-4000-8000-000000000001';
      await q.send(JOB.syncBulk, { integrationId: 1, fullSyncId: fs, batchId: 1 }, { singletonKey: '1' });
      await until('shop 1 batch 1 running', () => started.includes('1/1'));
      await q.send(JOB.syncBulk, { integrationId: 1, fullSyncId: fs, batchId: 2 }, { singletonKey: '1' });
      await q.send(JOB.syncBulk, { integrationId: 2, fullSyncId: fs, batchId: 3 }, { singletonKey: '2' });
      await until("shop 2's batch running beside shop 1's", () => started.includes('2/3'));
      assert.deepEqual(started, ['1/1', '2/3'], "shop 1's second batch waits for its first");
      gates.get('1/1')!.open();
      await until('shop 1 batch 2 running', () => started.includes('1/2'));
      gates.get('1/2')!.open();
      gates.get('2/3')!.open();
      await until('all completed', async () => (await jobRows(h.database, JOB.syncBulk)).every((r) => r.state === 'completed'));
      await q.stopWorkers(1_000);
    });

    it('a running job keeps its lease (heartbeat); a job whose worker is gone is expired by maintenance and retried', async () => {
      await purge();
      const q = await newQueue({ expireInSeconds: 3 }); // heartbeat every second
      const g = gate();
      let runs = 0;
      q.work(
        JOB.syncFull,
        async () => {
          runs++;
          await g.opened;
        },
        { concurrency: 1 },
      );
      await q.send(JOB.syncFull, { integrationId: 1, fullSyncId: '00000000-0000-4000-8000-000000000002' });
      await until('running', () => runs === 1);
      const startedOn = async () =>
        (await h.database.executor.executeSql(`SELECT started_on FROM pgboss.job WHERE name = 'sync.full'`)).rows[0].started_on as Date;
      const first = (await startedOn()).getTime();
      await until('the lease renewed', async () => (await startedOn()).getTime() > first, 5_000);
      g.open();
      await until('completed', async () => (await jobRows(h.database, JOB.syncFull))[0].state === 'completed');
      await q.stopWorkers(1_000);

      // A job left active by a dead worker (no heartbeat for longer than its expiry): maintenance hands it out again.
      await q.send(JOB.syncPoll, { integrationId: 9 });
      const [job] = await q.fetch(JOB.syncPoll, 1);
      await h.database.executor.executeSql(`UPDATE pgboss.job SET started_on = now() - interval '1 hour' WHERE id = $1`, [job.id]);
      await h.database.executor.executeSql('UPDATE pgboss.version SET maintained_on = NULL');
      assert.equal(await q.maintain(1), true);
      const [row] = await jobRows(h.database, JOB.syncPoll);
      assert.equal(row.state, 'retry');
      assert.equal(row.output.value?.message ?? row.output.message, 'job failed by timeout in active state');
    });

    it('a job whose lease ran out is taken over at once and counts as a try; status calls it pending; the stalled run stops', async () => {
      await purge();
      const q = await newQueue({ expireInSeconds: 3 }); // heartbeat every second
      const reasons: unknown[] = [];
      const tries: number[] = [];
      q.work(
        JOB.syncFull,
        async (job) => {
          tries.push(job.retryCount);
          if (tries.length > 1) return;
          // The first run hangs, as a frozen process would, until it learns it lost the job.
          await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(void reasons.push(job.signal.reason)), { once: true }));
        },
        { concurrency: 1 },
      );
      await q.send(JOB.syncFull, { integrationId: 4, fullSyncId: '00000000-0000-4000-8000-000000000004' });
      await until('running', () => tries.length === 1);
      assert.equal(await q.reclaimExpired(), 0, 'a live lease is left alone');
      assert.deepEqual(await q.counts(4), { pending: 0, processing: 1, failed24h: 0 });

      // The lease runs out (no renewal can save it now: a lease of 0 s).
      await h.database.executor.executeSql(`UPDATE pgboss.job SET expire_in = interval '0 seconds' WHERE name = 'sync.full'`);
      assert.deepEqual(await q.counts(4), { pending: 1, processing: 0, failed24h: 0 }, 'nobody is processing a job whose lease ran out');
      assert.equal(await q.reclaimExpired(), 1);
      await until('the stalled run learned it lost the job', () => reasons.length === 1, 5_000);
      assert.equal((reasons[0] as Error).name, 'LeaseLost');
      await until('run again and completed', async () => (await jobRows(h.database, JOB.syncFull))[0]?.state === 'completed');
      assert.deepEqual(tries, [0, 1], 'the interrupted run counted as a try');
      await q.stopWorkers(1_000);
    });

    it('jobs left active by a process that died are run again when workers start with releaseOrphans (PGlite)', async () => {
      await purge();
      const q = await newQueue();
      await q.send(JOB.syncProduct, { integrationId: 3, pimProductId: 1, reason: 'delta' }, { singletonKey: '3:1' });
      const [orphan] = await q.fetch(JOB.syncProduct, 5);
      assert.ok(orphan, 'the job is active, as if its process had been killed');
      const ran: string[] = [];
      const tries: number[] = [];
      const workers = new Workers(
        q,
        {
          [JOB.syncProduct]: {
            handler: async (job) => {
              ran.push(job.id);
              tries.push(job.retryCount);
            },
          },
        },
        { concurrency: 2, releaseOrphans: true, maintenanceIntervalSeconds: 300, reclaimIntervalSeconds: 0 },
      );
      await workers.start();
      await until('the orphan ran', () => ran.includes(orphan.id));
      assert.deepEqual(tries, [1], 'the crashed run counts as a try (a job that kills its process cannot loop forever)');
      await until('and completed', async () => (await jobRows(h.database, JOB.syncProduct))[0].state === 'completed');
      await workers.stop(1_000);
    });

    it('a graceful stop lets running jobs finish, and hands back those that outlast the timeout', async () => {
      await purge();
      const q = await newQueue();
      const quick = gate();
      const started = new Set<number>();
      q.work(
        JOB.syncProduct,
        async (job) => {
          started.add(job.data.pimProductId);
          if (job.data.pimProductId === 1) await quick.opened;
          else await new Promise(() => {}); // never ends: must be released
        },
        { concurrency: 2 },
      );
      await q.sendMany(
        JOB.syncProduct,
        [1, 2].map((id) => ({ data: { integrationId: 5, pimProductId: id, reason: 'delta' as const }, singletonKey: `5:${id}` })),
      );
      await until('both running', () => started.size === 2);
      const stopping = q.stopWorkers(400);
      quick.open();
      await stopping;
      const rows = await jobRows(h.database, JOB.syncProduct);
      const state = (id: number) => rows.find((r) => r.data.pimProductId === id)!.state;
      assert.equal(state(1), 'completed');
      assert.equal(state(2), 'retry', 'released for another worker, at once');
      const again = await q.fetch(JOB.syncProduct, 5);
      assert.deepEqual(
        again.map((j) => j.data),
        [{ integrationId: 5, pimProductId: 2, reason: 'delta' }],
      );
      assert.equal(again[0].retryCount, 0, 'a job handed back by a stop has not spent a try');
    });
  });
}
