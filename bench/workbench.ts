// The product list as a workbench on a 100,000-product catalogue (bench/load.ts) on a scratch PostgreSQL database
// (bench/scratch.ts): (a) a page of the list by each sort key, both ways, near the start and deep into the catalogue,
// timed over HTTP (target ≤ 300 ms a page), with the plan PostgreSQL chooses for each order; (b) the bulk-edit grid's
// save: PATCH /api/products/batch with 500 new prices, five times (target ≤ 2 s).
// `npx tsx bench/workbench.ts [--products N]`, and part of `npm run bench`.
import pg from 'pg';
import { loadCatalogue } from './load.js';
import { onScratchServer, runIfMain, type ScratchServer } from './scratch.js';

const SORTS = ['name', 'sku', 'price', 'stock', 'status', 'updated_at'];
const PAGES = [1, 2, 40, 400];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await fn();
  await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return performance.now() - started;
}

export interface WorkbenchBenchResult {
  products: number;
  /** The slowest page of 25 by any sort key, ms. */
  worstPageMs: number;
  /** The five saves of 500 prices, ms. */
  savesMs: number[];
  /** The details section, markdown. */
  details: string;
}

async function scenario(s: ScratchServer, products: number): Promise<WorkbenchBenchResult> {
  const org = await (
    await fetch(`${s.url}/admin/organizations`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify({ name: 'Workbench bench' }) })
  ).json();
  const key = await (await fetch(`${s.url}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: s.adminHeaders, body: '{}' })).json();
  const db = new pg.Client(s.dbUrl);
  await db.connect();
  const lines: string[] = [];
  let worst = 0;
  const saves: number[] = [];
  try {
    const loaded = await loadCatalogue(db, org.id, products);
    await db.query('VACUUM ANALYZE products');
    const headers = { 'x-api-key': key.api_key, 'content-type': 'application/json' };
    const get = (query: string) => timed(() => fetch(`${s.url}/api/products?${query}`, { headers }));
    await get('limit=25');
    lines.push(`## Sorted pages of 25 over ${products.toLocaleString()} products (pages ${PAGES.join(', ')}; 3 runs each)`, '');
    lines.push('| sort | median | max | plan |', '| --- | --- | --- | --- |');
    for (const key of SORTS) {
      for (const sort of [key, `-${key}`]) {
        const times: number[] = [];
        for (let run = 0; run < 3; run++) for (const page of PAGES) times.push(await get(`limit=25&page=${page}&sort=${sort}`));
        worst = Math.max(worst, ...times);
        const column = key === 'sku' ? 'p.sku' : `p.${key}, p.id`;
        const dir = sort.startsWith('-') ? ' DESC' : '';
        const order = column
          .split(', ')
          .map((c) => c + dir)
          .join(', ');
        const plan = await db.query(`EXPLAIN SELECT p.id FROM products p WHERE p.organization_id = $1 ORDER BY ${order} LIMIT 25 OFFSET 975`, [org.id]);
        const scan = plan.rows.map((r) => r['QUERY PLAN'] as string).find((l) => /Scan/.test(l)) ?? '';
        lines.push(`| ${sort} | ${median(times).toFixed(1)} ms | ${Math.max(...times).toFixed(1)} ms | ${scan.trim().replace(/\s+\(cost.*$/, '')} |`);
        s.log(`${sort}: median ${median(times).toFixed(1)} ms`);
      }
    }
    lines.push('', `Slowest page: ${worst.toFixed(1)} ms (target ≤ 300 ms).`, '');

    // (b) 500 prices in one batch, five times, each with new values.
    const ids = Array.from({ length: 500 }, (_, i) => loaded.firstProductId + i);
    for (let run = 1; run <= 5; run++) {
      const body = JSON.stringify({ products: ids.map((id, i) => ({ id, price: `${10 + run}.${String(i % 100).padStart(2, '0')}` })) });
      saves.push(await timed(() => fetch(`${s.url}/api/products/batch`, { method: 'PATCH', headers, body })));
    }
    lines.push(
      `## 500 prices in one PATCH /api/products/batch (5 runs)`,
      '',
      `${saves.map((t) => `${t.toFixed(0)} ms`).join(', ')}; median ${median(saves).toFixed(0)} ms (target ≤ 2,000 ms).`,
      '',
    );
  } finally {
    await db.end();
  }
  return { products, worstPageMs: worst, savesMs: saves, details: `${lines.join('\n')}\n` };
}

/** The scenario on a scratch server of its own (bench/scratch.ts), for `npm run bench`. */
export const benchWorkbenchOnScratch = (products: number) => onScratchServer('workbench', (s) => scenario(s, products));

/** Its rows of the targets table (bench/report.ts). */
export function workbenchTargets(r: WorkbenchBenchResult) {
  return [
    {
      what: `workbench: a page of 25 of ${r.products.toLocaleString('en')} products by any sort key, either way (pages ${PAGES.join(', ')})`,
      target: '≤ 300 ms',
      measured: `slowest ${r.worstPageMs.toFixed(1)} ms`,
      pass: r.worstPageMs <= 300,
    },
    {
      what: 'workbench: PATCH /api/products/batch with 500 new prices, each recorded in its history, median of 5',
      target: '≤ 2 s',
      measured: `${median(r.savesMs).toFixed(0)} ms (max ${Math.max(...r.savesMs).toFixed(0)} ms)`,
      pass: median(r.savesMs) <= 2000,
    },
  ];
}

runIfMain(import.meta.url, 'workbench', async () => {
  const at = process.argv.indexOf('--products');
  const products = at > 0 ? Number(process.argv[at + 1]) : 100_000;
  const result = await benchWorkbenchOnScratch(products);
  for (const t of workbenchTargets(result)) process.stdout.write(`| ${t.what} | ${t.target} | ${t.measured} | ${t.pass ? 'pass' : 'FAIL'} |\n`);
  process.stdout.write(`\n${result.details}`);
});
