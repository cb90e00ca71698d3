// CSV import and export on PostgreSQL: a file of 100,000 variant rows (25,000 products with four
// sizes each, a brand, a category path, an attribute, each variant's stock) uploaded to a server from src/ on a scratch
// database, the import job timed from the upload to `completed`; then the same catalogue exported. The server's
// VmRSS is sampled every 100 ms: its growth over the figure before the upload is the memory result.
// `--format shopify`: the same catalogue as Shopify's product CSV (Handle, Tags, SEO, grams with a weight unit, barcodes,
// one row per variant), imported and exported in Shopify's format.
// `npx tsx bench/catalogue-files.ts [--products N] [--format ours|shopify]`; BENCH_TRACE=1 logs the server's RSS and heap
// while it imports.
import { createWriteStream, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb } from './children.js';
import { runIfMain, withScratchServer, type ScratchServer } from './scratch.js';

export const TARGETS = { importSeconds: 60, exportSeconds: 15, rssGrowthMb: 100 };

type Format = 'ours' | 'shopify';

/** Writes the file: `products` products × 4 variants. */
async function writeFile(file: string, products: number, format: Format): Promise<number> {
  return format === 'shopify' ? writeShopifyFile(file, products) : writeOursFile(file, products);
}

async function writeShopifyFile(file: string, products: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write(
    'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Variant Requires Shipping,Variant Taxable,Variant Barcode,Gift Card,SEO Title,SEO Description,Variant Weight Unit,Status\n',
  );
  let rows = 0;
  for (let p = 0; p < products; p++) {
    for (const [i, size] of ['S', 'M', 'L', 'XL'].entries()) {
      const product =
        i === 0
          ? `product-${p},Product ${p},"<p>A product, number ${p}</p>",Brand ${p % 50},Apparel & Accessories > Clothing,Shirts,"summer, group-${p % 40}",TRUE,Size`
          : `product-${p},,,,,,,,`;
      const seo = i === 0 ? `Product ${p} | Shop,Buy product ${p}` : ',';
      await write(
        `${product},${size},P-${p}-${size},${226.796185 + i},shopify,${(p + i) % 9},deny,manual,${(p % 97) + i}.49,,TRUE,TRUE,UPC-${p}-${i},FALSE,${seo},lb,${i === 0 ? 'active' : ''}\n`,
      );
      rows++;
    }
  }
  out.end();
  await once(out, 'finish');
  return rows;
}

async function writeOursFile(file: string, products: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('sku,name,description,price,currency,status,brand,categories,attribute:material,variant_sku,variant_price,variant_stock,option:Size\n');
  let rows = 0;
  for (let p = 0; p < products; p++) {
    for (const [i, size] of ['S', 'M', 'L', 'XL'].entries()) {
      await write(
        `P-${p},Product ${p},"A product, number ${p}",${(p % 97) + 0.99},EUR,active,Brand ${p % 50},Catalogue > Group ${p % 40} > Shelf ${p % 7},cotton,P-${p}-${size},${(p % 97) + i}.49,${(p + i) % 9},${size}\n`,
      );
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

export interface CatalogueFilesResult {
  rows: number;
  products: number;
  importSeconds: number;
  created: number;
  failed: number;
  exportSeconds: number;
  exportBytes: number;
  exportedRows: number;
  importRss: { baseMb: number; peakMb: number };
  exportRss: { baseMb: number; peakMb: number };
}

export async function benchCatalogueFiles(s: ScratchServer, products: number, format: Format = 'ours'): Promise<CatalogueFilesResult> {
  const org = await (
    await fetch(`${s.url}/admin/organizations`, { method: 'POST', headers: s.adminHeaders, body: JSON.stringify({ name: 'Import bench' }) })
  ).json();
  const key = await (await fetch(`${s.url}/admin/organizations/${org.id}/api-keys`, { method: 'POST', headers: s.adminHeaders, body: '{}' })).json();
  const headers = { 'x-api-key': key.api_key };
  const pim = (method: string, url: string, body?: unknown) =>
    fetch(`${s.url}${url}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json());
  await pim('POST', '/api/warehouses', { code: 'main', name: 'Main' });
  await pim('POST', '/api/product-attributes', { code: 'material', name: 'Material', type: 'text' });

  const dir = mkdtempSync(path.join(os.tmpdir(), 'pimbridge-import-bench-'));
  try {
    const file = path.join(dir, 'products.csv');
    const rows = await writeFile(file, products, format);
    s.log(`file: ${rows} rows`);
    let importSeconds = 0;
    let done: any;
    const importRss = await sampleRss(s.server.pid, async () => {
      const t0 = performance.now();
      const form = new FormData();
      form.set('file', await openAsBlob(file), 'products.csv');
      const accepted = await (await fetch(`${s.url}/api/imports?format=${format}`, { method: 'POST', headers, body: form })).json();
      if (accepted.status !== 1) throw new Error(`upload refused: ${JSON.stringify(accepted)}`);
      const uploadSeconds = (performance.now() - t0) / 1000;
      s.log(`upload accepted after ${uploadSeconds.toFixed(1)} s (rss ${rssMb(s.server.pid).toFixed(0)} MB)`);
      for (;;) {
        done = (await pim('GET', `/api/imports/${accepted.data.id}`)).data;
        if (done.state === 'completed' || done.state === 'failed') break;
        if (process.env.BENCH_TRACE) {
          const m = await (await fetch(`${s.url}/metrics`, { headers: s.metricsHeaders })).text();
          const g = (name: string) => (Number(new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(m)?.[1] ?? 0) / 1048576).toFixed(0);
          s.log(
            `rows ${done.rows_done}: rss ${rssMb(s.server.pid).toFixed(0)} MB heap ${g('nodejs_heap_size_used_bytes')} total ${g('nodejs_heap_size_total_bytes')} ext ${g('nodejs_external_memory_bytes')}`,
          );
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
      const res = await fetch(`${s.url}/api/exports/products.csv?format=${format}`, { headers });
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) exportedRows++;
      }
      exportSeconds = (performance.now() - t0) / 1000;
    });
    s.log(`export: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${exportedRows - 1} rows in ${exportSeconds.toFixed(1)} s`);

    return {
      rows,
      products,
      importSeconds,
      created: done.created,
      failed: done.failed,
      exportSeconds,
      exportBytes: bytes,
      exportedRows: exportedRows - 1,
      importRss,
      exportRss,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f1 = (x: number) => x.toFixed(1);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const growth = (r: { baseMb: number; peakMb: number }) => r.peakMb - r.baseMb;

export function catalogueFilesTargets(r: CatalogueFilesResult) {
  const mb = (x: { baseMb: number; peakMb: number }) => `+${growth(x).toFixed(0)} MB (${x.baseMb.toFixed(0)} → ${x.peakMb.toFixed(0)} MB)`;
  return [
    {
      what: `CSV import of ${n0(r.rows)} variant rows (${n0(r.products)} products) on PostgreSQL: upload → \`completed\``,
      target: `≤ ${TARGETS.importSeconds} s`,
      measured: `${f1(r.importSeconds)} s (${n0(r.rows / r.importSeconds)} rows/s; ${n0(r.created)} created, ${r.failed} failed)`,
      pass: r.importSeconds <= TARGETS.importSeconds && r.failed === 0 && r.created === r.rows,
    },
    {
      what: 'CSV export of the same (streamed)',
      target: `≤ ${TARGETS.exportSeconds} s`,
      measured: `${f1(r.exportSeconds)} s (${f1(r.exportBytes / 2 ** 20)} MB, ${n0(r.exportedRows)} rows)`,
      pass: r.exportSeconds <= TARGETS.exportSeconds && r.exportedRows === r.rows,
    },
    {
      what: 'server VmRSS growth during the import',
      target: `≤ ${TARGETS.rssGrowthMb} MB`,
      measured: mb(r.importRss),
      pass: growth(r.importRss) <= TARGETS.rssGrowthMb,
    },
    {
      what: 'server VmRSS growth during the export',
      target: `≤ ${TARGETS.rssGrowthMb} MB`,
      measured: mb(r.exportRss),
      pass: growth(r.exportRss) <= TARGETS.rssGrowthMb,
    },
  ];
}

export function catalogueFilesDetails(r: CatalogueFilesResult): string[] {
  return [
    `CSV import and export (\`bench/catalogue-files.ts\`): a server from src/ on a scratch PostgreSQL database (role all: the import job runs in the same process). The file: ${n0(r.rows)} rows in our format, ${n0(r.products)} products × 4 sizes, each with a description, price, brand (50), a three-level category path (280), a text attribute and each variant's stock (a product with variants keeps its stock per variant, so the file has no product-level stock:<warehouse> column since stop 38's stock model). Import time from the start of the upload to the GET answering \`completed\` (every 250 ms); export time from the request to the last byte. Memory: the server's VmRSS sampled every 100 ms, the growth being the peak over the figure just before the upload (or the export).`,
    '',
  ];
}

runIfMain(import.meta.url, 'catalogue-files', async () => {
  const at = process.argv.indexOf('--products');
  const products = at > 0 ? Number(process.argv[at + 1]) : 25_000;
  const format: Format = process.argv.includes('shopify') ? 'shopify' : 'ours';
  await withScratchServer('catalogue_files', async (s) => {
    const r = await benchCatalogueFiles(s, products, format);
    const row = (c: string[]) => `| ${c.join(' | ')} |`;
    return `${[
      '',
      row(['target', 'wanted', 'measured', '']),
      row(['---', '---', '---', '---']),
      ...catalogueFilesTargets(r).map((t) => row([t.what, t.target, t.measured, t.pass ? 'pass' : '**FAIL**'])),
      '',
      ...catalogueFilesDetails(r),
    ].join('\n')}\n`;
  });
});
