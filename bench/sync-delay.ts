// The delta sync's delay: how long a PIM PATCH takes to reach the store at the default poll
// interval (SYNC_POLL_SECONDS 30), nobody calling push. PATCHes of distinct, already synced products are sent at
// random moments spread over two intervals (so at random phases of the poll clock), each followed by reads of the
// storefront product until its title is the new one; the delay is from the PATCH's answer to the first read showing it.
// bench/full-sync.ts runs it on its stack after the full sync; `npx tsx bench/sync-delay.ts [--smoke]` runs it alone
// (a bridge and a sandbox of its own, a few products pushed first).
import { startBridgeStack, type BridgeStack } from '../test/helpers/bridge-processes.js';
import { runIfMain } from './scratch.js';

export const DEFAULT_POLL_SECONDS = 30;

export interface SyncDelayResult {
  intervalSeconds: number;
  /** ms from each PATCH's answer to the store showing it, in the order they were sent. */
  samples: number[];
  /** Seconds into the run at which each PATCH was sent. */
  sentAt: number[];
  p50: number;
  max: number;
  /** Storefront reads that answered THROTTLED (the reads share the store's budget with the bridge). */
  throttledReads: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** The storefront product id (GID) of each PIM product, from its mapping. */
async function storefrontIds(s: BridgeStack, pimIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const id of pimIds) {
    const res = await s.connector('GET', `/api/products/mapping/${id}`);
    if (res.status !== 200 || res.body.data.sync_status !== 'synced')
      throw new Error(`PIM product ${id} is not synced: ${res.status} ${JSON.stringify(res.body)}`);
    out.set(id, `gid://shopify/Product/${res.body.data.storefront_product_id}`);
  }
  return out;
}

/**
 * `samples` PATCHes (each product once) at random moments over `spreadSeconds`, measured concurrently. Reads every
 * `readEveryMs` per pending sample (one point each, well within the store's restore rate).
 */
export async function measureSyncDelay(
  s: BridgeStack,
  pimIds: number[],
  o: { samples?: number; spreadSeconds?: number; intervalSeconds?: number; readEveryMs?: number; timeoutMs?: number; log?: (msg: string) => void } = {},
): Promise<SyncDelayResult> {
  const intervalSeconds = o.intervalSeconds ?? DEFAULT_POLL_SECONDS;
  const samples = o.samples ?? 8;
  const spread = (o.spreadSeconds ?? 2 * intervalSeconds) * 1000;
  const readEvery = o.readEveryMs ?? 250;
  const timeout = o.timeoutMs ?? 5 * intervalSeconds * 1000;
  const log = o.log ?? (() => {});
  if (pimIds.length < samples) throw new Error(`need ${samples} synced products, got ${pimIds.length}`);
  const chosen = pimIds.slice(0, samples);
  const gids = await storefrontIds(s, chosen);
  const offsets = chosen.map(() => Math.random() * spread).sort((a, b) => a - b);
  const started = performance.now();
  let throttledReads = 0;

  const one = async (pimId: number, offset: number, n: number): Promise<{ ms: number; at: number }> => {
    await sleep(Math.max(0, offset - (performance.now() - started)));
    const title = `Delay probe ${n} ${Date.now().toString(36)}`;
    const sentAt = (performance.now() - started) / 1000;
    const res = await s.pim('PATCH', `/api/products/${pimId}`, { name: title });
    if (res.status !== 200) throw new Error(`PATCH /api/products/${pimId}: ${res.status} ${JSON.stringify(res.body)}`);
    const patched = performance.now();
    const deadline = patched + timeout;
    while (performance.now() < deadline) {
      try {
        const data = await s.graphql<{ product: { title: string } | null }>('query Probe($id: ID!) { product(id: $id) { title } }', { id: gids.get(pimId) });
        if (data.product?.title === title) {
          const ms = performance.now() - patched;
          log(`sync delay: PATCH ${n} at ${sentAt.toFixed(1)} s reached the store after ${(ms / 1000).toFixed(1)} s`);
          return { ms, at: sentAt };
        }
      } catch (err) {
        if (!/THROTTLED/.test(String(err))) throw err;
        throttledReads++;
      }
      await sleep(readEvery);
    }
    throw new Error(`the PATCH of PIM product ${pimId} did not reach the store within ${timeout / 1000} s`);
  };

  const results = await Promise.all(chosen.map((id, i) => one(id, offsets[i], i + 1)));
  const ms = results.map((r) => r.ms);
  const sorted = [...ms].sort((a, b) => a - b);
  return { intervalSeconds, samples: ms, sentAt: results.map((r) => r.at), p50: percentile(sorted, 50), max: sorted[sorted.length - 1], throttledReads };
}

const f1 = (x: number) => x.toFixed(1);

export function syncDelayTarget(r: SyncDelayResult) {
  const limit = 2 * r.intervalSeconds * 1000;
  return {
    what: `PIM PATCH → store at the default poll interval (${r.intervalSeconds} s), ${r.samples.length} PATCHes at random phases`,
    target: `≤ ${2 * r.intervalSeconds} s (two intervals)`,
    measured: `p50 ${f1(r.p50 / 1000)} s, max ${f1(r.max / 1000)} s`,
    pass: r.max <= limit,
  };
}

export function syncDelayDetails(r: SyncDelayResult): string[] {
  return [
    `Delta-sync delay (\`bench/sync-delay.ts\`): SYNC_POLL_SECONDS ${r.intervalSeconds} (the default); ${r.samples.length} PATCHes of the name of distinct, already synced products, sent at random moments spread over ${2 * r.intervalSeconds} s (random phases of the poll clock) and measured concurrently; each delay runs from the PATCH's answer to the first storefront read (\`product(id:)\`, every 250 ms) showing the new title. Expected: the write wakes the delta sync at once (the catalogue's change notification), then one read of the changes and one productSet; the poll is only the fallback, should a wake be lost. ${r.throttledReads} THROTTLED reads.`,
    '',
    `| PATCH sent at (s) | ${r.sentAt.map((x) => f1(x)).join(' | ')} |`,
    `| ${['---', ...r.sentAt.map(() => '---')].join(' | ')} |`,
    `| delay (s) | ${r.samples.map((x) => f1(x / 1000)).join(' | ')} |`,
    '',
  ];
}

/** Alone: a stack of its own at the default interval, a few products pushed, then the PATCHes. */
runIfMain(import.meta.url, 'sync-delay', async () => {
  const smoke = process.argv.includes('--smoke');
  const s = await startBridgeStack({
    kind: 'postgres',
    pgBaseUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    logLevel: 'warn',
  });
  try {
    await s.configureSandbox({ bucket_size: 2000, restore_rate: 100, error_rate: 0, timeout_rate: 0, fail_after_commit_rate: 0, latency_ms: 0 });
    const products = await s.seedProducts(smoke ? 3 : 8, { variants: 2, images: 0 });
    const res = await s.push(products.map((p) => p.id));
    if (res.status !== 200) throw new Error(`push: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    const r = await measureSyncDelay(
      s,
      products.map((p) => p.id),
      { samples: products.length, log: (m) => process.stdout.write(`[sync-delay] ${m}\n`) },
    );
    const t = syncDelayTarget(r);
    process.stdout.write(`\n| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : '**FAIL**'} |\n\n${syncDelayDetails(r).join('\n')}\n`);
  } finally {
    await s.close();
  }
});
