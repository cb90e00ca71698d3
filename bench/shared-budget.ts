import { startBridgeStack } from '../test/helpers/bridge-processes.js';
import { runFullSync } from './full-sync-run.js';
import { loadIntoBridge } from './load.js';
import { runIfMain } from './scratch.js';

const BUCKET = { size: 400, restore: 40 };

export interface SharedBudgetRun {
  processes: number;
  products: number;
  seconds: number;
  synced: number;
  failed: number;
  productSets: number;
  throttled: number;
  pointsSpent: number;
}

async function run(pgBaseUrl: string, processes: number, products: number, log: (m: string) => void): Promise<SharedBudgetRun> {
  const s = await startBridgeStack({
    kind: 'postgres',
    pgBaseUrl,
    recordCalls: true,
    extraWorkers: processes - 1,
    // Per call whatever the size; no delta sync beside it.
    bridgeEnv: { SYNC_BULK_THRESHOLD: '1000000', SYNC_POLL_SECONDS: '0', SYNC_CONCURRENCY: '8' },
  });
  try {
    await s.configureSandbox({
      bucket_size: BUCKET.size,
      restore_rate: BUCKET.restore,
      error_rate: 0,
      timeout_rate: 0,
      fail_after_commit_rate: 0,
      latency_ms: 0,
    });
    await loadIntoBridge(s, products);
    const from = s.calls.length;
    const { data, seconds } = await runFullSync(s);
    const calls = s.calls.slice(from);
    const r = {
      processes,
      products,
      seconds,
      synced: data.synced,
      failed: data.failed,
      productSets: calls.filter((c) => c.operation === 'ProductSetSync').length,
      throttled: calls.filter((c) => c.throttled).length,
      pointsSpent: calls.reduce((a, c) => a + (c.actualCost ?? 0), 0),
    };
    log(`${processes} process(es): ${JSON.stringify(r)}`);
    return r;
  } finally {
    await s.close();
  }
}

export function sharedBudgetRows(runs: SharedBudgetRun[]): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    row([
      'processes running jobs',
      'products',
      'productSet calls',
      'wall time',
      'products/s',
      'THROTTLED',
      'THROTTLED/s',
      'points spent',
      'share of the restore rate',
    ]),
    row(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
    ...runs.map((r) =>
      row([
        r.processes,
        `${r.synced} synced, ${r.failed} failed`,
        r.productSets,
        `${r.seconds.toFixed(1)} s`,
        (r.synced / r.seconds).toFixed(2),
        r.throttled,
        (r.throttled / r.seconds).toFixed(3),
        Math.round(r.pointsSpent),
        `${Math.round((100 * Math.max(0, r.pointsSpent - BUCKET.size)) / (r.seconds * BUCKET.restore))} %`,
      ]),
    ),
  ];
}

runIfMain(import.meta.url, 'shared-budget', async () => {
  const n = process.argv.indexOf('--products');
  const products = n > 0 ? Number(process.argv[n + 1]) : 300;
  const pgBaseUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const log = (m: string) => process.stdout.write(`[shared-budget] ${m}\n`);
  const runs = [await run(pgBaseUrl, 1, products, log), await run(pgBaseUrl, 2, products, log)];
  process.stdout.write(`\nbucket ${BUCKET.size} points restoring ${BUCKET.restore}/s\n\n${sharedBudgetRows(runs).join('\n')}\n`);
});
