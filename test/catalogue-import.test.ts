// CSV import and export over HTTP on both databases, with the job queue's workers running: our format with variants,
// categories by path, stock per warehouse, attributes and translations; a second import that changes nothing; bad rows
// reported by line while the good ones import; files refused before any row is written; a dry run; a worker stopped
// halfway and resumed; a 10,000-row file; Shopify's export with option axes and images; export → import → export.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { ImportRepository } from '../src/pim/catalogue-files/import.repository.js';
import { databaseTargets, harness, type Harness, type Tenant } from './helpers/harness.js';
import { assertError, LEAK, okData, type Call } from './helpers/pim.js';
import { csv, importEnded, importFile, upload } from './helpers/catalogue-files.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';
import { shopifyDifferences } from './helpers/shopify-files.js';
import { sqlRows } from './helpers/sql.js';

const HEADER = [
  'sku',
  'name',
  'price',
  'currency',
  'status',
  'brand',
  'categories',
  'attribute:material',
  'attribute:waterproof',
  'stock:main',
  'stock:eu',
  'name@de',
  'variant_sku',
  'variant_price',
  'variant_stock',
  'option:Size',
  'option:Colour',
];

/** 1 product with 3 variants, 1 simple product with stock in two warehouses. */
const GOOD = csv([
  HEADER,
  [
    'TEE',
    'Basic tee',
    '19.90',
    'EUR',
    'active',
    'Acme',
    'Apparel > Tops|Sale',
    'cotton',
    'false',
    '',
    '',
    'Einfaches T-Shirt',
    'TEE-S-RED',
    '19.90',
    '5',
    'S',
    'Red',
  ],
  [
    'TEE',
    'Basic tee',
    '19.90',
    'EUR',
    'active',
    'Acme',
    'Apparel > Tops|Sale',
    'cotton',
    'false',
    '',
    '',
    'Einfaches T-Shirt',
    'TEE-M-RED',
    '19.90',
    '0',
    'M',
    'Red',
  ],
  ['TEE', '', '', '', '', '', '', '', '', '', '', '', 'TEE-L-BLUE', '21.00', '2', 'L', 'Blue'],
  ['JACKET', 'Rain jacket', '89', 'EUR', 'draft', 'Acme', 'Apparel > Outerwear', 'nylon', 'true', '4', '6', '', '', '', '', '', ''],
]);

for (const target of databaseTargets()) {
  describe(`catalogue import and export (${target.name})`, () => {
    let h: Harness;
    let dataDir: string;
    let images: TestServer;
    /** The image server's files by path; a test may add one later (a download that failed, then works). */
    const files: Record<string, Buffer> = {};

    before(async () => {
      const red = await makeImage('png', 30, 20, [220, 30, 30]);
      const blue = await makeImage('png', 20, 30, [30, 30, 220]);
      const green = await makeImage('png', 25, 25, [30, 200, 30]);
      Object.assign(files, { '/red.png': red, '/blue.png': blue, '/green.png': green });
      images = await serveHttp((req, res) => {
        const body = files[req.url ?? ''];
        if (!body) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length }).end(body);
      });
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-import-'));
      // SYNC_POLL_SECONDS=0: no delta poller, only the imports' jobs run.
      h = await harness(target, {
        DATA_DIR: dataDir,
        MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
        IMPORT_MAX_BYTES: String(2 * 1024 * 1024),
        SYNC_RETRY_DELAY_SECONDS: '0',
        SYNC_POLL_SECONDS: '0',
      });
      await h.app.services.jobs.workers.start();
    });
    after(async () => {
      await h?.close();
      await images?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** An organization with warehouses main and eu and attributes material (text) and waterproof (boolean). */
    async function organization(): Promise<{ t: Tenant; call: Call }> {
      const t = await h.tenant();
      const call = h.as(t);
      for (const code of ['main', 'eu']) okData(await call('POST', '/api/warehouses', { code, name: code.toUpperCase() }), 201);
      okData(await call('POST', '/api/product-attributes', { code: 'material', name: 'Material', type: 'text' }), 201);
      okData(await call('POST', '/api/product-attributes', { code: 'waterproof', name: 'Waterproof', type: 'boolean' }), 201);
      return { t, call };
    }

    const productBySku = async (call: Call, sku: string) => {
      const list = okData(await call('GET', `/api/products?search=${encodeURIComponent(sku)}&include=variants,warehouse_stock&limit=100`));
      return list.products.find((p: any) => p.sku === sku);
    };
    const exportCsv = async (call: Call, query = '') => {
      const res = await call('GET', `/api/exports/products.csv${query}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      return res.body;
    };

    it('imports products with variants, categories by path, brand, stock per warehouse, attributes and translations', async () => {
      const { call } = await organization();
      const done = await importFile(call, GOOD);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.deepEqual(
        {
          format: done.format,
          rows_total: done.rows_total,
          rows_done: done.rows_done,
          created: done.created,
          updated: done.updated,
          unchanged: done.unchanged,
          failed: done.failed,
        },
        { format: 'ours', rows_total: 4, rows_done: 4, created: 4, updated: 0, unchanged: 0, failed: 0 },
      );
      assert.deepEqual(
        [done.products, done.variants],
        [
          { created: 2, updated: 0, unchanged: 0 },
          { created: 3, updated: 0, unchanged: 0 },
        ],
      );
      const tee = await productBySku(call, 'TEE');
      assert.equal(tee.name, 'Basic tee');
      assert.equal(tee.price, '19.9000');
      assert.equal(tee.status, 'active');
      assert.equal(tee.brand.name, 'Acme');
      assert.deepEqual(tee.attributes, { material: 'cotton', waterproof: false });
      assert.deepEqual(tee.available_translations, ['de']);
      assert.deepEqual(
        tee.variants.map((v: any) => [
          v.sku,
          v.price,
          v.stock_quantity,
          v.stock_status,
          v.attributes.map((a: any) => `${a.attribute_name}=${a.value}`).join(','),
        ]),
        [
          ['TEE-S-RED', '19.9000', 5, 'in_stock', 'Size=S,Colour=Red'],
          ['TEE-M-RED', '19.9000', 0, 'out_of_stock', 'Size=M,Colour=Red'],
          ['TEE-L-BLUE', '21.0000', 2, 'in_stock', 'Size=L,Colour=Blue'],
        ],
      );
      const german = okData(await call('GET', `/api/products/${tee.id}?locale=de`));
      assert.equal(german.name, 'Einfaches T-Shirt');
      const jacket = await productBySku(call, 'JACKET');
      assert.equal(jacket.stock, 10);
      assert.deepEqual(
        jacket.warehouse_stock.map((w: any) => [w.code, w.quantity]),
        [
          ['eu', 6],
          ['main', 4],
        ],
      );
      assert.equal(jacket.variants.length, 0);
      assert.deepEqual(jacket.attributes, { material: 'nylon', waterproof: true });
      // Categories by path: Apparel > Tops, Apparel > Outerwear and Sale, Apparel created once.
      const categories = okData(await call('GET', '/api/categories?limit=100')).categories;
      const byName = (name: string) => categories.filter((c: any) => c.name === name);
      assert.equal(byName('Apparel').length, 1);
      assert.equal(byName('Tops')[0].parent_id, byName('Apparel')[0].id);
      assert.equal(byName('Outerwear')[0].parent_id, byName('Apparel')[0].id);
      assert.equal(byName('Sale')[0].parent_id, null);
      assert.deepEqual(tee.categories.map((c: any) => c.name).sort(), ['Sale', 'Tops']);
    });

    it('a second import of the same file changes nothing and says so; a changed row is an update', async () => {
      const { call } = await organization();
      await importFile(call, GOOD);
      const before = await productBySku(call, 'TEE');
      const again = await importFile(call, GOOD);
      assert.deepEqual([again.created, again.updated, again.unchanged, again.failed], [0, 0, 4, 0]);
      // Counted as a merchant counts: by product and by variant, not by row.
      assert.deepEqual(
        [again.products, again.variants],
        [
          { created: 0, updated: 0, unchanged: 2 },
          { created: 0, updated: 0, unchanged: 3 },
        ],
      );
      const after = await productBySku(call, 'TEE');
      assert.equal(after.updated_at, before.updated_at, 'an unchanged product is not written');
      const changed = GOOD.replace('TEE-L-BLUE,21.00', 'TEE-L-BLUE,22.50');
      const third = await importFile(call, changed);
      assert.deepEqual([third.created, third.updated, third.unchanged, third.failed], [0, 1, 3, 0]);
      assert.deepEqual(
        [third.products, third.variants],
        [
          { created: 0, updated: 1, unchanged: 1 },
          { created: 0, updated: 1, unchanged: 2 },
        ],
      );
      assert.equal((await productBySku(call, 'TEE')).variants[2].price, '22.5000');
    });

    it('imports the good rows of a file with bad ones and reports every bad one with its line', async () => {
      const { call } = await organization();
      const file =
        csv([
          ['sku', 'name', 'price', 'stock:main', 'stock:nowhere', 'variant_sku', 'variant_price'],
          ['OK-1', 'Fine', '10.00', '1', '', '', ''], // line 2
          ['BAD-PRICE', 'Bad price', '12,50', '', '', '', ''], // line 3: a comma decimal
          ['BAD-WH', 'Unknown warehouse', '5', '', '7', '', ''], // line 4
          ['OK-2', 'With variants', '', '', '', 'OK-2-A', '3.00'], // line 5
          ['OK-2', 'With variants', '', '', '', 'OK-2-A', '4.00'], // line 6: the same variant SKU again
          ['OK-3', 'Last good', '1.5', '', '', '', ''], // line 7
        ]) +
        'BROKEN,"an unterminated quote,1,,,,\n' + // line 8
        csv([['OK-4', 'After the broken row', '2', '', '', '', '']]); // line 9
      const done = await importFile(call, file);
      assert.equal(done.state, 'completed');
      const res = await call('GET', `/api/imports/${done.id}/errors.csv`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      const lines = res.body.trim().split('\n');
      assert.equal(lines[0], 'line,sku,reason');
      const failedLines = lines.slice(1).map((l) => Number(l.split(',')[0]));
      // OK-2 repeats a variant SKU: the product is refused whole, both its lines.
      for (const line of [3, 4, 5, 6]) assert.ok(failedLines.includes(line), `line ${line} reported: ${res.body}`);
      assert.ok(
        failedLines.some((l) => l >= 8),
        `the broken quote reported: ${res.body}`,
      );
      assert.match(res.body, /price/);
      assert.match(res.body, /warehouse/);
      assert.match(res.body, /OK-2-A/);
      assert.doesNotMatch(res.body, LEAK);
      // The same rows as JSON, a page at a time (the console's import page): the pages join up to the file's rows.
      const csvRows = lines.slice(1).length;
      const first = okData(await call('GET', `/api/imports/${done.id}/errors?limit=2`));
      assert.equal(first.errors.length, 2);
      assert.deepEqual(Object.keys(first.errors[0]).sort(), ['line', 'reason', 'sku']);
      assert.equal(typeof first.next_after, 'number');
      const rest = okData(await call('GET', `/api/imports/${done.id}/errors?limit=200&after=${first.next_after}`));
      assert.equal(rest.next_after, null);
      assert.deepEqual(
        [...first.errors, ...rest.errors].map((e: { line: number }) => e.line),
        failedLines,
      );
      assert.equal(first.errors.length + rest.errors.length, csvRows);
      assertError(await call('GET', `/api/imports/${done.id}/errors?limit=0`), 400, /limit/);
      for (const sku of ['OK-1', 'OK-3']) assert.ok(await productBySku(call, sku), `${sku} imported`);
      assert.equal(await productBySku(call, 'OK-2'), undefined, 'a product is imported whole or not at all');
      assert.equal(await productBySku(call, 'BAD-PRICE'), undefined);
      assert.equal(await productBySku(call, 'BAD-WH'), undefined);
      assert.equal(done.failed, failedLines.length > 0 ? new Set(failedLines).size : 0);
      assert.equal(done.rows_done, done.created + done.updated + done.unchanged + done.failed);
    });

    it('refuses a file that is not CSV, has no known header, is empty, too large or not UTF-8, before any row is written', async () => {
      const { t, call } = await organization();
      const cases: [string, string | Buffer, RegExp][] = [
        ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /binary|not a CSV|text/i],
        ['unknown header', 'foo,bar\n1,2\n', /header/i],
        ['empty', '', /empty/i],
        ['header only', 'sku,name\n', /no (data )?rows|empty/i],
        ['too large', `sku,name\n${'X,'.padEnd(3 * 1024 * 1024, 'y')}\n`, /larger|limit/i],
        ['latin-1', Buffer.from('sku,name\nK1,Caf\xe9 cr\xe8me\n', 'latin1'), /UTF-8/i],
        ['utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('sku,name\nK1,x\n', 'utf16le')]), /UTF-16|UTF-8/i],
      ];
      for (const [name, content, message] of cases) {
        const res = await upload(call, content);
        assertError(res, 400, message);
        assert.doesNotMatch(res.body, LEAK, name);
      }
      assertError(await call('POST', '/api/imports', { file: 'x' }), 400, /multipart/);
      assertError(await upload(call, GOOD, '', { field: 'other' }), 400, /field 'file'/);
      assertError(await upload(call, GOOD, '?format=excel'), 400);
      // No route lists an organization's imports: the table.
      const [imports] = await sqlRows<{ n: number }>(h.database.db, sql`SELECT count(*)::int AS n FROM imports WHERE organization_id = ${t.organizationId}`);
      assert.equal(imports.n, 0, 'no import recorded');
      assert.equal(okData(await call('GET', '/api/products')).pagination.total_items, 0, 'nothing written');
    });

    it('a dry run checks the whole file and reports, writing nothing', async () => {
      const { call } = await organization();
      const done = await importFile(call, GOOD, '?dry_run=true');
      assert.equal(done.dry_run, true);
      assert.deepEqual([done.created, done.updated, done.unchanged, done.failed], [4, 0, 0, 0]);
      assert.equal(okData(await call('GET', '/api/products')).pagination.total_items, 0);
      assert.equal(okData(await call('GET', '/api/categories')).categories.length, 0);
    });

    it('after a dry run, "import now" imports the checked file itself, once; nothing else can be imported so', async () => {
      const { call } = await organization();
      const other = await organization();
      const checked = await importFile(call, GOOD, '?dry_run=true');
      assert.equal(okData(await call('GET', '/api/products')).pagination.total_items, 0);
      assertError(await other.call('POST', `/api/imports/${checked.id}/import`), 404);

      const accepted = okData(await call('POST', `/api/imports/${checked.id}/import`), 202);
      assert.notEqual(accepted.id, checked.id);
      assert.deepEqual(
        [accepted.dry_run, accepted.file_name, accepted.size_bytes, accepted.rows_total],
        [false, checked.file_name, checked.size_bytes, checked.rows_total],
      );
      const done = await importEnded(call, accepted);
      assert.equal(done.state, 'completed');
      assert.deepEqual([done.created, done.failed], [checked.created, 0], 'what the check said it would create');
      assert.ok(okData(await call('GET', '/api/products')).pagination.total_items > 0, 'written this time');

      // The file went with the first "import now"; a real import is not a check.
      assertError(await call('POST', `/api/imports/${checked.id}/import`), 400, /no longer kept/);
      assertError(await call('POST', `/api/imports/${done.id}/import`), 400, /not a finished dry run/);
    });

    it("an import is its organization's only", async () => {
      const { call } = await organization();
      const other = await organization();
      const accepted = okData(await upload(call, GOOD), 202);
      assertError(await other.call('GET', `/api/imports/${accepted.id}`), 404);
      assertError(await other.call('GET', `/api/imports/${accepted.id}/errors.csv`), 404);
      assertError(await other.call('GET', `/api/imports/${accepted.id}/errors`), 404);
      assertError(await call('GET', '/api/imports/not-a-uuid'), 400);
      assertError(await h.as(null)('GET', `/api/imports/${accepted.id}`), 401);
    });

    it('a worker stopped halfway resumes after the last committed row and imports no row twice', async () => {
      const { call } = await organization();
      const rows: string[][] = [['sku', 'name', 'price', 'variant_sku', 'variant_price']];
      for (let p = 0; p < 600; p++) for (let v = 0; v < 2; v++) rows.push([`R-${p}`, `Resumed ${p}`, '1.00', `R-${p}-${v}`, `${v + 1}.00`]);
      // Stop the workers so the job waits; run it by hand and abort it after its first batch has committed.
      await h.app.services.jobs.workers.stop(5_000);
      try {
        const accepted = okData(await upload(call, csv(rows)), 202);
        const imports = h.app.services.pim.catalogueFiles.importJob;
        const abort = new AbortController();
        // The last line committed (the API shows counts, not the checkpoint): through the import's repository.
        const checkpoint = async () => (await new ImportRepository(h.database.db).find(accepted.id))!.checkpoint_line;
        const timer = setInterval(() => void checkpoint().then((line) => line > 1 && abort.abort(new Error('worker killed'))), 5);
        await assert.rejects(imports.run(accepted.id, abort.signal));
        clearInterval(timer);
        const stoppedAt = await checkpoint();
        assert.ok(stoppedAt > 1 && stoppedAt < rows.length, `stopped halfway (checkpoint ${stoppedAt})`);
        await imports.run(accepted.id);
        const done = okData(await call('GET', `/api/imports/${accepted.id}`));
        assert.equal(done.state, 'completed');
        assert.deepEqual([done.rows_done, done.created, done.failed], [1200, 1200, 0]);
        // Every product once, each with its two variants once.
        const products: { sku: string; variants: unknown[] }[] = [];
        for (let page = 1; ; page++) {
          const data = okData(await call('GET', `/api/products?include=variants&limit=100&page=${page}`));
          products.push(...data.products);
          if (products.length >= data.pagination.total_items) break;
        }
        assert.equal(products.length, 600);
        assert.equal(new Set(products.map((p) => p.sku)).size, 600);
        assert.ok(
          products.every((p) => p.variants.length === 2),
          'two variants each',
        );
      } finally {
        await h.app.services.jobs.workers.start();
      }
    });

    it('imports a 10,000-row file', async () => {
      const { call } = await organization();
      const rows: string[][] = [['sku', 'name', 'price', 'categories', 'variant_sku', 'variant_price', 'option:Size']];
      for (let p = 0; p < 2_500; p++)
        for (const size of ['S', 'M', 'L', 'XL']) rows.push([`BIG-${p}`, `Big ${p}`, '9.99', `Bulk > Group ${p % 10}`, `BIG-${p}-${size}`, '9.99', size]);
      const done = await importFile(call, csv(rows));
      assert.deepEqual([done.state, done.rows_total, done.created, done.failed], ['completed', 10_000, 10_000, 0]);
      assert.equal(okData(await call('GET', '/api/products?limit=1')).pagination.total_items, 2_500);
    });

    it("imports Shopify's product CSV with option axes and several images per product", async () => {
      const { call } = await organization();
      const base = images.url;
      const shopify = csv([
        [
          'Handle',
          'Title',
          'Body (HTML)',
          'Vendor',
          'Product Category',
          'Type',
          'Tags',
          'Published',
          'Option1 Name',
          'Option1 Value',
          'Option2 Name',
          'Option2 Value',
          'Variant SKU',
          'Variant Grams',
          'Variant Inventory Qty',
          'Variant Price',
          'Variant Compare At Price',
          'Variant Barcode',
          'Image Src',
          'Image Position',
          'Variant Image',
          'Status',
        ],
        [
          'hoodie',
          'Hoodie',
          '<p>Warm</p>',
          'Northwind',
          'Apparel & Accessories > Clothing',
          'Sweaters',
          'warm, winter',
          'true',
          'Size',
          'S',
          'Color',
          'Black',
          'HOOD-S-BLK',
          '500',
          '3',
          '40.00',
          '50.00',
          '',
          `${base}/red.png`,
          '1',
          `${base}/red.png`,
          'active',
        ],
        ['hoodie', '', '', '', '', '', '', '', '', 'S', '', 'Grey', 'HOOD-S-GRY', '500', '1', '40.00', '50.00', '', `${base}/blue.png`, '2', '', ''],
        ['hoodie', '', '', '', '', '', '', '', '', 'M', '', 'Black', 'HOOD-M-BLK', '520', '0', '40.00', '50.00', '', '', '', '', ''],
        ['hoodie', '', '', '', '', '', '', '', '', 'M', '', 'Grey', 'HOOD-M-GRY', '520', '7', '40.00', '50.00', '', '', '', '', ''],
        ['hoodie', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', `${base}/green.png`, '3', '', ''],
        [
          'mug',
          'Mug',
          '',
          'Northwind',
          '',
          'Kitchen',
          '',
          'true',
          'Title',
          'Default Title',
          '',
          '',
          'MUG-1',
          '300',
          '12',
          '8.50',
          '',
          '4006381333931',
          '',
          '',
          '',
          'draft',
        ],
      ]);
      const done = await importFile(call, shopify);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.equal(done.format, 'shopify');
      assert.equal(done.failed, 0, (await call('GET', `/api/imports/${done.id}/errors.csv`)).body);
      const hoodie = await productBySku(call, 'hoodie');
      assert.equal(hoodie.name, 'Hoodie');
      assert.equal(hoodie.slug, 'hoodie');
      assert.equal(hoodie.brand.name, 'Northwind');
      assert.equal(hoodie.status, 'active');
      assert.equal(hoodie.images.length, 3, 'three images downloaded');
      assert.deepEqual(
        hoodie.variants.map((v: any) => [v.sku, v.price, v.sale_price, v.stock_quantity, v.attributes.map((a: any) => a.value).join('/')]),
        [
          ['HOOD-S-BLK', '50.0000', '40.0000', 3, 'S/Black'],
          ['HOOD-S-GRY', '50.0000', '40.0000', 1, 'S/Grey'],
          ['HOOD-M-BLK', '50.0000', '40.0000', 0, 'M/Black'],
          ['HOOD-M-GRY', '50.0000', '40.0000', 7, 'M/Grey'],
        ],
      );
      assert.ok(hoodie.variants[0].image.endsWith('/red.png'));
      const mug = await productBySku(call, 'MUG-1');
      assert.equal(mug.variants.length, 0);
      assert.equal(mug.price, '8.5000');
      assert.deepEqual([mug.barcode, mug.ean], ['4006381333931', null], "a Shopify barcode is the storefront's, never the EAN");
      assert.deepEqual([mug.stock, mug.weight, mug.weight_unit], [12, '0.3000', null], 'a single variant keeps its quantity and weight');
      assert.deepEqual([hoodie.storefront_type, hoodie.taxonomy_category, hoodie.tags], ['Sweaters', 'Apparel & Accessories > Clothing', ['warm', 'winter']]);
      assert.deepEqual(hoodie.categories, [], 'Type and Product Category are no PIM categories');
      // The same file again: nothing changes, nothing downloads again.
      const again = await importFile(call, shopify);
      assert.equal(again.created + again.updated, 0, JSON.stringify(again));
      assert.equal((await productBySku(call, 'hoodie')).images.length, 3);
    });

    it('an image that cannot be downloaded: counted apart from the rows, its URL kept (exported), tried again at the next import', async () => {
      const { call } = await organization();
      const late = `${images.url}/late-${Date.now()}.png`;
      const file = csv([
        ['sku', 'name', 'images'],
        ['PIC-1', 'With a late image', `${images.url}/red.png|${late}`],
        ['PIC-2', 'Without images', ''],
      ]);
      const first = await importFile(call, file);
      assert.deepEqual([first.state, first.created, first.failed, first.images_failed], ['completed', 2, 0, 1], JSON.stringify(first));
      const errors = (await call('GET', `/api/imports/${first.id}/errors.csv`)).body;
      assert.match(errors, new RegExp(`^2,PIC-1,"?image ${late.replace(/[.]/g, '[.]')}: .*kept and tried again`, 'm'));
      assert.equal((await productBySku(call, 'PIC-1')).images.length, 1);
      // The URL stays the product's: exported after the stored image, and naming it again is no change.
      const exported = await exportCsv(call);
      assert.ok(exported.includes(`${images.url}/red.png|${late}`), exported);
      const before = await productBySku(call, 'PIC-1');
      const second = await importFile(call, file);
      assert.deepEqual([second.created, second.updated, second.unchanged, second.failed, second.images_failed], [0, 0, 2, 0, 1], JSON.stringify(second));
      assert.equal((await productBySku(call, 'PIC-1')).updated_at, before.updated_at);
      // Once the image can be downloaded, the next import of the product gets it, and it is pending no more.
      files[new URL(late).pathname] = files['/green.png'];
      const third = await importFile(call, file);
      assert.deepEqual([third.unchanged, third.failed, third.images_failed], [2, 0, 0], JSON.stringify(third));
      const pic = await productBySku(call, 'PIC-1');
      assert.equal(pic.images.length, 2);
      assert.equal(await exportCsv(call), exported, 'the same file as while the image was pending');
      const { rows } = await h.database.executor.executeSql('SELECT count(*)::int AS n FROM pending_images WHERE product_id = $1', [pic.id]);
      assert.equal(Number(rows[0].n), 0);
    });

    describe("Shopify's own files (test/fixtures/shopify): import → export is the same file", () => {
      /** Serves a distinct PNG for every path: the files' image URLs point here instead of Shopify's CDN. */
      let shop: TestServer;
      const made = new Map<string, Promise<Buffer>>();
      before(async () => {
        shop = await serveHttp((req, res) => {
          const url = req.url ?? '';
          if (!made.has(url)) {
            const d = createHash('sha256').update(url).digest();
            made.set(url, makeImage('png', 16 + (d[0] % 24), 16 + (d[1] % 24), [d[2], d[3], d[4]]));
          }
          void made.get(url)!.then((body) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length }).end(body));
        });
      });
      after(async () => {
        await shop?.close();
      });
      const fixture = (name: string) => readFileSync(`test/fixtures/shopify/${name}`, 'utf8').replaceAll('https://burst.shopifycdn.com/', `${shop.url}/burst/`);
      const errorsOf = async (call: Call, id: string) => (await call('GET', `/api/imports/${id}/errors.csv`)).body;
      const listed = async (call: Call) => okData(await call('GET', '/api/products?limit=100&include=variants')).products as any[];
      /** The differences docs/csv-formats.md lists that these files show. */
      const EXPECTED: Record<string, string[]> = {
        // 28 g shown in ounces: the PIM keeps 0.9877 oz (4 decimals in the unit), which is 28.000824 g.
        'jewelery.csv': ["boho-earrings variant 1: Variant Grams: '28' ≠ '28.000824'"],
      };

      for (const name of ['apparel.csv', 'home-and-garden.csv', 'jewelery.csv', 'product_template.csv']) {
        it(`${name}: imported, exported field by field the same; imported again nothing changes`, async () => {
          const { call } = await organization();
          const text = fixture(name);
          const done = await importFile(call, text);
          assert.deepEqual([done.state, done.format, done.failed, done.images_failed], ['completed', 'shopify', 0, 0], await errorsOf(call, done.id));
          assert.equal(done.created, done.rows_done);
          const exported = await exportCsv(call, '?format=shopify');
          assert.deepEqual(shopifyDifferences(text, exported), EXPECTED[name] ?? []);

          const before = new Map((await listed(call)).map((p) => [p.slug, p.updated_at]));
          const again = await importFile(call, text);
          assert.deepEqual([again.created, again.updated, again.unchanged, again.failed], [0, 0, done.rows_done, 0], JSON.stringify(again));
          assert.deepEqual(new Map((await listed(call)).map((p) => [p.slug, p.updated_at])), before, 'updated_at unmoved');
          assert.equal(await exportCsv(call, '?format=shopify'), exported);

          // Our own export, imported into another organization, exports as the same file.
          const other = await organization();
          const back = await importFile(other.call, exported);
          assert.equal(back.failed, 0, await errorsOf(other.call, back.id));
          assert.equal(await exportCsv(other.call, '?format=shopify'), exported);
        });
      }

      it('the template: weights in their unit, UPC barcodes, compare-at prices, Status and Published, Google Shopping as typed attributes', async () => {
        const { call } = await organization();
        const done = await importFile(call, fixture('product_template.csv'));
        assert.equal(done.failed, 0, await errorsOf(call, done.id));
        const [shirt, jeans, beanie] = ['example-shirt', 'example-pants', 'HAT_GRY_275'];
        const jeansP = await productBySku(call, jeans);
        assert.deepEqual(
          jeansP.variants.map((v: any) => [v.sku, v.weight, v.weight_unit, v.barcode, v.price, v.compare_at_price, v.sale_price, v.inventory_tracked]),
          [
            ['PNT_DEN_285', '8.0000', 'oz', '779201956374', '95.0000', '64.9500', null, true],
            ['PNT_DEN_305', '10.0000', 'oz', '685793775729', '95.0000', '64.9500', null, true],
            ['PNT_DEN_405', '14.0000', 'oz', '847182393429', '95.0000', '64.9500', null, true],
          ],
        );
        assert.deepEqual([jeansP.status, jeansP.publishing_channels, jeansP.sku_generated], ['draft', [], true]);
        const hat = await productBySku(call, beanie);
        assert.deepEqual(
          [hat.status, hat.stock, hat.weight, hat.weight_unit, hat.barcode, hat.ean, hat.price, hat.sale_price, hat.cost_price, hat.sku_generated],
          ['archived', 50, '72.0000', 'g', '122327648356', null, '22.9900', '17.9900', '8.5000', false],
        );
        const shirtP = await productBySku(call, shirt);
        assert.deepEqual([shirtP.status, shirtP.publishing_channels, shirtP.currency], ['active', ['web'], 'EUR']);
        assert.deepEqual(
          [shirtP.storefront_type, shirtP.taxonomy_category, shirtP.tags, shirtP.seo_title],
          ['Shirts', 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts', ['Made to Order', 'Shirt Tag'], 'Example T-Shirt | Test Store'],
        );
        assert.deepEqual(shirtP.variants[0].inventory_tracked, false, 'an empty Variant Inventory Tracker: not tracked');
        assert.deepEqual(shirtP.image_alts.slice(0, 2), ['A rack of T-Shirts', 'T-Shirt color swatches']);
        assert.deepEqual(shirtP.attributes, {
          google_google_product_category: '212',
          google_gender: 'male',
          google_age_group: 'adult',
          google_mpn: '365275101829',
          google_condition: 'new',
          google_custom_product: true,
        });
        const attributes = okData(await call('GET', '/api/product-attributes')).attributes as any[];
        assert.deepEqual(
          attributes.filter((a) => a.metafield).map((a) => [a.code, a.type, a.metafield]),
          [
            ['google_age_group', 'text', 'mm-google-shopping.age_group'],
            ['google_condition', 'text', 'mm-google-shopping.condition'],
            ['google_custom_product', 'boolean', 'mm-google-shopping.custom_product'],
            ['google_gender', 'text', 'mm-google-shopping.gender'],
            ['google_google_product_category', 'text', 'mm-google-shopping.google_product_category'],
            ['google_mpn', 'text', 'mm-google-shopping.mpn'],
          ],
        );
      });

      it('metafield columns become typed attributes that export under the same metafield; Published without Status; the default currency', async () => {
        const { call } = await organization();
        okData(await call('PATCH', '/api/organization', { default_currency: 'USD' }));
        const file = csv([
          [
            'Handle',
            'Title',
            'Published',
            'Variant SKU',
            'Variant Price',
            'Variant Grams',
            'Variant Weight Unit',
            'Variant Inventory Qty',
            'Variant Barcode',
            'Material (product.metafields.custom.material)',
            'Rating count (product.metafields.reviews.rating_count)',
            'Launched (product.metafields.custom.launch_date)',
            'Care (product.metafields.custom.care)',
          ],
          ['bag', 'Bag', 'TRUE', 'BAG-1', '20', '226.796185', 'lb', '7', 'ISBN 978-3-16-148410-0', 'canvas', '12', '2024-05-01', 'Wash cold\nDry flat'],
          ['cap', 'Cap', 'FALSE', 'CAP-1', '10', '', '', '', 'ABC-123', '', '3', '', ''],
        ]);
        // A dry run checks the values against the attributes it would make, and makes none.
        const dry = await importFile(call, file, '?dry_run=true');
        assert.deepEqual([dry.created, dry.failed], [2, 0], await errorsOf(call, dry.id));
        assert.deepEqual(
          (okData(await call('GET', '/api/product-attributes')).attributes as any[]).filter((a) => a.metafield),
          [],
        );
        const done = await importFile(call, file);
        assert.equal(done.failed, 0, await errorsOf(call, done.id));
        const bag = await productBySku(call, 'BAG-1');
        assert.deepEqual(
          [bag.status, bag.publishing_channels, bag.currency, bag.stock, bag.weight, bag.weight_unit, bag.barcode],
          ['active', ['web'], 'USD', 7, '0.5000', 'lb', 'ISBN 978-3-16-148410-0'],
        );
        // `material` is the organization's own attribute (no metafield): the metafield's attribute is material_2.
        assert.deepEqual(bag.attributes, { material_2: 'canvas', reviews_rating_count: 12, launch_date: '2024-05-01', care: 'Wash cold\nDry flat' });
        const cap = await productBySku(call, 'CAP-1');
        assert.deepEqual([cap.status, cap.publishing_channels, cap.barcode, cap.attributes], ['draft', [], 'ABC-123', { reviews_rating_count: 3 }]);
        const types = Object.fromEntries(
          (okData(await call('GET', '/api/product-attributes')).attributes as any[]).map((a) => [a.code, [a.type, a.metafield]]),
        );
        assert.deepEqual(
          [types.material_2, types.reviews_rating_count, types.launch_date, types.care],
          [
            ['text', 'custom.material'],
            ['number', 'reviews.rating_count'],
            ['date', 'custom.launch_date'],
            ['textarea', 'custom.care'],
          ],
        );
        const exported = await exportCsv(call, '?format=shopify');
        // Empty cells that Shopify's own exports always fill: the PIM's quantity is a number, its weight unit kilograms.
        assert.deepEqual(shopifyDifferences(file, exported), [
          "cap variant 1: Variant Inventory Qty: '' ≠ '0'",
          "cap variant 1: Variant Weight Unit: '' ≠ 'kg'",
        ]);
        assert.match(exported.split('\n')[0], /,Material \(product\.metafields\.custom\.material\),/);
        assert.match(exported, /,226\.796185,/);
      });

      it('an SKU two products share: both imported, the later one gets a SKU of its own that is never exported; again: nothing changes', async () => {
        const { call } = await organization();
        const file = csv([
          ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant SKU', 'Variant Price'],
          ['first', 'First', 'Title', 'Default Title', 'SAME', '1'],
          ['second', 'Second', 'Title', 'Default Title', 'SAME', '2'],
          ['third', 'Third', 'Size', 'S', 'V-SAME', '3'],
          ['third', '', '', 'M', 'V-SAME', '3'],
          ['fourth', 'Fourth', 'Size', 'S', 'V-SAME', '4'],
        ]);
        const done = await importFile(call, file);
        assert.deepEqual([done.created, done.failed], [5, 0], await errorsOf(call, done.id));
        const products = await listed(call);
        const bySlug = Object.fromEntries(products.map((p) => [p.slug, p]));
        assert.deepEqual(
          ['first', 'second'].map((slug) => [bySlug[slug].sku, bySlug[slug].sku_generated]),
          [
            ['SAME', false],
            ['second', true],
          ],
        );
        assert.deepEqual(
          ['third', 'fourth'].map((slug) => bySlug[slug].variants.map((v: any) => [v.sku, v.sku_generated])),
          [
            [
              ['V-SAME', false],
              ['third-2', true],
            ],
            [['fourth-1', true]],
          ],
        );
        const exported = await exportCsv(call, '?format=shopify');
        // The made-up SKUs are left out: the shop keeps none of them.
        assert.deepEqual(shopifyDifferences(file, exported), [
          "second variant 1: Variant SKU: 'SAME' ≠ ''",
          "third variant 2: Variant SKU: 'V-SAME' ≠ ''",
          "fourth variant 1: Variant SKU: 'V-SAME' ≠ ''",
        ]);
        const again = await importFile(call, file);
        assert.deepEqual([again.created, again.updated, again.unchanged, again.failed], [0, 0, 5, 0]);
      });
    });

    it('export → import into an empty organization → export gives the same file', async () => {
      const { call } = await organization();
      await importFile(call, GOOD);
      const first = await exportCsv(call);
      const empty = await organization();
      const back = await importFile(empty.call, first);
      assert.equal(back.failed, 0, (await empty.call('GET', `/api/imports/${back.id}/errors.csv`)).body);
      const second = await exportCsv(empty.call);
      assert.equal(second, first);
      assert.ok(first.split('\n')[0].includes('variant_sku'));
      assert.equal(first.trim().split('\n').length, 5, 'a header and one row per variant (or product)');
      const shopify = await exportCsv(call, '?format=shopify');
      assert.match(shopify.split('\n')[0], /^Handle,Title,/);
    });

    it('escapes formula-looking cells in exports', async () => {
      const { call } = await organization();
      okData(await call('POST', '/api/products', { sku: 'FORMULA', name: '=HYPERLINK("http://evil.test","click")', description: '@SUM(A1)' }), 201);
      okData(await call('POST', '/api/products', { sku: 'PLUS', name: '+1 cable', description: '-minus' }), 201);
      const out = await exportCsv(call);
      assert.match(out, /'=HYPERLINK/);
      assert.match(out, /'@SUM/);
      assert.match(out, /'\+1 cable/);
      assert.match(out, /'-minus/);
      // Read back, the escape is removed again.
      const empty = await organization();
      await importFile(empty.call, out);
      assert.equal((await productBySku(empty.call, 'FORMULA')).name, '=HYPERLINK("http://evil.test","click")');
      // The error report quotes the file: escaped too.
      const bad = await importFile(
        empty.call,
        csv([
          ['sku', 'name', 'price'],
          ['=2+3', 'Formula SKU', '1,5'],
        ]),
      );
      const report = (await empty.call('GET', `/api/imports/${bad.id}/errors.csv`)).body;
      assert.match(report, /^2,'=2\+3,/m);
    });

    it('exports with the product list filters', async () => {
      const { call } = await organization();
      await importFile(call, GOOD);
      const drafts = await exportCsv(call, '?status=draft');
      assert.match(drafts, /JACKET/);
      assert.doesNotMatch(drafts, /TEE-S-RED/);
      assertError(await call('GET', '/api/exports/products.csv?format=xml'), 400);
      assertError(await h.as(null)('GET', '/api/exports/products.csv'), 401);
    });
  });
}

// The sample files of the docs import as they are.
describe('sample files', () => {
  it('are in the repository', () => {
    assert.match(readFileSync('docs/samples/products.csv', 'utf8'), /^sku,/);
    assert.match(readFileSync('docs/samples/shopify-products.csv', 'utf8'), /^Handle,Title,/);
  });
});
