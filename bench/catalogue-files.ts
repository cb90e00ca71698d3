// CSV import and export on PostgreSQL (issue 14, "Speed"): a file of 100,000 variant rows (25,000 products with four
// sizes each, a brand, a category path, an attribute, stock in a warehouse) uploaded to a server from src/ on a scratch
// database, the import job timed from the upload to `completed`; then the same catalogue exported. The server's
// VmRSS is sampled every 100 ms: its growth over the figure before the upload is the memory result.
// `npx tsx bench/catalogue-files.ts [--products N]`; BENCH_TRACE=1 logs the server's RSS and heap while it imports.
import { createWriteStream, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb } from './children.js';
import { runIfMain, withScratchServer, type ScratchServer } from './scratch.js';

export const TARGETS = { importSeconds: 60, exportSeconds: 15, rssGrowthMb: 100 };

/** Writes the file: `products` products × 4 variants. */
async function writeFile(file: string, products: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('sku,name,description,price,currency,status,brand,categories,attribute:material,stock:main,variant_sku,variant_price,variant_stock,option:Size\n');
  let rows = 0;
  for (let p = 0; p < products; p++) {
    for (const [i, size] of ['S', 'M', 'L', 'XL'].entries()) {
      await write(`P-${p},Product ${p},"A product, number ${p}",${(p % 97) + 0.99},EUR,active,Brand ${p % 50},Catalogue > Group ${p % 40} > Shelf ${p % 7},cotton,${p % 13},P-${p}-${size},${(p % 97) + i}.49,${(p + i) % 9},${size}\n`);
      rows++;
    }
  }
  out.end();
  await once(out, 'finish');
  return rows;
}

async function sampleRss(pid: number, during: () => Promise<void>): Promise<{ baseMb: number; peakMb: number }> {
  const baseMb = rssMb(pid);
  let peakMb = baseMb;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peakMb = Math.max(peakMb, rssMb(pid));
      await sleep(100);
    }
  })();
  try {
    await during();
  } finally {
    running = false;
    await sampler;
  }
  return { baseMb, peakMb };
}

export async function benchCatalogueFiles(s: ScratchServer, products: number): Promise<string> {
  const org = await (await fetch(`${s.url}/admin/organizations`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify({ name: 'Import bench' }) })).json();
  const key = await (await fetch(`${s.url}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: s.adminHeaders, body: '{}' })).json();
  const headers = { 'x-api-key': key.api_key };
  const pim = (method: string, url: string, body?: unknown) =>
    fetch(`${s.url}${url}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
  await pim('POST', '/api/warehouses', { code: 'main', name: 'Main' });
  await pim('POST', '/api/product-attributes', { code: 'material', name: 'Material', type: 'text' });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-import-bench-'));
  try {
    const file = path.join(dir, 'products.csv');
    const rows = await writeFile(file, products);
    s.log(`file: ${rows} rows`);
    let importSeconds = 0;
    let done: any;
    const importRss = await sampleRss(s.server.pid, async () => {
      const t0 = performance.now();
      const form = new FormData();
      form.set('file', await openAsBlob(file), 'products.csv');
      const accepted = await (await fetch(`${s.url}/api/imports`, { method: 'POST', headers, body: form })).json();
      if (accepted.status !== 1) throw new Error(`upload refused: ${JSON.stringify(accepted)}`);
      const uploadSeconds = (performance.now() - t0) / 1000;
      s.log(`upload accepted after ${uploadSeconds.toFixed(1)} s (rss ${rssMb(s.server.pid).toFixed(0)} MB)`);
      for (;;) {
        done = (await pim('GET', `/api/imports/${accepted.data.id}`)).data;
        if (done.state === 'completed' || done.state === 'failed') break;
        if (process.env.BENCH_TRACE) {
          const m = await (await fetch(`${s.url}/metrics`, { headers: s.adminHeaders })).text();
          const g = (name: string) => (Number(new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(m)?.[1] ?? 0) / 1048576).toFixed(0);
          s.log(`rows ${done.rows_done}: rss ${rssMb(s.server.pid).toFixed(0)} MB heap ${g('nodejs_heap_size_used_bytes')} total ${g('nodejs_heap_size_total_bytes')} ext ${g('nodejs_external_memory_bytes')}`);
        }
        await sleep(250);
      }
      importSeconds = (performance.now() - t0) / 1000;
    });
    s.log(`import: ${done.state} in ${importSeconds.toFixed(1)} s, created ${done.created}, failed ${done.failed}`);

    let exportSeconds = 0;
    let bytes = 0;
    let exportedRows = 0;
    const exportRss = await sampleRss(s.server.pid, async () => {
      const t0 = performance.now();
      const res = await fetch(`${s.url}/api/exports/products.csv`, { headers });
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) exportedRows++;
      }
      exportSeconds = (performance.now() - t0) / 1000;
    });
    s.log(`export: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${exportedRows - 1} rows in ${exportSeconds.toFixed(1)} s`);

    const growth = (r: { baseMb: number; peakMb: number }) => r.peakMb - r.baseMb;
    const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
    return [
      '',
      `| CSV, PostgreSQL, ${rows.toLocaleString('en')} variant rows (${products.toLocaleString('en')} products) | target | measured | |`,
      '|---|---|---|---|',
      `| import, upload to \`completed\` | ≤ ${TARGETS.importSeconds} s | ${importSeconds.toFixed(1)} s (${Math.round(rows / importSeconds).toLocaleString('en')} rows/s; created ${done.created}, failed ${done.failed}) | ${verdict(importSeconds <= TARGETS.importSeconds && done.failed === 0)} |`,
      `| export, first byte to last | ≤ ${TARGETS.exportSeconds} s | ${exportSeconds.toFixed(1)} s (${(bytes / 1024 / 1024).toFixed(1)} MB, ${exportedRows - 1} rows) | ${verdict(exportSeconds <= TARGETS.exportSeconds)} |`,
      `| server VmRSS growth during the import | ≤ ${TARGETS.rssGrowthMb} MB | +${growth(importRss).toFixed(0)} MB (${importRss.baseMb.toFixed(0)} → ${importRss.peakMb.toFixed(0)} MB) | ${verdict(growth(importRss) <= TARGETS.rssGrowthMb)} |`,
      `| server VmRSS growth during the export | ≤ ${TARGETS.rssGrowthMb} MB | +${growth(exportRss).toFixed(0)} MB (${exportRss.baseMb.toFixed(0)} → ${exportRss.peakMb.toFixed(0)} MB) | ${verdict(growth(exportRss) <= TARGETS.rssGrowthMb)} |`,
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, 'catalogue-files', async () => {
  const at = process.argv.indexOf('--products');
  const products = at > 0 ? Number(process.argv[at + 1]) : 25_000;
  await withScratchServer('catalogue_files', (s) => benchCatalogueFiles(s, products));
});
