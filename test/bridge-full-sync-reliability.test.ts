// Full syncs over real processes: the Shopify sandbox and the bridge as processes of their
// own, each on its own database (test/helpers/bridge-processes.ts). With the sandbox failing 30 % of calls and a tiny
// bucket: a per-call full sync (below SYNC_BULK_THRESHOLD) and a bulk one of 500 products end with every product
// synced, once on the storefront, and no throttle anywhere. Then a SIGKILL of the bridge in the middle of a bulk full
// sync and a restart: the sync resumes (the recorded bulk operation, the fan-out's cursor) and ends with every product
// exactly once in the store. No timing assertions: the deadlines only bound a hang.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { allMappings, gql, NO_FAULTS, startBridgeStack, type BridgeStack, type SeededProduct } from './helpers/bridge-processes.js';
import { StopWaiting, TimedOut, until } from './helpers/until.js';

const STEP = { timeout: 300_000 };
const THROTTLE = /throttl/i;
/** 30 % of calls fail (500/502/503) and the bucket holds little more than one productSet, refilling slowly. */
const HOSTILE = { ...NO_FAULTS, error_rate: 0.3, bucket_size: 120, restore_rate: 60 };
/** Seconds since `since`, for the test's diagnostics (where the time goes; no assertion on it). */
const secs = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const targets: { kind: 'pglite' | 'postgres'; pgBaseUrl?: string }[] = [{ kind: 'pglite' }];
const pgUrl = testDatabaseUrl();
if (pgUrl) targets.push({ kind: 'postgres', pgBaseUrl: pgUrl });

/** Storefront products by PIM id (the metafield the bridge writes); fails on a PIM product there twice. */
async function storeByPimId(s: BridgeStack): Promise<Map<number, string>> {
  const byPim = new Map<number, string>();
  let cursor: string | null = null;
  for (;;) {
    const data: {
      products: { nodes: { id: string; handle: string; metafield: { value: string } | null }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
    } = await gql(
      s,
      `query All($after: String) { products(first: 100, after: $after) {
        nodes { id handle metafield(namespace: "pimbridge", key: "pim_product_id") { value } }
        pageInfo { hasNextPage endCursor } } }`,
      { after: cursor },
    );
    for (const p of data.products.nodes) {
      assert.ok(p.metafield, `storefront product ${p.handle} carries its PIM id`);
      const id = Number(p.metafield.value);
      assert.ok(!byPim.has(id), `PIM product ${id} is on the storefront twice (${byPim.get(id)}, ${p.id})`);
      byPim.set(id, p.id);
    }
    if (!data.products.pageInfo.hasNextPage) return byPim;
    cursor = data.products.pageInfo.endCursor;
  }
}

interface FullSyncData {
  id: string;
  status: string;
  mode: string | null;
  total: number;
  queued: number;
  synced: number;
  failed: number;
  error: string | null;
}

async function progress(s: BridgeStack, id: string): Promise<FullSyncData> {
  const res = await s.connector('GET', `/api/sync/full/${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

/** Polls the sync until `done` says so (a bridge that is down is waited for). */
async function waitFor(s: BridgeStack, id: string, done: (d: FullSyncData) => boolean, timeoutMs = 240_000): Promise<FullSyncData> {
  let last: FullSyncData | null = null;
  const reached = async () => {
    try {
      last = await progress(s, id);
    } catch (err) {
      if (!/fetch failed|ECONNREFUSED/.test(String((err as Error).cause ?? err))) throw new StopWaiting(String(err), { cause: err });
      return null;
    }
    return done(last) ? last : null;
  };
  return until(`full sync ${id}`, reached, timeoutMs, 100).catch((err: unknown) => {
    // A failure of the check itself (not the bridge being down) ends the wait as it was; a timeout says where it got to.
    if (!(err instanceof TimedOut)) throw err;
    throw new Error(`full sync ${id} did not get there within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
  });
}

const ended = (d: FullSyncData) => d.status === 'completed' || d.status === 'failed';

async function startFullSync(s: BridgeStack): Promise<string> {
  const res = await s.connector('POST', '/api/sync/full');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id;
}

/** Every PIM product once on the storefront, mapped to it, synced without an error. */
async function assertAllSynced(s: BridgeStack, products: SeededProduct[]): Promise<void> {
  await s.configureSandbox(NO_FAULTS); // the checks' own reads
  const store = await storeByPimId(s);
  const ids = products.map((p) => p.id).sort((a, b) => a - b);
  assert.deepEqual(
    [...store.keys()].sort((a, b) => a - b),
    ids,
    'exactly the PIM products are on the storefront',
  );
  const maps = await allMappings(s);
  assert.equal(maps.length, ids.length);
  for (const m of maps) {
    assert.equal(m.sync_status, 'synced', `PIM product ${m.pim_product_id}: ${m.sync_error}`);
    assert.equal(
      `gid://shopify/Product/${m.storefront_product_id}`,
      store.get(m.pim_product_id),
      `PIM product ${m.pim_product_id} is mapped to its storefront product`,
    );
  }
}

describe('full sync reliability over real processes', { concurrency: true }, () => {
  for (const target of targets) {
    describe(`full sync reliability over real processes (${target.kind})`, { concurrency: false }, () => {
      let s: BridgeStack;
      const seeded: SeededProduct[] = [];

      before(async () => {
        s = await startBridgeStack({
          kind: target.kind,
          pgBaseUrl: target.pgBaseUrl,
          bridgeEnv: {
            SYNC_RETRY_DELAY_SECONDS: '1',
            SYNC_RETRY_LIMIT: '8',
            // A dead worker's job is taken back soon on PostgreSQL (PGlite takes it back at the next start).
            SYNC_JOB_EXPIRE_SECONDS: '10',
            SYNC_BULK_CHUNK: '200',
            // Delta polls only at a start (the slot is a day): the full syncs are what runs here.
            SYNC_POLL_SECONDS: '86400',
            // Nor at once on a PIM change (the wake): what runs here is what the test starts.
            SYNC_ON_PIM_CHANGE: 'false',
          },
        });
      }, STEP);
      after(async () => s?.close(), STEP);

      it('per call, 30 % of calls failing and a tiny bucket: every product synced once, no throttle surfaced', STEP, async (t) => {
        let t0 = Date.now();
        seeded.push(...(await s.seedProducts(30, { prefix: 'CALL', variants: 1, images: 0 })));
        t.diagnostic(`seed 30: ${secs(t0)}`);
        await s.configureSandbox({ ...HOSTILE, fault_seed: 5 });
        t0 = Date.now();
        const id = await startFullSync(s);
        const done = await waitFor(s, id, ended);
        t.diagnostic(`per-call sync 30: ${secs(t0)}`);
        assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed, done.error], ['completed', 'per_call', 30, 30, 0, null]);
        await assertAllSynced(s, seeded);
      });

      it('bulk, 500 products, 30 % of calls failing and a tiny bucket: all 500 synced once, no throttle surfaced', STEP, async (t) => {
        let t0 = Date.now();
        seeded.push(...(await s.seedProducts(470, { prefix: 'BULK', variants: 0, images: 0 })));
        t.diagnostic(`seed 470: ${secs(t0)}`);
        await s.configureSandbox({ ...HOSTILE, fault_seed: 9 });
        t0 = Date.now();
        const id = await startFullSync(s);
        const done = await waitFor(s, id, ended);
        t.diagnostic(`bulk sync 500: ${secs(t0)}`);
        assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed, done.error], ['completed', 'bulk', 500, 500, 0, null]);
        await assertAllSynced(s, seeded);
        const maps = await allMappings(s);
        assert.ok(maps.every((m) => !THROTTLE.test(m.sync_error ?? '')));
      });

      it('SIGKILL during a bulk full sync, then a restart: it resumes and ends with every product exactly once in the store', STEP, async (t) => {
        // New products (creates, where a lost answer could duplicate) after the 500 already there (updates).
        let t0 = Date.now();
        seeded.push(...(await s.seedProducts(400, { prefix: 'KILL', variants: 0, images: 0 })));
        t.diagnostic(`seed 400: ${secs(t0)}`);
        // Each call to the shop a little slow, so that the kill lands mid-sync however fast the machine: on a quiet one the
        // 900 products were all written between two looks at the progress.
        await s.configureSandbox({ ...NO_FAULTS, latency_ms: 300 });
        t0 = Date.now();
        const id = await startFullSync(s);
        // Killed once the first chunk is done and the next ones are on their way.
        const before = await waitFor(s, id, (d) => d.synced >= 200 || ended(d), 120_000);
        assert.equal(before.status, 'running', `the sync was still running when killed: ${JSON.stringify(before)}`);
        t.diagnostic(`until the kill: ${secs(t0)}`);
        await s.killBridge();
        await s.startBridge();
        const done = await waitFor(s, id, ended);
        t.diagnostic(`sync 900 with a kill: ${secs(t0)}`);
        assert.deepEqual([done.status, done.mode, done.total, done.synced, done.failed, done.error], ['completed', 'bulk', 900, 900, 0, null]);
        await assertAllSynced(s, seeded);
        // The one sync log of each full sync, whatever the restarts.
        const status = await s.connector('GET', '/api/status');
        const logs = (status.body.data.recent_syncs as { operation: string; status: string; records_processed: number }[]).filter(
          (l) => l.operation === 'products.full_sync',
        );
        assert.deepEqual(
          logs.map((l) => [l.status, l.records_processed]),
          [
            ['success', 900],
            ['success', 500],
            ['success', 30],
          ],
        );
      });
    });
  }
});
