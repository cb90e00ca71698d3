// The catalogue CSV formats: reading (ours, Shopify's), the reader's file checks, writing and round trips.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CsvFileError, inspectCsv, type ReadEvent, readDrafts } from '../src/catalogue-csv/csv-reader.js';
import { RecordSplitter } from '../src/catalogue-csv/record-splitter.js';
import { csvHeader, draftRows, escapeFormula, headerContextOf, stringifyRows } from '../src/catalogue-csv/csv-writer.js';
import type { CsvFormat, ProductDraft, RowError } from '../src/catalogue-csv/draft.js';
import { gramsToWeight, SHOPIFY_COLUMNS, shopifyMetafieldColumns, weightToGrams } from '../src/catalogue-csv/shopify-format.js';
import { shopifyDifferences } from './helpers/shopify-files.js';

const sample = (name: string) => readFileSync(new URL(`../docs/samples/${name}`, import.meta.url));

/** The bytes as a stream of chunks (of `size` bytes: 1 checks every boundary). */
async function* chunks(data: string | Buffer, size?: number): AsyncGenerator<Buffer> {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  const step = size ?? Math.max(buf.length, 1);
  for (let i = 0; i < buf.length; i += step) yield buf.subarray(i, i + step);
}

async function read(data: string | Buffer, options: { format?: CsvFormat; fromLine?: number; chunk?: number } = {}) {
  const events: ReadEvent[] = [];
  for await (const event of readDrafts(chunks(data, options.chunk), options)) events.push(event);
  const drafts = events.flatMap((e) => (e.kind === 'draft' ? [e.draft] : []));
  const errors = events.flatMap((e) => (e.kind === 'errors' ? e.errors : []));
  const header = events[0].kind === 'header' ? events[0] : assert.fail('the first event is the header');
  return { events, drafts, errors, header };
}

/** CSV text of rows given as objects under `header`. */
const csvOf = (header: string[], rows: Record<string, string>[]) => stringifyRows([header, ...rows.map((r) => header.map((h) => r[h] ?? ''))]);

const reasonAt = (errors: RowError[], line: number) =>
  errors.find((e) => e.line === line)?.reason ?? assert.fail(`no error at line ${line}: ${JSON.stringify(errors)}`);

/** A draft without its line numbers, to compare drafts written at other lines. */
const unlined = (d: ProductDraft) => ({ ...d, line: 0, lines: [], variants: d.variants.map((v) => ({ ...v, line: 0 })) });

describe('our format: the sample file', () => {
  it('reads three products with their variants, stock, attributes, translations, categories and images', async () => {
    const { header, drafts, errors } = await read(sample('products.csv'));
    assert.equal(header.format, 'ours');
    assert.deepEqual(errors, []);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.line, d.lines]),
      [
        ['TEE-CLASSIC', 2, [2, 3, 4]],
        ['BOTTLE-750', 5, [5]],
        ['JACKET-RAIN', 6, [6]],
      ],
    );

    const [tee, bottle, jacket] = drafts;
    assert.equal(tee.fields.name, 'Classic Tee');
    assert.equal(tee.fields.description, '<p>Soft organic cotton, relaxed fit.</p>');
    assert.equal(tee.fields.price, '24.90');
    assert.equal(tee.fields.sale_price, null);
    assert.deepEqual(tee.fields.publishing_channels, ['web', 'mobile']);
    assert.deepEqual(tee.fields.categories, [['Apparel', 'Tops'], ['Sale']]);
    assert.deepEqual(tee.images, ['https://cdn.example.com/tee-front.jpg', 'https://cdn.example.com/tee-back.jpg']);
    assert.deepEqual(tee.attributes, { material: 'Organic cotton', waterproof: 'false' });
    assert.deepEqual(tee.translations, { de: { name: 'Klassisches T-Shirt', description: '<p>Weiche Bio-Baumwolle, lockere Passform.</p>' } });
    assert.equal(tee.fields.product_type, undefined, 'no product_type column: the field is absent');
    assert.deepEqual(
      tee.variants.map((v) => [v.line, v.sku, v.fields.name, v.fields.attributes]),
      [
        [
          2,
          'TEE-CLASSIC-S-WHT',
          'S / White',
          [
            { attribute_name: 'Size', value: 'S' },
            { attribute_name: 'Colour', value: 'White' },
          ],
        ],
        [
          3,
          'TEE-CLASSIC-M-WHT',
          'M / White',
          [
            { attribute_name: 'Size', value: 'M' },
            { attribute_name: 'Colour', value: 'White' },
          ],
        ],
        [
          4,
          'TEE-CLASSIC-M-BLK',
          'M / Black',
          [
            { attribute_name: 'Size', value: 'M' },
            { attribute_name: 'Colour', value: 'Black' },
          ],
        ],
      ],
    );
    assert.deepEqual(tee.variants[1].fields, {
      name: 'M / White',
      price: '24.90',
      sale_price: '19.90',
      cost: '8.50',
      weight: '0.2',
      stock_quantity: 30,
      is_enabled: true,
      image: 'https://cdn.example.com/tee-m-white.jpg',
      attributes: [
        { attribute_name: 'Size', value: 'M' },
        { attribute_name: 'Colour', value: 'White' },
      ],
    });
    assert.equal(tee.variants[2].fields.stock_status, 'on_backorder');
    assert.equal(tee.variants[2].fields.is_enabled, false);

    assert.deepEqual(bottle.stock, { main: 120, eu: 45 });
    assert.equal(bottle.fields.ean, '4006381333931');
    assert.equal(bottle.fields.sale_price, '24.50');
    assert.equal(bottle.fields.supplier, null, 'an empty cell clears a nullable field');
    assert.deepEqual(bottle.variants, []);
    assert.deepEqual(bottle.translations, { de: { name: 'Isolierflasche 750 ml', description: 'Hält Getränke 24 Stunden kalt.' } });

    assert.equal(jacket.fields.description, 'Seam-sealed shell; the "packable" hood folds into the collar.');
    assert.equal(jacket.fields.status, 'draft');
    assert.deepEqual(jacket.fields.publishing_channels, []);
    assert.deepEqual(jacket.images, []);
    assert.deepEqual(jacket.stock, {}, 'empty stock cells give no stock');
  });

  it('inspectCsv recognises it and counts its data rows', async () => {
    const result = await inspectCsv(chunks(sample('products.csv')), { maxBytes: 1 << 20 });
    assert.equal(result.format, 'ours');
    assert.equal(result.rows, 5);
    assert.ok(result.columns.includes('option:Colour'));
  });
});

describe("Shopify's format: the sample export", () => {
  it('reads a product with Size × Color variants and image rows, and a Default Title product', async () => {
    const { header, drafts, errors } = await read(sample('shopify-products.csv'));
    assert.equal(header.format, 'shopify');
    assert.deepEqual(errors, []);
    assert.equal(drafts.length, 2);
    const [shirt, tote] = drafts;
    const cdn = 'https://cdn.shopify.com/s/files/1/0612/4431/0027/files/';

    assert.equal(shirt.sku, 'linen-shirt');
    assert.equal(shirt.skuGenerated, true, "a product with variants has no SKU of its own in Shopify's file");
    assert.deepEqual(shirt.lines, [2, 3, 4, 5, 6, 7]);
    assert.deepEqual(shirt.fields, {
      name: 'Linen Shirt',
      slug: 'linen-shirt',
      description: '<p>Breathable linen, <strong>relaxed</strong> fit.</p>',
      brand: 'Northwind',
      storefront_type: 'Shirts',
      taxonomy_category: 'Apparel & Accessories > Clothing > Clothing Tops > Shirts',
      tags: ['linen', 'summer'],
      seo_title: 'Linen Shirt | Northwind',
      seo_description: 'Breathable linen shirt.',
      gift_card: false,
      status: 'active',
    });
    assert.equal(shirt.published, true);
    assert.deepEqual(shirt.metafields, {
      'mm-google-shopping.google_product_category': null,
      'mm-google-shopping.gender': 'unisex',
      'mm-google-shopping.age_group': null,
      'mm-google-shopping.mpn': null,
      'mm-google-shopping.condition': 'new',
      'mm-google-shopping.custom_product': 'FALSE',
    });
    assert.deepEqual(shirt.images, [`${cdn}linen-sand.jpg?v=1700000001`, `${cdn}linen-navy.jpg?v=1700000002`, `${cdn}linen-detail.jpg?v=1700000003`]);
    assert.deepEqual(shirt.imageAlts, ['Linen shirt in sand', 'Linen shirt in navy', 'Collar detail']);
    assert.deepEqual(
      shirt.variants.map((v) => [v.line, v.sku, v.fields.name, v.fields.stock_quantity]),
      [
        [2, 'LS-S-SAND', 'S / Sand', 14],
        [3, 'LS-M-SAND', 'M / Sand', 9],
        [4, 'LS-S-NAVY', 'S / Navy', 0],
        [5, 'LS-M-NAVY', 'M / Navy', 6],
      ],
    );
    assert.deepEqual(shirt.variants[2].fields, {
      name: 'S / Navy',
      attributes: [
        { attribute_name: 'Size', value: 'S' },
        { attribute_name: 'Color', value: 'Navy' },
      ],
      price: '59.00',
      sale_price: '49.00',
      compare_at_price: null,
      cost: '18.00',
      weight: '0.22',
      weight_unit: 'kg',
      barcode: null,
      inventory_tracked: true,
      inventory_policy: 'deny',
      taxable: true,
      requires_shipping: true,
      stock_quantity: 0,
      image: `${cdn}linen-navy.jpg?v=1700000002`,
    });

    assert.equal(tote.sku, 'TOTE-NAT');
    assert.equal(tote.skuGenerated, undefined);
    assert.deepEqual(tote.variants, []);
    assert.deepEqual(tote.fields, {
      name: 'Canvas Tote',
      slug: 'canvas-tote',
      description: '<p>Heavy cotton canvas, 15 l.</p>',
      brand: 'Northwind',
      storefront_type: 'Bags',
      taxonomy_category: null,
      tags: ['bags'],
      seo_title: null,
      seo_description: null,
      gift_card: false,
      status: 'active',
      price: '18.00',
      sale_price: null,
      compare_at_price: null,
      barcode: '5901234123457',
      weight: '0.3',
      weight_unit: 'kg',
      inventory_tracked: true,
      inventory_policy: 'deny',
      taxable: true,
      requires_shipping: true,
      cost_price: '6.50',
      stock_quantity: 50,
    });
    assert.deepEqual(tote.images, [`${cdn}tote.jpg?v=1700000004`]);
    // No `ean` above: a Shopify barcode is the storefront barcode, never the PIM's EAN.
  });

  it('orders images by Image Position, reads the newer export names, and names empty variant SKUs after the Handle', async () => {
    const header = [
      'URL handle',
      'Title',
      'Option1 name',
      'Option1 value',
      'SKU',
      'Price',
      'Compare-at price',
      'Weight value (grams)',
      'Product image URL',
      'Image position',
    ];
    const csv = csvOf(header, [
      {
        'URL handle': 'mug',
        Title: 'Mug',
        'Option1 name': 'Size',
        'Option1 value': 'S',
        Price: '10.00',
        'Compare-at price': '9.00',
        'Weight value (grams)': '0',
        'Product image URL': 'https://x.test/b.jpg',
        'Image position': '2',
      },
      {
        'URL handle': 'mug',
        'Option1 value': 'L',
        SKU: 'MUG-L',
        Price: '12',
        'Weight value (grams)': '1234.56',
        'Product image URL': 'https://x.test/a.jpg',
        'Image position': '1',
      },
    ]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(errors, []);
    const [mug] = drafts;
    assert.deepEqual(mug.images, ['https://x.test/a.jpg', 'https://x.test/b.jpg']);
    assert.deepEqual(
      mug.variants.map((v) => [v.sku, v.skuGenerated, v.fields.price, v.fields.sale_price, v.fields.compare_at_price, v.fields.weight]),
      [
        ['mug-1', true, '10.00', null, '9.00', '0'], // a compare-at price below the price is kept as given
        ['MUG-L', undefined, '12', null, null, '1.2346'],
      ],
    );
  });
});

describe("Shopify's format: row errors", () => {
  it('reads two products with one SKU (Shopify allows it; the importer gives the later one a SKU of its own)', async () => {
    const header = ['Handle', 'Title', 'Option1 Name', 'Option1 Value', 'Variant SKU', 'Variant Price'];
    const csv = csvOf(header, [
      { Handle: 'shirt-a', Title: 'Shirt A', 'Option1 Name': 'Title', 'Option1 Value': 'Default Title', 'Variant SKU': 'SKU-1', 'Variant Price': '5.00' },
      { Handle: 'shirt-b', Title: 'Shirt B', 'Option1 Name': 'Title', 'Option1 Value': 'Default Title', 'Variant SKU': 'SKU-1', 'Variant Price': '6.00' },
      { Handle: 'shirt-c', Title: 'Shirt C', 'Option1 Name': 'Title', 'Option1 Value': 'Default Title', 'Variant SKU': 'SKU-3', 'Variant Price': '7.00' },
    ]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.fields.slug, d.fields.name]),
      [
        ['SKU-1', 'shirt-a', 'Shirt A'],
        ['SKU-1', 'shirt-b', 'Shirt B'],
        ['SKU-3', 'shirt-c', 'Shirt C'],
      ],
    );
  });

  it('a Handle that is no handle ("Blue Shirt") becomes the handle Shopify would make of it; a Unicode one stays as it is', async () => {
    const header = ['Handle', 'Title', 'Variant Price'];
    const csv = csvOf(header, [
      { Handle: 'Blue Shirt', Title: 'Blue Shirt', 'Variant Price': '5.00' },
      { Handle: 'рубашка-синяя', Title: 'Рубашка', 'Variant Price': '6.00' },
    ]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      drafts.map((d) => d.fields.slug),
      ['blue-shirt', 'рубашка-синяя'],
    );
  });

  it('refuses a product with a bad row whole (every row of it), and non-consecutive Handles', async () => {
    const header = [
      'Handle',
      'Title',
      'Option1 Name',
      'Option1 Value',
      'Option2 Value',
      'Variant SKU',
      'Variant Price',
      'Variant Inventory Qty',
      'Image Src',
      'Status',
    ];
    const csv = csvOf(header, [
      { Handle: 'a', Title: 'A', 'Option1 Name': 'Size', 'Option1 Value': 'S', 'Variant SKU': 'A-S', 'Variant Price': '5.00' },
      { Handle: 'a', 'Option1 Value': 'M', 'Variant SKU': 'A-M', 'Variant Price': '5,00' },
      { Handle: 'a', 'Option1 Value': 'L', 'Option2 Value': 'Red', 'Variant SKU': 'A-L' },
      { Handle: 'a', 'Option1 Value': 'XL', 'Variant SKU': 'A-XL', 'Variant Inventory Qty': '2' },
      { Handle: 'a', 'Image Src': 'not-a-url' },
      { Handle: 'b', Title: '', 'Variant SKU': 'B' },
      { Handle: 'b', 'Image Src': 'https://x.test/b.jpg' },
      { Handle: 'c', Title: 'C', Status: 'unlisted' },
      { Handle: 'a', Title: 'A again' },
      { Handle: 'd', Title: 'D', 'Variant SKU': 'D-1', 'Variant Price': '1' },
    ]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.lines, d.variants.map((v) => v.sku)]),
      [['D-1', [11], []]],
    );
    assert.match(reasonAt(errors, 2), /not imported: its product has bad rows \(line 3, 4, 6\)/);
    assert.match(reasonAt(errors, 5), /not imported: its product has bad rows/);
    assert.match(reasonAt(errors, 3), /column 'Variant Price': '5,00' has a comma/);
    assert.match(reasonAt(errors, 4), /'Option2 Value' is filled but the product's first row \(line 2\) has no 'Option2 Name'/);
    assert.match(reasonAt(errors, 6), /column 'Image Src': 'not-a-url' is not an http\(s\) URL/);
    assert.match(reasonAt(errors, 7), /column 'Title' is empty/);
    assert.match(reasonAt(errors, 8), /not imported: its product has a bad row \(line 7\)/);
    assert.match(reasonAt(errors, 9), /column 'Status': 'unlisted' is not one of active, draft, archived/);
    assert.equal(reasonAt(errors, 10), "Handle 'a' already appeared at line 2; a product's rows must be consecutive");
  });
});

describe('reading: grouping and line numbers', () => {
  const text = [
    'sku,name,description,variant_sku,option:Size',
    '',
    'A,Alpha,"two',
    'lines",A-1,S',
    ',,,A-2,M',
    '   ',
    'B,Beta,"one\r\ncrlf",,',
    'C,Gamma,,C-1,',
  ].join('\r\n');

  it('counts physical lines (quoted line breaks, CRLF, blank lines) and groups consecutive rows', async () => {
    const { drafts, events } = await read(text);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.line, d.lines, d.variants.map((v) => [v.sku, v.line])]),
      [
        [
          'A',
          3,
          [3, 5],
          [
            ['A-1', 3],
            ['A-2', 5],
          ],
        ],
        ['B', 7, [7], []],
        ['C', 9, [9], [['C-1', 9]]],
      ],
    );
    assert.equal(drafts[0].fields.description, 'two\r\nlines');
    assert.deepEqual(
      events.map((e) => (e.kind === 'header' ? 'header' : `${e.kind}@${e.lastLine}`)),
      ['header', 'draft@5', 'draft@8', 'draft@9'],
    );
  });

  it('reads the same whatever the chunk boundaries', async () => {
    const whole = await read(text);
    for (const size of [1, 2, 3, 7]) assert.deepEqual((await read(text, { chunk: size })).events, whole.events, `chunks of ${size}`);
    const bom = await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), { chunk: 1 });
    assert.deepEqual(bom.events, whole.events, 'a UTF-8 BOM is dropped');
  });

  it('yields a product only once all its rows are read', async () => {
    const seen: string[] = [];
    const lines = ['sku,name,variant_sku', 'A,Alpha,A-1', 'A,,A-2', 'B,Beta,'];
    async function* slowly() {
      for (const line of lines) {
        seen.push(line);
        yield Buffer.from(`${line}\n`);
      }
    }
    for await (const event of readDrafts(slowly(), {})) {
      if (event.kind === 'draft' && event.draft.sku === 'A') assert.equal(seen.length, 4, 'A is complete when B starts');
    }
  });
});

describe('reading: row errors', () => {
  const header = [
    'sku',
    'name',
    'price',
    'currency',
    'status',
    'ean',
    'publishing_channels',
    'product_condition',
    'categories',
    'images',
    'stock:main',
    'variant_sku',
    'variant_stock',
    'variant_stock_status',
    'variant_enabled',
    'variant_image',
    'option:Size',
  ];
  const bad: [Record<string, string>, string][] = [
    [{ price: '19,99' }, "column 'price': '19,99' has a comma; write decimals with a point, e.g. 19.99"],
    [{ price: '-5' }, 'is negative'],
    [{ price: '1.23456' }, 'more than 4 decimal places'],
    [{ price: 'ten' }, 'is not a decimal number'],
    [{ 'stock:main': '12.5' }, "column 'stock:main': '12.5' is not a whole number"],
    [{ currency: 'eur' }, 'three-letter currency code'],
    [{ status: 'live' }, "column 'status': 'live' is not one of draft, active, archived, out_of_stock"],
    [{ product_condition: 'mint' }, 'is not one of new, used, refurbished'],
    [{ ean: '4.00638E+12' }, 'scientific notation'],
    [{ ean: '12345' }, 'not a barcode of 8 to 14 digits'],
    [{ publishing_channels: 'web||api' }, 'empty value'],
    [{ images: 'ftp://x.test/a.jpg' }, 'is not an http(s) URL'],
    [{ categories: 'Apparel >  > Tops' }, 'empty level'],
    [{ name: '' }, "column 'name' is empty"],
    [{ variant_enabled: 'yes', variant_sku: 'V' }, "column 'variant_enabled': 'yes' is not true or false"],
    [{ variant_stock: 'many', variant_sku: 'V' }, 'is not a whole number'],
    [{ variant_stock_status: 'sold', variant_sku: 'V' }, 'is not one of in_stock, out_of_stock, on_backorder'],
    [{ variant_image: 'www.x.test/a.jpg', variant_sku: 'V' }, 'is not an http(s) URL'],
    [{ 'option:Size': 'M' }, "column 'variant_sku' is empty but other variant columns are filled"],
  ];

  it('reports every bad cell with its line and the column, and reads the good rows', async () => {
    const rows = bad.map(([cells], i) => ({ sku: `BAD-${i}`, name: 'Bad', ...cells }));
    const csv = csvOf(header, [{ sku: 'GOOD-1', name: 'Good one', price: '19.99' }, ...rows, { sku: 'GOOD-2', name: 'Good two', 'stock:main': '-3' }]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => d.sku),
      ['GOOD-1', 'GOOD-2'],
    );
    assert.deepEqual(drafts[1].stock, { main: -3 });
    assert.equal(errors.length, bad.length);
    bad.forEach(([, reason], i) => {
      const line = i + 3;
      assert.ok(reasonAt(errors, line).includes(reason), `line ${line}: ${reasonAt(errors, line)}`);
      assert.equal(errors.find((e) => e.line === line)?.sku, `BAD-${i}`);
    });
  });

  it('refuses a product with a bad row whole: every row of it', async () => {
    const csv = csvOf(header, [
      { sku: 'P', name: 'P', price: '10', variant_sku: 'P-1', 'option:Size': 'S' },
      { sku: 'P', variant_sku: 'P-2', variant_stock: 'x', 'option:Size': 'M' },
      { sku: 'P', price: '11', variant_sku: 'P-3', 'option:Size': 'L' },
      { sku: 'P', price: '10', variant_sku: 'P-4', 'option:Size': 'XL' },
      { sku: 'Q', name: 'Q', price: '1,5', variant_sku: 'Q-1' },
      { variant_sku: 'Q-2' },
      { sku: 'R', name: 'R' },
    ]);
    const { drafts, errors, events } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.lines, d.variants.map((v) => v.sku)]),
      [['R', [8], []]],
    );
    assert.deepEqual(
      errors.map((e) => [e.line, e.sku]),
      [
        [2, 'P'],
        [3, 'P'],
        [4, 'P'],
        [5, 'P'],
        [6, 'Q'],
        [7, 'Q'],
      ],
    );
    assert.equal(reasonAt(errors, 2), 'not imported: its product has bad rows (line 3, 4)');
    assert.equal(reasonAt(errors, 4), "product column 'price' differs from line 2");
    assert.equal(reasonAt(errors, 5), 'not imported: its product has bad rows (line 3, 4)');
    assert.equal(reasonAt(errors, 7), "not read: the product's first row (line 6) has errors");
    assert.deepEqual(
      events.map((e) => (e.kind === 'header' ? 'header' : `${e.kind}@${e.lastLine}`)),
      ['header', 'errors@5', 'errors@7', 'draft@8'],
      "a product's errors come just before it",
    );
  });

  it('refuses a product with a duplicate variant SKU whole, and non-consecutive product rows', async () => {
    const csv = csvOf(header, [
      { sku: 'A', name: 'A', variant_sku: 'V-1' },
      { sku: 'A', variant_sku: 'V-2' },
      { sku: 'B', name: 'B', variant_sku: 'V-3' },
      { sku: 'B', variant_sku: 'V-1' },
      { sku: 'B', variant_sku: 'V-3' },
      { sku: 'A', name: 'A again', variant_sku: 'V-4' },
      { variant_sku: 'V-5' },
      { sku: 'C', name: 'C', variant_sku: 'V-2' },
      { sku: 'C', variant_sku: 'V-6' },
      { sku: 'D', name: 'D', variant_sku: 'V-6' },
    ]);
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.lines, d.variants.map((v) => v.sku)]),
      [
        ['A', [2, 3], ['V-1', 'V-2']],
        ['D', [11], ['V-6']],
      ],
    );
    assert.equal(reasonAt(errors, 4), 'not imported: its product has a variant SKU that appeared before (line 5, 6)');
    assert.equal(reasonAt(errors, 5), "variant SKU 'V-1' already appeared at line 2");
    assert.equal(reasonAt(errors, 6), "variant SKU 'V-3' already appeared at line 4");
    assert.equal(reasonAt(errors, 7), "product SKU 'A' already appeared at line 2; a product's rows must be consecutive");
    assert.equal(reasonAt(errors, 8), reasonAt(errors, 7));
    // On a product's first row it fails the product (and its SKUs do not count as seen: D's V-6 is fine).
    assert.equal(reasonAt(errors, 9), "variant SKU 'V-2' already appeared at line 3");
    assert.equal(reasonAt(errors, 10), 'not imported: its product has a variant SKU that appeared before (line 9)');
  });

  it('refuses a slug the API would refuse, naming the slug it could be', async () => {
    const { drafts, errors } = await read('sku,name,slug\nA-1,Blue Shirt,Blue Shirt\nA-2,Tee,tee\n');
    assert.deepEqual(
      drafts.map((d) => d.fields.slug),
      ['tee'],
    );
    assert.match(reasonAt(errors, 2), /column 'slug': 'Blue Shirt' is not a slug .*e\.g\. 'blue-shirt'/);
  });

  it('reports a row of more cells than the header, and a first row without sku', async () => {
    const csv = 'sku,name,price\n,Orphan,1\nA,Alpha,1,extra\nB,Beta,2,,\n';
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => d.sku),
      ['B'],
    );
    assert.match(reasonAt(errors, 2), /no product above/);
    assert.match(reasonAt(errors, 3), /4 cells but the header has 3 columns/);
  });
});

describe('reading: broken quoting', () => {
  it('an unterminated quote fails its line and the rest of the file is still read', async () => {
    const csv = 'sku,name,description\nA,Alpha,fine\nB,Beta,"never closed\nC,Gamma,"quoted, fine"\nD,Delta,x\n';
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.line]),
      [
        ['A', 2],
        ['C', 4],
        ['D', 5],
      ],
    );
    assert.deepEqual(
      errors.map((e) => [e.line, e.sku]),
      [[3, null]],
    );
    assert.match(errors[0].reason, /not closed properly/);
    assert.equal(drafts[1].fields.description, 'quoted, fine');
  });

  it('a quote at the end of the file that never closes, a stray quote, text after a closing quote', async () => {
    const csv = 'sku,name,description\nA,Alpha,5" screen\nB,Beta,"closed"then text\nC,Gamma,ok\nD,Delta,"open to the end\nstill open';
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => d.sku),
      ['C'],
    );
    assert.deepEqual(
      errors.map((e) => e.line),
      [2, 3, 5, 6],
    );
    assert.match(reasonAt(errors, 2), /a quote \(".*inside a cell that does not start with one/);
    assert.match(reasonAt(errors, 3), /not closed properly: a quote .* is followed by more text/);
    assert.match(reasonAt(errors, 5), /never closed/);
    // Reading goes on with the line after the quote: here the rest of the broken cell, read as a row of its own.
    assert.match(reasonAt(errors, 6), /column 'name' is empty/);
  });

  it('a continuation row after a broken row is not attached to the product above', async () => {
    const csv = 'sku,name,variant_sku\nA,Alpha,A-1\nB,"Be"ta,B-1\n,,B-2\nB,,B-3\n';
    const { drafts, errors } = await read(csv);
    assert.deepEqual(
      drafts.map((d) => [d.sku, d.variants.map((v) => v.sku)]),
      [['A', ['A-1']]],
    );
    assert.deepEqual(
      errors.map((e) => e.line),
      [3, 4, 5],
    );
    assert.match(reasonAt(errors, 4), /line 3\) could not be read, so it is unclear which product/);
    assert.match(reasonAt(errors, 5), /column 'name' is empty/);
  });
});

describe('reading: rows over the limits (a cell of 1 Mi, a row of 4 Mi characters)', () => {
  const split = (splitter: RecordSplitter, parts: string[]) => {
    const out = [];
    for (const part of parts) out.push(...splitter.push(part));
    out.push(...splitter.end());
    return out;
  };
  /** A quoted cell of `lines` lines of 10 characters, with a doubled quote in each, pushed a line at a time. */
  const longCell = (lines: number) => Array.from({ length: lines }, (_, i) => (i === lines - 1 ? 'ab""cdefg' : 'ab""cdefg\n'));

  it('a cell over the limit refuses its row, reported once on its first line with the lines it spans; reading goes on after it', () => {
    const out = split(new RecordSplitter(1_000, 50), ['k,v,"', ...longCell(300), '",more\r\nb,c\n']);
    assert.equal(out.length, 2);
    assert.ok('broken' in out[0]);
    assert.deepEqual([out[0].line, out[0].endLine, out[0].long?.cell, out[0].long?.chars, out[0].long?.head], [1, 300, 2, 3_001, 'k,v,']);
    assert.equal(out[0].broken, 'cell 3 holds 3,001 characters, more than the 50 a cell may hold; the row was not imported (lines 1 to 300)');
    assert.deepEqual(out[1], { text: 'b,c', line: 301, endLine: 301 });
    // An unquoted cell too.
    assert.deepEqual(
      split(new RecordSplitter(1_000, 50), [`${'y'.repeat(60)},b\nc,d\n`]).map((r) => ('broken' in r ? ['broken', r.line] : [r.text, r.line])),
      [
        ['broken', 1],
        ['c,d', 2],
      ],
    );
  });

  it('past the row limit the text is dropped as it is scanned: memory stays bounded whatever the cell', () => {
    const splitter = new RecordSplitter(1_000, 50);
    const parts = ['k,"', ...Array.from({ length: 2_000 }, () => 'ab""cdefg\n'.repeat(100)), '"\nb,c\n'];
    let longest = 0;
    const out = [];
    for (const part of parts) {
      out.push(...splitter.push(part));
      longest = Math.max(longest, (splitter as unknown as { buf: string }).buf.length);
    }
    out.push(...splitter.end());
    assert.ok(longest < 1_000 + 2 * 1_000, `the buffer held ${longest} characters`);
    assert.deepEqual(
      out.map((r) => [r.line, r.endLine, 'broken' in r]),
      [
        [1, 200_001, true],
        [200_002, 200_002, false],
      ],
    );
  });

  it('a quote never closed: within the row limit its first line fails and reading goes on with the second; past it, the lines read are reported', () => {
    const text = `a,"${'x'.repeat(100)}\nb,c\n`;
    const kept = split(new RecordSplitter(200, 50), [text]);
    assert.equal(kept.length, 2);
    assert.ok('broken' in kept[0] && /never closed/.test(kept[0].broken) && kept[0].line === 1 && kept[0].endLine === 1);
    assert.deepEqual(kept[1], { text: 'b,c', line: 2, endLine: 2 });
    const dropped = split(new RecordSplitter(50), [text]);
    assert.equal(dropped.length, 1);
    assert.ok('broken' in dropped[0]);
    assert.equal(
      dropped[0].broken,
      'a quoted cell starting on line 1 runs over 50 characters and is never closed; lines 1 to 3 (the end of the file) were not read',
    );
    // Closed by a quote followed by text: reading goes on after that line.
    const closedBadly = split(new RecordSplitter(100, 50), ['k,"', ...longCell(30), '"x,more\nb,c\n']);
    assert.deepEqual(
      closedBadly.map((r) => ('broken' in r ? [r.line, r.endLine, /not closed properly.*lines 1 to 30 were skipped/.test(r.broken)] : [r.line, r.text])),
      [
        [1, 30, true],
        [31, 'b,c'],
      ],
    );
  });

  const big = 'x'.repeat(1024 * 1024 + 1);

  it("names the column and the row's product, and refuses that product whole (every row of it)", async () => {
    const ours = await read(`sku,name,description,variant_sku\nA,Alpha,"${big}",A-1\nA,,,A-2\nB,Beta,ok,B-1\nB,,"${big}\nstill",B-2\nB,,,B-3\n`, {
      chunk: 64 * 1024,
    });
    assert.deepEqual(ours.drafts, []);
    assert.deepEqual(
      ours.errors.map((e) => [e.line, e.sku]),
      [
        [2, 'A'],
        [3, 'A'],
        [4, 'B'],
        [5, 'B'],
        [7, 'B'],
      ],
    );
    assert.equal(reasonAt(ours.errors, 4), 'not imported: a row of its product (line 5) could not be read');
    assert.equal(
      reasonAt(ours.errors, 2),
      "column 'description' holds 1,048,579 characters, more than the 1 Mi (1,048,576) a cell may hold; the row was not imported (line 2)",
    );
    assert.equal(reasonAt(ours.errors, 3), "not read: the product's first row (line 2) has errors");
    assert.match(reasonAt(ours.errors, 5), /^column 'description' holds 1,048,585 characters, .*\(lines 5 to 6\)$/);

    const shopify = await read(`Handle,Title,Body (HTML),Variant SKU,Option1 Name,Option1 Value\nh,Hat,"${big}",h-1,Size,S\nh,,,h-2,,M\nk,Cap,,k-1,Size,S\n`, {
      chunk: 64 * 1024,
    });
    assert.deepEqual(
      shopify.drafts.map((d) => d.sku),
      ['k'],
    );
    assert.match(reasonAt(shopify.errors, 2), /^column 'Body \(HTML\)' holds/);
    assert.deepEqual(
      shopify.errors.map((e) => [e.line, e.sku]),
      [
        [2, 'h'],
        [3, 'h'],
      ],
    );
  });

  it('a long run of bad rows is handed on in slices, not held until the next product', async () => {
    const { events } = await read(`sku,name\n${'A,5" screen\n'.repeat(2_500)}B,Fine\n`);
    assert.deepEqual(
      events.flatMap((e): (number | string)[] => (e.kind === 'errors' ? [e.errors.length] : e.kind === 'draft' ? [e.draft.sku] : [])),
      [1_000, 1_000, 500, 'B'],
    );
  });
});

describe('reading: resuming with fromLine', () => {
  it('skips the products and errors up to the checkpoint and yields the rest as before', async () => {
    const csv = 'sku,name,variant_sku\nA,Alpha,A-1\n,,A-2\nB,,B-1\nC,Gamma,C-1\nC,,C-2\nD,Delta,\n';
    const all = await read(csv);
    const afterA = all.events.find((e) => e.kind === 'draft' && e.draft.sku === 'A');
    assert.ok(afterA && afterA.kind === 'draft');
    assert.equal(afterA.lastLine, 3);
    const resumed = await read(csv, { fromLine: afterA.lastLine });
    assert.deepEqual(
      resumed.events.slice(1),
      all.events.slice(1).filter((e) => e.kind !== 'header' && e.lastLine > 3),
    );
    assert.deepEqual(
      resumed.drafts.map((d) => d.sku),
      ['C', 'D'],
    );
    assert.deepEqual(
      resumed.errors.map((e) => e.line),
      [4],
      "B's error is after the checkpoint",
    );
    const afterC = await read(csv, { fromLine: 6 });
    assert.deepEqual([afterC.drafts.map((d) => d.sku), afterC.errors], [['D'], []]);
    // Duplicate checks still see the skipped part of the file.
    const dup = await read('sku,name,variant_sku\nA,Alpha,V\nB,Beta,V\n', { fromLine: 2 });
    assert.match(reasonAt(dup.errors, 3), /already appeared at line 2/);
  });
});

describe('file checks', () => {
  const inspect = (data: string | Buffer, maxBytes = 1 << 20, format?: CsvFormat) => inspectCsv(chunks(data), { maxBytes, format });
  const refused = async (data: string | Buffer, message: RegExp, maxBytes?: number) => {
    await assert.rejects(inspect(data, maxBytes), (err: unknown) => err instanceof CsvFileError && message.test(err.message));
  };

  it('refuses files that are not CSV text we can read, saying why', async () => {
    await refused('', /the file is empty/);
    await refused('\n\n  \n', /the file is empty/);
    await refused(Buffer.from([0x73, 0x6b, 0x75, 0x00, 0x01, 0x02]), /NUL bytes.*binary/);
    await refused(Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1'), /Excel workbook/);
    await refused(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('s\0k\0u\0', 'latin1')]), /UTF-16.*save it as UTF-8/);
    await refused(Buffer.from('sku,name\nA,Caf\xe9\n', 'latin1'), /not UTF-8 \(around line 2/);
    await refused('foo,bar\n1,2\n', /not a header we know.*'sku'.*'Handle' and 'Title'.*found 'foo', 'bar'/);
    await refused('sku;name;price\nA;B;1\n', /';' between columns/);
    await refused('sku,name,colour,Price\nA,B,red,1\n', /unknown columns 'colour', 'Price' \(did you mean 'price'\?\)/);
    await refused('sku,name,attribute:Bad Code\nA,B,1\n', /attribute code/);
    await refused('sku,name,name\nA,B,C\n', /'name' appears twice/);
    await refused('sku,name,option:Size\nA,B,S\n', /variant columns need a 'variant_sku' column/);
    await refused('sku,name,price\n', /a header but no data rows/);
    await refused('Handle,Title\n\n', /a header but no data rows/);
    await refused('sku,name\nA,B\n', /larger than/, 10);
    await refused('"sku,name\nA,B\n', /header \(line 1\) cannot be read/);
  });

  it('checks a given format against the header', async () => {
    await assert.rejects(
      inspect('Handle,Title\nx,X\n', 1 << 20, 'ours'),
      (err: unknown) => err instanceof CsvFileError && /looks like the shopify format/.test(err.message),
    );
    await assert.rejects(
      inspect('sku,name\nx,X\n', 1 << 20, 'shopify'),
      (err: unknown) => err instanceof CsvFileError && /'Handle' column is missing/.test(err.message),
    );
  });

  it('readDrafts throws CsvFileError for a header it cannot read', async () => {
    await assert.rejects(read('nothing,known\n1,2\n'), CsvFileError);
    await assert.rejects(read(''), CsvFileError);
  });

  it('counts data rows: blank lines no, broken rows yes', async () => {
    assert.deepEqual(await inspect('\nsku,name\n\nA,B\n"broken\nC,D\n,,\n'), { format: 'ours', rows: 3, columns: ['sku', 'name'] });
  });
});

describe('formula escaping', () => {
  it('prefixes formula-looking cells with an apostrophe, leaves plain numbers and other text', () => {
    for (const [cell, escaped] of [
      ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
      ['+49 30 1234', "'+49 30 1234"],
      ['-- dash', "'-- dash"],
      ['@brand', "'@brand"],
      ['\tTab', "'\tTab"],
      ['\rCR', "'\rCR"],
      ["'=already", "''=already"],
      ['-5', '-5'],
      ['-0.25', '-0.25'],
      ['19.99', '19.99'],
      ['a=b', 'a=b'],
      ["it's", "it's"],
      ['', ''],
    ]) {
      assert.equal(escapeFormula(cell), escaped, JSON.stringify(cell));
    }
  });

  it('our export of such values imports back unchanged', async () => {
    const draft: ProductDraft = {
      line: 2,
      lines: [2],
      sku: '=SKU',
      fields: { name: '=HYPERLINK("http://evil.test","x")', description: '-- dash list', brand: '@brand', supplier: "'=quoted" },
      attributes: { phone: '+49 30 1234', delta: '-5' },
      variants: [],
    };
    const header = ['sku', 'name', 'description', 'brand', 'supplier', 'attribute:phone', 'attribute:delta'];
    const text = stringifyRows([header, ...draftRows('ours', draft, header)]);
    assert.match(text, /^'=SKU,"'=HYPERLINK/m);
    const { drafts, errors } = await read(text);
    assert.deepEqual(errors, []);
    assert.deepEqual(drafts, [draft]);
  });
});

describe('writing and round trips', () => {
  it('our format: sample → drafts → rows → the same drafts', async () => {
    const first = await read(sample('products.csv'));
    const header = first.header.columns;
    const text = stringifyRows([header, ...first.drafts.flatMap((d) => draftRows('ours', d, header))]);
    assert.deepEqual((await read(text)).drafts, first.drafts);
  });

  it('our format: a draft with every field, written under csvHeader, reads back equal', async () => {
    const selling = {
      barcode: 'UPC 0123',
      compare_at_price: '12.5',
      weight_unit: 'lb',
      inventory_policy: 'continue',
      inventory_tracked: false,
      taxable: true,
      requires_shipping: null,
    };
    const draft: ProductDraft = {
      line: 2,
      lines: [2, 4], // the description's line break puts the second row on line 4
      sku: 'FULL-1',
      skuGenerated: false,
      fields: {
        name: 'Full, "quoted" name',
        slug: 'full-1',
        description: '<p>Line one\nline two</p>',
        short_description: null,
        product_type: 'simple',
        price: '10.5',
        sale_price: '9.9900',
        cost_price: null,
        currency: 'EUR',
        status: 'out_of_stock',
        ean: '00012345600012',
        brand: 'Brand',
        supplier: null,
        publishing_channels: ['web', 'api'],
        product_condition: 'used',
        categories: [['A', 'B', 'C'], ['D']],
        tags: ['summer', 'Sale, 50%'],
        seo_title: 'SEO title',
        seo_description: null,
        storefront_type: 'Shirts',
        taxonomy_category: 'aa-1-13-8',
        gift_card: true,
        stock_quantity: 12,
        weight: '0.5',
        ...selling,
      },
      attributes: { colour: 'red|blue', size: null },
      stock: { main: 3, 'eu-1': -2 },
      images: ['https://x.test/1.jpg', 'https://x.test/2.jpg?v=1'],
      imageAlts: ['Front, left', null],
      translations: {
        de: { name: 'Voll', description: null, short_description: 'kurz' },
        'fr-CA': { name: null, description: 'desc', short_description: null },
      },
      variants: [
        {
          line: 2,
          sku: 'FULL-1-A',
          skuGenerated: true,
          fields: {
            name: 'Red / S',
            price: '1',
            sale_price: null,
            cost: '0.5',
            weight: '1.2345',
            stock_quantity: 0,
            stock_status: 'out_of_stock',
            is_enabled: false,
            image: null,
            ...selling,
            attributes: [
              { attribute_name: 'Colour', value: 'Red' },
              { attribute_name: 'Size', value: 'S' },
            ],
          },
        },
        {
          line: 4,
          sku: 'FULL-1-B',
          fields: {
            name: 'Custom',
            price: null,
            sale_price: '2',
            cost: null,
            weight: null,
            stock_quantity: 7,
            stock_status: 'in_stock',
            is_enabled: true,
            image: 'https://x.test/v.jpg',
            barcode: null,
            compare_at_price: null,
            weight_unit: null,
            inventory_policy: null,
            inventory_tracked: null,
            taxable: null,
            requires_shipping: null,
            attributes: [{ attribute_name: 'Size', value: 'M' }],
          },
        },
      ],
    };
    const header = csvHeader('ours', headerContextOf([draft]));
    assert.deepEqual(
      header.filter((h) => h.includes(':') || h.includes('@')),
      [
        'attribute:colour',
        'attribute:size',
        'stock:main',
        'stock:eu-1',
        'name@de',
        'description@de',
        'short_description@de',
        'name@fr-CA',
        'description@fr-CA',
        'short_description@fr-CA',
        'option:Colour',
        'option:Size',
      ],
    );
    const text = stringifyRows([header, ...draftRows('ours', draft, header)]);
    const { drafts, errors } = await read(text);
    assert.deepEqual(errors, []);
    assert.deepEqual(drafts, [draft]);
    assert.match(text, /,"summer\|Sale, 50%",/);
  });

  it('Shopify: sample → drafts → rows → the same drafts (lines aside)', async () => {
    const first = await read(sample('shopify-products.csv'));
    const header = csvHeader('shopify', { attributeCodes: [], warehouseCodes: [], locales: [], optionNames: [] });
    assert.deepEqual(header, [...SHOPIFY_COLUMNS]);
    const text = stringifyRows([header, ...first.drafts.flatMap((d) => draftRows('shopify', d, header))]);
    const again = await read(text);
    assert.deepEqual(again.errors, []);
    // The export writes every Google Shopping column of Shopify's export; the sample has six of them.
    const given = (d: ProductDraft) => ({ ...unlined(d), metafields: Object.fromEntries(Object.entries(d.metafields ?? {}).filter(([, v]) => v !== null)) });
    assert.deepEqual(again.drafts.map(given), first.drafts.map(given));
  });

  it('Shopify: the columns of its export; Default Title for a product without variants, the sale as compare-at, images with alt texts', () => {
    const header = csvHeader('shopify', {
      attributeCodes: [],
      warehouseCodes: [],
      locales: [],
      optionNames: [],
      metafields: [
        { metafield: 'custom.material', name: 'Material' },
        { metafield: 'mm-google-shopping.gender', name: 'Google Shopping / Gender' },
        { metafield: 'mm-google-shopping.adwords_grouping', name: 'Google Shopping / AdWords Grouping' },
        { metafield: 'shopify.color-pattern', name: 'Color' },
      ],
    });
    assert.equal(header.length, SHOPIFY_COLUMNS.length + 3);
    assert.deepEqual(header.slice(header.indexOf('Google Shopping / Custom Label 4') + 1), [
      'Google Shopping / AdWords Grouping',
      'Material (product.metafields.custom.material)',
      'Color (product.metafields.shopify.color-pattern)',
      'Variant Image',
      'Variant Weight Unit',
      'Variant Tax Code',
      'Cost per item',
      'Status',
    ]);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const simple: ProductDraft = {
      line: 2,
      lines: [2],
      sku: 'S-1',
      fields: {
        name: 'Simple',
        slug: 'simple',
        price: '20.0000',
        sale_price: '15.5',
        ean: '4006381333931',
        cost_price: '7',
        status: 'out_of_stock',
        categories: [['Home', 'Kitchen'], ['Gifts']],
        storefront_type: 'Kitchen',
        taxonomy_category: 'Home & Garden > Kitchen & Dining',
        tags: ['kitchen', 'gifts'],
        weight: '0.5',
        weight_unit: 'lb',
        stock_quantity: 3,
      },
      metafields: { 'custom.material': 'steel', 'mm-google-shopping.gender': 'unisex' },
      images: ['https://x.test/1.jpg', 'https://x.test/2.jpg'],
      imageAlts: [null, 'Side view'],
      variants: [],
    };
    const rows = draftRows('shopify', simple, header);
    assert.equal(rows.length, 2);
    const columns = [
      'Handle',
      'Title',
      'Option1 Name',
      'Option1 Value',
      'Variant SKU',
      'Variant Price',
      'Variant Compare At Price',
      'Variant Barcode',
      'Variant Grams',
      'Variant Weight Unit',
      'Variant Inventory Qty',
      'Cost per item',
      'Status',
      'Published',
      'Type',
      'Product Category',
      'Tags',
      'Image Src',
      'Image Position',
      'Material (product.metafields.custom.material)',
      'Google Shopping / Gender',
    ];
    assert.deepEqual(
      columns.map((c) => col(rows[0], c)),
      [
        'simple',
        'Simple',
        'Title',
        'Default Title',
        'S-1',
        '15.50',
        '20.00',
        '4006381333931', // no storefront barcode: the EAN
        '226.796185',
        'lb',
        '3',
        '7.00',
        'active',
        'TRUE',
        'Kitchen',
        'Home & Garden > Kitchen & Dining',
        'kitchen, gifts',
        'https://x.test/1.jpg',
        '1',
        'steel',
        'unisex',
      ],
    );
    assert.deepEqual(
      rows[1].filter((c) => c !== ''),
      ['simple', 'https://x.test/2.jpg', '2', 'Side view'],
      'an image-only row, with its alt text',
    );
    // A SKU the PIM made up is not written.
    assert.equal(col(draftRows('shopify', { ...simple, skuGenerated: true }, header)[0], 'Variant SKU'), '');
  });

  it('Shopify: variants with weights in their units, stock, a sale and every selling field read back equal', async () => {
    const selling = {
      barcode: null,
      inventory_tracked: true,
      inventory_policy: 'deny',
      taxable: true,
      requires_shipping: true,
    };
    const draft: ProductDraft = {
      line: 2,
      lines: [2, 3],
      sku: 'hoodie',
      skuGenerated: true,
      published: false,
      fields: {
        name: 'Hoodie',
        slug: 'hoodie',
        description: null,
        brand: null,
        storefront_type: null,
        taxonomy_category: null,
        tags: [],
        seo_title: null,
        seo_description: null,
        gift_card: false,
        status: 'draft',
      },
      metafields: Object.fromEntries(
        SHOPIFY_COLUMNS.flatMap((c) =>
          c.startsWith('Google Shopping / ') ? [[`mm-google-shopping.${c.slice(18).toLowerCase().replace(/ /g, '_')}`, null]] : [],
        ),
      ),
      images: [],
      imageAlts: [],
      variants: [
        {
          line: 2,
          sku: 'H-S',
          fields: {
            name: 'S / Grey',
            attributes: [
              { attribute_name: 'Size', value: 'S' },
              { attribute_name: 'Colour', value: 'Grey' },
            ],
            price: '40.00',
            sale_price: '30.00',
            compare_at_price: null,
            cost: '12.50',
            weight: '16',
            weight_unit: 'oz',
            ...selling,
            barcode: 'ISBN 978-3-16-148410-0',
            stock_quantity: -1,
            image: 'https://x.test/h.jpg',
          },
        },
        {
          line: 3,
          sku: 'hoodie-2',
          skuGenerated: true,
          fields: {
            name: 'M',
            attributes: [{ attribute_name: 'Size', value: 'M' }],
            price: '40.00',
            sale_price: null,
            compare_at_price: '35.00',
            cost: null,
            weight: null,
            weight_unit: 'kg',
            ...selling,
            inventory_tracked: false,
            inventory_policy: 'continue',
            taxable: false,
            requires_shipping: false,
            stock_quantity: 4,
            image: null,
          },
        },
      ],
    };
    const header = [...SHOPIFY_COLUMNS];
    const { drafts, errors } = await read(stringifyRows([header, ...draftRows('shopify', draft, header)]));
    assert.deepEqual(errors, []);
    assert.deepEqual(drafts, [draft]);
  });

  it('converts grams to a weight in its unit (4 decimals in the unit) and back without floating-point drift', () => {
    const cases: [grams: string, unit: string, weight: string][] = [
      ['226.796185', 'lb', '0.5'],
      ['226.796185', 'oz', '8'],
      ['283.4952313', 'oz', '10'],
      ['396.8933238', 'oz', '14'],
      ['145', 'g', '145'],
      ['0', 'kg', '0'],
      ['1', 'kg', '0.001'],
      ['1234.56', 'kg', '1.2346'],
      ['0.04', 'kg', '0'],
      ['0.05', 'kg', '0.0001'],
      ['999999', 'kg', '999.999'],
      ['1000', 'lb', '2.2046'],
      ['12.345678', 'g', '12.3457'],
    ];
    assert.deepEqual(
      cases.map(([grams, unit]) => gramsToWeight(grams, unit)),
      cases.map(([, , weight]) => weight),
    );
    assert.deepEqual(
      [
        ['0.5', 'lb'],
        ['8', 'oz'],
        ['10', 'oz'],
        ['14', 'oz'],
        ['0.22', 'kg'],
        ['1.2345', 'kg'],
        ['2.2046', 'lb'],
        ['145', 'g'],
      ].map(([weight, unit]) => weightToGrams(weight, unit)),
      ['226.796185', '226.796185', '283.4952313', '396.8933238', '220', '1234.5', '999.9897389', '145'],
    );
  });
});

describe("Shopify's own files (test/fixtures/shopify: the partners' samples and the product template)", () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/shopify/${name}`, import.meta.url), 'utf8');
  const files = ['apparel.csv', 'home-and-garden.csv', 'jewelery.csv', 'product_template.csv'];
  /** The differences docs/csv-formats.md lists that these files show (the others are not compared: columns not kept). */
  const expected: Record<string, string[]> = {
    // 28 g shown in ounces: the PIM keeps 0.9877 oz (4 decimals in the unit), which is 28.000824 g.
    'jewelery.csv': ["boho-earrings variant 1: Variant Grams: '28' ≠ '28.000824'"],
  };

  for (const name of files) {
    it(`${name}: every row is read, and written back it is the same file field by field`, async () => {
      const text = fixture(name);
      const { drafts, errors, header } = await read(text);
      assert.deepEqual(errors, []);
      assert.equal(header.format, 'shopify');
      const metafields = shopifyMetafieldColumns(header.columns).map((m) => ({ metafield: m.metafield, name: m.label }));
      const out = csvHeader('shopify', { attributeCodes: [], warehouseCodes: [], locales: [], optionNames: [], metafields });
      const written = stringifyRows([out, ...drafts.flatMap((d) => draftRows('shopify', d, out))]);
      assert.deepEqual(shopifyDifferences(text, written), expected[name] ?? []);
    });
  }

  it("the template's weights: grams with many decimals in their display unit, never refused", async () => {
    const { drafts } = await read(fixture('product_template.csv'));
    const [shirt, jeans, beanie] = drafts;
    assert.deepEqual(
      jeans.variants.map((v) => [v.sku, v.fields.weight, v.fields.weight_unit]),
      [
        ['PNT_DEN_285', '8', 'oz'],
        ['PNT_DEN_305', '10', 'oz'],
        ['PNT_DEN_405', '14', 'oz'],
      ],
    );
    assert.deepEqual([shirt.variants[0].fields.weight, shirt.variants[0].fields.weight_unit], ['145', 'g']);
    // A single variant: the product's own weight, quantity, barcode (a UPC, not an EAN) and prices.
    assert.deepEqual(
      [beanie.sku, beanie.fields.weight, beanie.fields.weight_unit, beanie.fields.stock_quantity, beanie.fields.barcode, beanie.fields.ean],
      ['HAT_GRY_275', '72', 'g', 50, '122327648356', undefined],
    );
    assert.deepEqual([beanie.fields.price, beanie.fields.sale_price, beanie.fields.compare_at_price], ['22.99', '17.99', null]);
    assert.deepEqual(
      [jeans.variants[0].fields.price, jeans.variants[0].fields.compare_at_price],
      ['95', '64.95'],
      'a compare-at price below the price, as given',
    );
    assert.deepEqual(
      drafts.map((d) => [d.fields.status, d.published]),
      [
        ['active', true],
        ['draft', false],
        ['archived', false],
      ],
    );
    // In pounds as well: Shopify's 0.5 lb.
    const lb = await read('Handle,Title,Variant SKU,Variant Grams,Variant Weight Unit\nbag,Bag,BAG-1,226.796185,lb\n');
    assert.deepEqual([lb.drafts[0].fields.weight, lb.drafts[0].fields.weight_unit], ['0.5', 'lb']);
    const back = draftRows('shopify', lb.drafts[0], [...SHOPIFY_COLUMNS]);
    assert.equal(back[0][SHOPIFY_COLUMNS.indexOf('Variant Grams')], '226.796185');
  });

  it('Published decides the status when there is no Status column', async () => {
    const { drafts } = await read('Handle,Title,Published\non,On,TRUE\noff,Off,false\nunsaid,Unsaid,\n');
    assert.deepEqual(
      drafts.map((d) => [d.fields.slug, d.fields.status, d.published]),
      [
        ['on', 'active', true],
        ['off', 'draft', false],
        ['unsaid', undefined, undefined],
      ],
    );
  });
});
