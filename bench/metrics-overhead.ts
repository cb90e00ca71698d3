// What the metrics cost the product read path (target: ≤ 3 % of its throughput). Two Pimbridge servers on
// one scratch PostgreSQL database of 20,000 products: one as shipped (every request observed by the HTTP histogram,
// /metrics scraped every SCRAPE_SECONDS, 15 as a typical Prometheus scrape_interval; `--scrape 1` for a stress
// figure) and one with METRICS_ENABLED=false.
// GET /api/products/{random id} at 50 connections, the two alternating, ROUNDS runs each after a warm-up of both.
// `npx tsx bench/metrics-overhead.ts [--smoke]`.
import path from 'node:path';
import pg from 'pg';
import { start, stop, waitFor200 } from './children.js';
import { loadCatalogue } from './load.js';
import { runLoad } from './measure.js';
import { runIfMain, withScratchServer } from './scratch.js';

export const METRICS_COST_TARGET = 0.03;

runIfMain(import.meta.url, 'metrics-overhead', async () => {
  const smoke = process.argv.includes('--smoke');
  const rounds = smoke ? 1 : 5;
  const at = process.argv.indexOf('--scrape');
  const scrapeSeconds = at > 0 ? Number(process.argv[at + 1]) : 15;
  const seconds = smoke ? 3 : 10;
  await withScratchServer('metrics-overhead', async (s) => {
    const admin = async (url: string, body: unknown) => {
      const res = await fetch(`${s.url}${url}`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const org = await admin('/admin/organizations', { name: 'Metrics bench' });
    const key = (await admin(`/admin/organizations/${org.id}/api-keys`, {})).api_key as string;
    const db = new pg.Client(s.dbUrl);
    await db.connect();
    const catalogue = await loadCatalogue(db, org.id as number, 20_000);
    await db.query('VACUUM ANALYZE');
    await db.end();
    s.log(`loaded ${catalogue.products} products`);

    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const plainUrl = `http://127.0.0.1:${port}`;
    const env = { ...s.env, PORT: String(port), METRICS_ENABLED: 'false' };
    const plain = start('pimbridge-no-metrics', ['--import', 'tsx', 'src/cli/main.ts', 'serve'], env, path.join(s.logDir, 'no-metrics.log'), s.root);
    await waitFor200(plain, `${plainUrl}/readyz`);
    const notServed = await fetch(`${plainUrl}/metrics`);
    if (notServed.status !== 404) throw new Error(`METRICS_ENABLED=false still serves /metrics (${notServed.status})`);

    const headers = { 'x-api-key': key };
    const productPath = () => `/api/products/${catalogue.firstProductId + Math.floor(Math.random() * catalogue.products)}`;
    const scrape = () => fetch(`${s.url}/metrics`, { headers: s.metricsHeaders }).then((r) => r.text());
    const load = async (url: string, secs: number, scraping: boolean) => {
      const timer = scraping ? setInterval(() => void scrape().catch(() => {}), scrapeSeconds * 1_000) : null;
      try {
        const r = await runLoad({ url, path: productPath, headers, connections: 50, seconds: secs });
        if (r.failures > 0) throw new Error(`${url}: ${r.failures} failed requests`);
        return r.requestsPerSecond;
      } finally {
        if (timer) clearInterval(timer);
      }
    };
    if (!(await scrape()).includes('pimbridge_http_request_duration_seconds')) throw new Error('/metrics did not answer its metrics');
    await load(s.url, 3, true);
    await load(plainUrl, 3, false);
    const withMetrics: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < rounds; i++) {
      withMetrics.push(await load(s.url, seconds, true));
      without.push(await load(plainUrl, seconds, false));
      s.log(`round ${i + 1}: with metrics ${withMetrics.at(-1)!.toFixed(0)} req/s, without ${without.at(-1)!.toFixed(0)} req/s`);
    }
    await stop(plain);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const cost = 1 - mean(withMetrics) / mean(without);
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en')).join(', ');
    return (
      `\n| /metrics cost on the product read path: GET /api/products/{id} requests/s at 50 connections, with metrics (scraped every ${scrapeSeconds} s) vs METRICS_ENABLED=false | ≤ ${METRICS_COST_TARGET * 100} % | ${(cost * 100).toFixed(1)} % (${Math.round(mean(withMetrics)).toLocaleString('en')} vs ${Math.round(mean(without)).toLocaleString('en')}) | ${cost <= METRICS_COST_TARGET ? 'pass' : '**FAIL**'} |\n\n` +
      `Runs (${seconds} s each, alternating, after a 3 s warm-up of each; ${catalogue.products} products): with metrics ${fmt(withMetrics)} req/s; without ${fmt(without)} req/s.\n`
    );
  });
});
