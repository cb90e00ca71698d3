import { startBridgeStack } from '../test/helpers/bridge-processes.js';
import { runFullSync } from './full-sync-run.js';
import { loadIntoBridge } from './load.js';
import { runIfMain } from './scratch.js';

export interface TokenRenewalRun {
  tokenSeconds: number | null;
  seconds: number;
  synced: number;
  failed: number;
  mode: string;
  renewals: number;
  firstError: string | null;
}

async function run(pgBaseUrl: string, products: number, tokenSeconds: number | null, log: (m: string) => void): Promise<TokenRenewalRun> {
  const s = await startBridgeStack({ kind: 'postgres', pgBaseUrl, logLevel: 'warn', bridgeEnv: { SYNC_BULK_THRESHOLD: '200', SYNC_BULK_CHUNK: '250' } });
  try {
    await s.configureSandbox({ bucket_size: 2000, restore_rate: 100, token_lifetime_seconds: tokenSeconds });
    const switched = await s.admin('PATCH', `/admin/shops/${s.shopId}`, { client_id: s.sandboxApp.clientId, client_secret: s.sandboxApp.clientSecret });
    if (switched.status !== 200) throw new Error(`PATCH /admin/shops: ${switched.status} ${JSON.stringify(switched.body)}`);
    await loadIntoBridge(s, products);
    const { data, seconds } = await runFullSync(s);
    let firstError = data.error;
    if (data.failed > 0) firstError ??= (await s.connector('GET', '/api/products/mappings?status=error&limit=1')).body?.data?.mappings?.[0]?.sync_error ?? null;
    const shop = ((await s.admin('GET', '/admin/shops')).body.shops as { id: number; token_renewals: number }[]).find((x) => x.id === s.shopId)!;
    log(
      `token ${tokenSeconds ?? 'default'} s: ${data.status} in ${seconds.toFixed(1)} s, ${data.synced} synced, ${data.failed} failed, ${shop.token_renewals} renewals`,
    );
    return { tokenSeconds, seconds, synced: data.synced, failed: data.failed, mode: data.mode, renewals: shop.token_renewals, firstError };
  } finally {
    await s.close();
  }
}

export async function benchTokenRenewal(o: { pgBaseUrl: string; products?: number; tokenSeconds?: number; log?: (m: string) => void }) {
  const log = o.log ?? (() => {});
  const products = o.products ?? 1_000;
  // The baseline first: the same sync with the sandbox's default client credentials lifetime (86,399 s).
  const baseline = await run(o.pgBaseUrl, products, null, log);
  const expiring = await run(o.pgBaseUrl, products, o.tokenSeconds ?? 3, log);
  return { products, baseline, expiring };
}

runIfMain(import.meta.url, 'token-renewal', async () => {
  const at = (flag: string) => (process.argv.includes(flag) ? Number(process.argv[process.argv.indexOf(flag) + 1]) : undefined);
  const pgBaseUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const log = (msg: string) => process.stdout.write(`[token-renewal] ${msg}\n`);
  const result = await benchTokenRenewal({ pgBaseUrl, products: at('--products'), tokenSeconds: at('--token-seconds'), log });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (result.expiring.failed > 0 || result.expiring.synced !== result.products) throw new Error('products failed while tokens expired');
});
