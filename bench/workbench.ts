// The product list as a workbench on a 100,000-product catalogue (bench/load.ts) on a scratch PostgreSQL database
// (bench/scratch.ts): (a) a page of the list by each sort key, both ways, near the start and deep into the catalogue,
// timed over HTTP (target ≤ 300 ms a page), with the plan PostgreSQL chooses for each order; (b) the bulk-edit grid's
// save: PATCH /api/products/batch with 500 new prices, five times (target ≤ 2 s).
// `npx tsx bench/workbench.ts [--products N]`.
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

async function scenario(s: ScratchServer, products: number): Promise<string> {
  const org = await (
    await fetch(`${s.url}/admin/organizations`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify({ name: 'Workbench bench' }) })
  ).json();
  const key = await (await fetch(`${s.url}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: s.adminHeaders, body: '{}' })).json();
  const db = new pg.Client(s.dbUrl);
  await db.connect();
  const lines: string[] = [];
  try {
    const loaded = await loadCatalogue(db, org.id, products);
    await db.query('VACUUM ANALYZE products');
    const headers = { 'x-api-key': key.api_key, 'content-type': 'application/json' };
    const get = (query: string) => timed(() => fetch(`${s.url}/api/products?${query}`, { headers }));
    await get('limit=25');
    lines.push(`## Sorted pages of 25 over ${products.toLocaleString()} products (pages ${PAGES.join(', ')}; 3 runs each)`, '');
    lines.push('| sort | median | max | plan |', '| --- | --- | --- | --- |');
    let worst = 0;
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
    const saves: number[] = [];
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
  return `${lines.join('\n')}\n`;
}

runIfMain(import.meta.url, 'workbench', async () => {
  const at = process.argv.indexOf('--products');
  const products = at > 0 ? Number(process.argv[at + 1]) : 100_000;
  process.stdout.write(await onScratchServer('workbench', (s) => scenario(s, products)));
});
