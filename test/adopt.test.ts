// Adopting a connected shop's existing catalogue (POST /api/adopt, GET /api/adopt/{id}) end to end, on both databases,
// with the app's own workers: the PIM of the same app over a real port, the storefront the built-in sandbox reached
// through the real Shopify adapter. A sandbox store is first filled the way a merchant would have it (productSet: some
// SKUs matching PIM products, one matching only by barcode, one only by handle, some unmatched); the adoption reads it
// with one bulk query, links the matches without writing to the shop, and reports both sides' unmatched products; a
// full sync afterwards updates the adopted products with the PIM's data and creates no duplicate. Also: import of the
// unmatched products (the PIM's catalogue import), products mapped already (left as they are) and our metafield (a
// product an earlier push made, its mapping lost), the refusals (token, scope, body, ids of other integrations, a
// second adoption or a full sync running), and the matching and draft rules on their own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { matchCatalogues, variantLinks, type PimCatalogueEntry } from '../src/connector/adopt/matching.js';
import { parseStartBody } from '../src/connector/adopt/adoption.service.js';
import { pimPrices, shopProductDraft } from '../src/connector/adopt/shop-drafts.js';
import { FullSyncRepository } from '../src/connector/sync/full-sync.repository.js';
import { withGtinCheckDigit } from '../src/lib/gtin.js';
import type { StorefrontCatalogueProduct } from '../src/storefront/port/catalogue.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { storefrontStateOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { assertError } from './helpers/push.js';
import { BulkPause } from './helpers/sandbox-graphql.js';
import { until } from './helpers/until.js';

type Json = any;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const PRODUCT_SET = /* GraphQL */ `
  mutation MerchantProduct($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) { product { id handle variants(first: 10) { nodes { id sku } } } userErrors { field message code } }
  }
`;
const STORE_PRODUCTS = /* GraphQL */ `
  query StoreProducts {
    productsCount { count }
    products(first: 50) { nodes { id handle title variants(first: 10) { nodes { id sku price compareAtPrice } } } }
  }
`;

/** A merchant's product: variants as [sku, price, compareAt?, barcode?, option value?]. */
function merchantProduct(handle: string, title: string, variants: [string, string, (string | null)?, (string | null)?, string?][], option = 'Size'): Json {
  const real = variants.some((v) => v[4]);
  return {
    title,
    handle,
    status: 'ACTIVE',
    vendor: 'Merchant Co',
    productType: 'Apparel',
    descriptionHtml: `<p>${title} from the shop</p>`,
    productOptions: real ? [{ name: option, values: variants.map((v) => ({ name: v[4] })) }] : [{ name: 'Title', values: [{ name: 'Default Title' }] }],
    variants: variants.map(([sku, price, compareAt, barcode, value]) => ({
      sku,
      price,
      ...(compareAt ? { compareAtPrice: compareAt } : {}),
      ...(barcode ? { barcode } : {}),
      optionValues: [real ? { optionName: option, name: value } : { optionName: 'Title', name: 'Default Title' }],
    })),
  };
}

/** Adoptions and full syncs against the sandbox take a while on a busy machine: waits of up to a minute, polled every 50 ms. */
const WAIT_MS = 60_000;
const EVERY_MS = 50;

for (const target of databaseTargets()) {
  describe(`adopting a shop's catalogue (${target.name})`, () => {
    let h: ConnectorHarness;
    const pause = new BulkPause();
    let port: number;
    let dataDir: string;
    let shops = 0;
    let photos: http.Server;
    let photoUrl: string;

    before(async () => {
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3060c0' } })
        .png()
        .toBuffer();
      photos = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
      photoUrl = `http://127.0.0.1:${(photos.address() as net.AddressInfo).port}/hat.png`;
      port = await freePort();
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-adopt-'));
      h = await connectorHarness(
        target,
        {
          SHOPIFY_SANDBOX: 'true',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          SYNC_POLL_SECONDS: '0',
          SYNC_RETRY_DELAY_SECONDS: '0',
          SYNC_RETRY_LIMIT: '2',
          MEDIA_ALLOW_PRIVATE_NETWORKS: 'true',
          AUTH_RATE_LIMIT: '1000000',
        },
        port,
        { adoption: { pollMs: { first: 20, max: 100 } }, fullSync: { pollMs: { first: 20, max: 100 } }, sandbox: { bulk: { pause: pause.check } } },
      );
      await h.app.services.jobs.workers.start();
    });
    after(async () => {
      await h?.app.services.jobs.workers.stop(5_000);
      await h?.close();
      await new Promise<void>((resolve) => photos?.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A sandbox store connected to a new PIM organization: its domain, token for GraphQL, connector token. */
    async function connectedSandbox(): Promise<{
      tenant: Tenant;
      domain: string;
      integrationId: number;
      token: string;
      gql: (q: string, v?: Json) => Promise<Json>;
    }> {
      const domain = `adopt-${process.pid}-${++shops}.myshopify.com`;
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      // The merchant's photos (photoUrl) and the PIM's media are on 127.0.0.1: the store opts in to fetch them.
      await h.allowPrivateMediaSources(domain);
      const storeToken = made.json().access_token as string;
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      const gql = async (query: string, variables: Json = {}) => {
        const r = await fetch(`http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': storeToken },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await r.json()) as Json;
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data;
      };
      return { tenant, domain, integrationId: res.json().data.integration_id, token: res.json().data.api_token, gql };
    }

    const seed = async (gql: (q: string, v?: Json) => Promise<Json>, input: Json) => {
      const made = (await gql(PRODUCT_SET, { input })).productSet;
      assert.deepEqual(made.userErrors, []);
      return {
        id: made.product.id as string,
        numericId: Number(made.product.id.split('/').pop()),
        variants: made.product.variants.nodes as { id: string; sku: string }[],
      };
    };
    const pimCreate = async (tenant: Tenant, body: Json, variants: Json[] = []) => {
      const pim = h.as(tenant);
      const res = await pim('POST', '/api/products', body);
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().data.id as number;
      for (const v of variants) {
        const r = await pim('POST', `/api/products/${id}/variants`, v);
        assert.equal(r.statusCode, 201, r.body);
      }
      return id;
    };
    const adopted = (token: string, id: string) =>
      until(
        `adoption ${id}`,
        async () => {
          const res = await h.call('GET', `/api/adopt/${id}`, token);
          assert.equal(res.statusCode, 200, res.body);
          const data = res.json().data;
          return data.state === 'completed' || data.state === 'failed' ? data : null;
        },
        WAIT_MS,
        EVERY_MS,
      );
    const adopt = async (token: string, body?: Json) => {
      const res = await h.call('POST', '/api/adopt', token, body);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const fullSync = async (token: string) => {
      const res = await h.call('POST', '/api/sync/full', token);
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data.id;
      return until(
        `full sync ${id}`,
        async () => {
          const data = (await h.call('GET', `/api/sync/full/${id}`, token)).json().data;
          return data.status === 'completed' || data.status === 'failed' ? data : null;
        },
        WAIT_MS,
        EVERY_MS,
      );
    };
    const mapping = async (token: string, pimId: number) => (await h.call('GET', `/api/products/mapping/${pimId}`, token)).json();

    it('links the shop’s products to the PIM’s by SKU, barcode and handle, writes nothing to the shop, and a full sync then updates them without a duplicate', async () => {
      const c = await connectedSandbox();
      const ean = withGtinCheckDigit('400638133393');
      // The PIM's catalogue.
      const shirt = await pimCreate(c.tenant, { name: 'Shirt', sku: 'TS-001', price: '19.99', status: 'active' });
      const jeans = await pimCreate(c.tenant, { name: 'Jeans', sku: 'JN', price: '49.00', status: 'active' }, [
        { sku: 'JN-30', name: 'Jeans 30', price: '49.00', attributes: [{ attribute_name: 'Size', value: '30' }] },
        { sku: 'JN-32', name: 'Jeans 32', price: '49.00', attributes: [{ attribute_name: 'Size', value: '32' }] },
      ]);
      const mug = await pimCreate(c.tenant, { name: 'Mug', sku: 'MUG-PIM', price: '8.00', ean, status: 'active' });
      const lamp = await pimCreate(c.tenant, { name: 'Lamp', sku: 'LAMP-PIM', slug: 'desk-lamp', price: '30.00', status: 'active' });
      const pimOnly = await pimCreate(c.tenant, { name: 'Only in the PIM', sku: 'PIM-ONLY', price: '1.00', status: 'draft' });
      // The merchant's shop, as it was before the bridge.
      const s1 = await seed(c.gql, merchantProduct('classic-tee', 'Classic Tee', [['TS-001', '25.00']]));
      const s2 = await seed(
        c.gql,
        merchantProduct('jeans', 'Jeans (shop)', [
          ['JN-30', '45.00', null, null, '30'],
          ['JN-32', '45.00', null, null, '32'],
        ]),
      );
      const s3 = await seed(c.gql, merchantProduct('coffee-mug', 'Coffee Mug', [['SHOP-MUG', '9.00', null, ean]]));
      const s4 = await seed(c.gql, merchantProduct('desk-lamp', 'Desk Lamp', [['SHOP-LAMP', '35.00']]));
      const s5 = await seed(c.gql, merchantProduct('wool-hat', 'Wool Hat', [['HAT-1', '15.00', '20.00']]));
      await seed(
        c.gql,
        merchantProduct(
          'scarf',
          'Scarf',
          [
            ['SC-R', '12.00', null, null, 'Red'],
            ['SC-B', '12.00', null, null, 'Blue'],
          ],
          'Color',
        ),
      );
      const before = await c.gql(STORE_PRODUCTS);

      const started = await adopt(c.token);
      assert.equal(started.status, 'success');
      assert.match(started.data.id, UUID);
      assert.equal(started.data.state, 'queued');
      assert.equal(started.data.import_unmatched, false);
      const done = await adopted(c.token, started.data.id);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.deepEqual(done.counts, {
        shop_products: 6,
        pim_products: 5,
        matched: 4,
        matched_by: { pim_id: 0, sku: 2, barcode: 1, handle: 1, imported: 0 },
        already_mapped: 0,
        unmatched_shop: 2,
        unmatched_pim: 1,
        imported: 0,
      });
      assert.deepEqual(done.progress, { phase: null, done: done.progress.total, total: done.progress.total, percent: 100 });
      assert.deepEqual(
        done.unmatched.shop.map((u: Json) => [u.handle, u.skus]),
        [
          ['wool-hat', ['HAT-1']],
          ['scarf', ['SC-R', 'SC-B']],
        ],
      );
      assert.equal(done.unmatched.shop[0].storefront_product_id, s5.numericId);
      assert.match(done.unmatched.shop[0].reason, /no PIM product/);
      assert.deepEqual(done.unmatched.pim, [{ pim_product_id: pimOnly, sku: 'PIM-ONLY', name: 'Only in the PIM', slug: 'only-in-the-pim' }]);
      assert.equal(done.error, null);

      // The mappings: pending, with the storefront product the next push updates.
      for (const [pimId, shopProduct] of [
        [shirt, s1],
        [jeans, s2],
        [mug, s3],
        [lamp, s4],
      ] as const) {
        const m = await mapping(c.token, pimId);
        assert.equal(m.status, 'success', JSON.stringify(m));
        assert.equal(m.data.storefront_product_id, shopProduct.numericId);
        assert.equal(m.data.storefront_variant_id, Number(shopProduct.variants[0].id.split('/').pop()));
        assert.equal(m.data.sync_status, 'pending');
        assert.equal(m.data.metadata.last_push_method, null);
      }
      assert.equal((await mapping(c.token, shirt)).data.metadata.storefront_handle, 'classic-tee');
      assertError(await h.call('GET', `/api/products/mapping/${pimOnly}`, c.token), 404, 'MAPPING_NOT_FOUND');
      // Nothing was written to the shop.
      assert.deepEqual(await c.gql(STORE_PRODUCTS), before);

      // A full sync: the adopted products are updated with the PIM's data (same products, same variant ids); the PIM
      // product without a shop product is created; the shop's own unmatched products stay. No duplicate.
      const sync = await fullSync(c.token);
      assert.equal(sync.status, 'completed', JSON.stringify(sync));
      assert.equal(sync.failed, 0, JSON.stringify(sync));
      const after = await c.gql(STORE_PRODUCTS);
      assert.equal(after.productsCount.count, 7);
      const byId = new Map<string, Json>(after.products.nodes.map((p: Json) => [p.id, p]));
      assert.equal(byId.get(s1.id)?.title, 'Shirt');
      assert.equal(byId.get(s1.id)?.handle, 'classic-tee', 'the handle of an adopted product is kept');
      assert.deepEqual(
        byId.get(s1.id)?.variants.nodes.map((v: Json) => [v.id, v.sku, v.price]),
        [[s1.variants[0].id, 'TS-001', '19.99']],
      );
      assert.deepEqual(
        byId.get(s2.id)?.variants.nodes.map((v: Json) => v.id),
        s2.variants.map((v) => v.id),
        'the variants are updated, not replaced',
      );
      assert.equal(byId.get(s2.id)?.title, 'Jeans');
      // The barcode match: the shop's variant takes the PIM's SKU (it is the same variant).
      assert.deepEqual(
        byId.get(s3.id)?.variants.nodes.map((v: Json) => [v.id, v.sku]),
        [[s3.variants[0].id, 'MUG-PIM']],
      );
      assert.equal(byId.get(s4.id)?.title, 'Lamp');
      const skus = after.products.nodes.flatMap((p: Json) => p.variants.nodes.map((v: Json) => v.sku)).sort();
      assert.deepEqual(skus, ['HAT-1', 'JN-30', 'JN-32', 'LAMP-PIM', 'MUG-PIM', 'PIM-ONLY', 'SC-B', 'SC-R', 'TS-001']);
      for (const pimId of [shirt, jeans, mug, lamp]) assert.equal((await mapping(c.token, pimId)).data.sync_status, 'synced');

      // Adopting again finds everything mapped already: nothing new, nothing duplicated.
      const again = await adopted(c.token, (await adopt(c.token)).data.id);
      assert.equal(again.state, 'completed');
      assert.deepEqual([again.counts.matched, again.counts.already_mapped, again.counts.unmatched_shop, again.counts.unmatched_pim], [0, 5, 2, 0]);
    });

    it('import_unmatched makes PIM products of the shop’s unmatched ones (the PIM’s catalogue import) and links them; a full sync adds nothing', async () => {
      const c = await connectedSandbox();
      const boots = await pimCreate(c.tenant, { name: 'Boots', sku: 'BOOT-1', price: '80.00', status: 'active' });
      const b1 = await seed(c.gql, merchantProduct('boots', 'Boots', [['BOOT-1', '85.00']]));
      const hat = await seed(c.gql, {
        ...merchantProduct('wool-hat', 'Wool Hat', [['HAT-9', '15.00', '20.00']]),
        files: [{ originalSource: photoUrl, contentType: 'IMAGE' }],
      });
      const HAT_MEDIA = `query HatMedia($id: ID!) { product(id: $id) { media(first: 5) { nodes { id status } } } }`;
      const hatMedia = await until(
        'the hat’s image processed',
        async () => {
          const nodes = (await c.gql(HAT_MEDIA, { id: hat.id })).product.media.nodes;
          return nodes[0]?.status === 'READY' ? nodes : null;
        },
        WAIT_MS,
        EVERY_MS,
      );
      const scarf = await seed(
        c.gql,
        merchantProduct(
          'scarf',
          'Scarf',
          [
            ['SC-R', '12.00', null, null, 'Red'],
            ['', '13.00', null, null, 'Blue'],
          ],
          'Color',
        ),
      );
      const started = await adopt(c.token, { import_unmatched: true });
      assert.equal(started.data.import_unmatched, true);
      const done = await adopted(c.token, started.data.id);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.deepEqual([done.counts.matched, done.counts.imported, done.counts.unmatched_shop, done.counts.matched_by.imported], [1, 2, 0, 2]);
      assert.deepEqual(done.unmatched.shop, []);
      assert.equal((await mapping(c.token, boots)).data.storefront_product_id, b1.numericId);

      // The PIM products, as the Shopify CSV import would make them.
      const list = (await h.as(c.tenant)('GET', '/api/products?include=variants&limit=100')).json().data.products as Json[];
      const hatPim = list.find((p) => p.sku === 'HAT-9');
      assert.ok(hatPim, JSON.stringify(list.map((p) => p.sku)));
      assert.deepEqual(
        [hatPim.name, hatPim.slug, hatPim.price, hatPim.sale_price, hatPim.status, hatPim.brand?.name, hatPim.variants.length],
        ['Wool Hat', 'wool-hat', '20.0000', '15.0000', 'active', 'Merchant Co', 0],
      );
      // The shop's image, downloaded by the import; the mapping knows it is the shop's media (not uploaded again).
      assert.equal(hatPim.images.length, 1);
      assert.deepEqual((await storefrontStateOf(h.database.db, c.integrationId, hatPim.id))?.mediaIds, { [hatPim.images[0]]: hatMedia[0].id });
      const scarfPim = list.find((p) => p.sku === 'scarf');
      assert.ok(scarfPim);
      assert.deepEqual(
        scarfPim.variants.map((v: Json) => [v.sku, v.price, v.attributes]),
        [
          ['SC-R', '12.0000', [{ attribute_name: 'Color', value: 'Red' }]],
          ['scarf-2', '13.0000', [{ attribute_name: 'Color', value: 'Blue' }]],
        ],
      );
      for (const [pimId, shopProduct] of [
        [hatPim.id, hat],
        [scarfPim.id, scarf],
      ] as const) {
        const m = await mapping(c.token, pimId);
        assert.equal(m.data.storefront_product_id, shopProduct.numericId);
      }

      const sync = await fullSync(c.token);
      assert.equal(sync.status, 'completed', JSON.stringify(sync));
      assert.equal(sync.failed, 0, JSON.stringify(sync));
      const after = await c.gql(STORE_PRODUCTS);
      assert.equal(after.productsCount.count, 3, 'no duplicate of the imported products');
      const scarfAfter = after.products.nodes.find((p: Json) => p.id === scarf.id);
      assert.deepEqual(
        scarfAfter.variants.nodes.map((v: Json) => [v.id, v.sku]),
        [
          [scarf.variants[0].id, 'SC-R'],
          [scarf.variants[1].id, 'scarf-2'],
        ],
      );
      const hatAfter = after.products.nodes.find((p: Json) => p.id === hat.id);
      assert.deepEqual(
        hatAfter.variants.nodes.map((v: Json) => [v.price, v.compareAtPrice]),
        [['15.00', '20.00']],
      );
      assert.deepEqual(
        (await c.gql(HAT_MEDIA, { id: hat.id })).product.media.nodes.map((n: Json) => n.id),
        [hatMedia[0].id],
        'the image is kept, not uploaded again',
      );
    });

    it('import_unmatched carries every field a Shopify product holds into the PIM, and the next full sync leaves the shop product as it was', async () => {
      const c = await connectedSandbox();
      const FIELDS = /* GraphQL */ `
        query Fields($id: ID!) {
          product(id: $id) {
            handle productType tags isGiftCard seo { title description } category { id }
            media(first: 5) { nodes { alt } }
            variants(first: 5) {
              nodes {
                sku barcode price compareAtPrice inventoryPolicy taxable
                inventoryItem { tracked requiresShipping measurement { weight { value unit } } }
              }
            }
          }
        }
      `;
      const lamp = await seed(c.gql, {
        ...merchantProduct('лампа-настольная', 'Desk lamp', [['LAMP-1', '40.00', '35.00', 'UPC 0-12345-67890']]),
        productType: 'Lighting',
        tags: ['desk', 'Gift ideas'],
        seo: { title: 'A desk lamp', description: 'Warm light for late work' },
        category: 'gid://shopify/TaxonomyCategory/aa-1-13-7',
        files: [{ originalSource: photoUrl, contentType: 'IMAGE', alt: 'The lamp, lit' }],
        variants: [
          {
            sku: 'LAMP-1',
            price: '40.00',
            compareAtPrice: '35.00',
            barcode: 'UPC 0-12345-67890',
            inventoryPolicy: 'CONTINUE',
            taxable: false,
            optionValues: [{ optionName: 'Title', name: 'Default Title' }],
            inventoryItem: { tracked: false, requiresShipping: false, measurement: { weight: { value: 0.5, unit: 'POUNDS' } } },
          },
        ],
      });
      await until(
        'the lamp’s image processed',
        async () => ((await c.gql(FIELDS, { id: lamp.id })).product.media.nodes.length === 1 ? true : null),
        WAIT_MS,
        EVERY_MS,
      );
      const before = (await c.gql(FIELDS, { id: lamp.id })).product;
      assert.equal(before.category?.id, 'gid://shopify/TaxonomyCategory/aa-1-13-7', 'the sandbox knows the category');

      const done = await adopted(c.token, (await adopt(c.token, { import_unmatched: true })).data.id);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.equal(done.counts.imported, 1, JSON.stringify(done.counts));

      const list = (await h.as(c.tenant)('GET', '/api/products?include=variants&limit=100')).json().data.products as Json[];
      const p = list.find((x) => x.sku === 'LAMP-1');
      assert.ok(p, JSON.stringify(list.map((x) => x.sku)));
      assert.deepEqual(
        {
          slug: p.slug,
          storefront_type: p.storefront_type,
          tags: p.tags,
          seo: [p.seo_title, p.seo_description],
          taxonomy_category: p.taxonomy_category,
          gift_card: p.gift_card,
          prices: [p.price, p.sale_price, p.compare_at_price],
          barcode: p.barcode,
          ean: p.ean,
          weight: [p.weight, p.weight_unit],
          selling: [p.inventory_policy, p.inventory_tracked, p.taxable, p.requires_shipping],
          categories: p.categories,
          alts: p.image_alts,
        },
        {
          slug: 'лампа-настольная',
          storefront_type: 'Lighting',
          tags: ['desk', 'Gift ideas'],
          seo: ['A desk lamp', 'Warm light for late work'],
          taxonomy_category: 'aa-1-13-7',
          gift_card: false,
          prices: ['40.0000', null, '35.0000'],
          barcode: 'UPC 0-12345-67890',
          ean: null,
          weight: ['0.5000', 'lb'],
          selling: ['continue', false, false, false],
          categories: [],
          alts: ['The lamp, lit'],
        },
      );

      const sync = await fullSync(c.token);
      assert.equal(sync.status, 'completed', JSON.stringify(sync));
      assert.equal(sync.failed, 0, JSON.stringify(sync));
      assert.deepEqual((await c.gql(FIELDS, { id: lamp.id })).product, before, 'the push wrote back what it read: nothing changed in the shop');
    });

    it('leaves products mapped already as they are, and finds a product an earlier push made by our metafield', async () => {
      const c = await connectedSandbox();
      const sofa = await pimCreate(c.tenant, { name: 'Sofa', sku: 'SOFA-1', price: '500.00', status: 'active' });
      const chair = await pimCreate(c.tenant, { name: 'Chair', sku: 'CHAIR-1', price: '50.00', status: 'active' });
      // Both pushed by the bridge: the store has them with our metafield.
      const pushed = await h.call('POST', '/api/products/push', c.token, { products: [{ id: sofa }, { id: chair }] });
      assert.equal(pushed.statusCode, 200, pushed.body);
      const chairShopId = pushed.json().data.results[1].storefront_product_id as number;
      // The merchant also has a sofa of the same SKU; the chair's mapping is lost (it is found by our metafield).
      const merchantSofa = await seed(c.gql, merchantProduct('old-sofa', 'Old Sofa', [['SOFA-1', '450.00']]));
      // (No route deletes a mapping: the row goes, as if it had never been written.)
      await h.database.db.execute(sql`delete from product_mappings where integration_id = ${c.integrationId} and pim_product_id = ${chair}`);
      const done = await adopted(c.token, (await adopt(c.token)).data.id);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.deepEqual(done.counts.matched_by, { pim_id: 1, sku: 0, barcode: 0, handle: 0, imported: 0 });
      assert.deepEqual([done.counts.matched, done.counts.already_mapped, done.counts.unmatched_shop, done.counts.unmatched_pim], [1, 1, 1, 0]);
      assert.equal(done.unmatched.shop[0].storefront_product_id, merchantSofa.numericId);
      assert.match(done.unmatched.shop[0].reason, new RegExp(`PIM product ${sofa} \\(by sku\\) is mapped to another storefront product`));
      assert.equal((await mapping(c.token, chair)).data.storefront_product_id, chairShopId);
      assert.equal((await mapping(c.token, sofa)).data.sync_status, 'synced', 'the sofa’s mapping is left as it was');
    });

    it("a push refused because a merchant's product holds the slug as its handle: adopting links that product, and the next push updates it", async () => {
      const c = await connectedSandbox();
      const theirs = await seed(c.gql, merchantProduct('oak-table', 'Oak Table (shop)', [['SHOP-TABLE', '300.00']]));
      const table = await pimCreate(c.tenant, { name: 'Oak Table', sku: 'PIM-TABLE', slug: 'oak-table', price: '320.00', status: 'active' });
      const refused = (await h.call('POST', '/api/products/push', c.token, { id: table })).json().data.results[0];
      assert.equal(refused.status, 'error', JSON.stringify(refused));
      assert.match(refused.validation_errors[0], /adopt it \(POST \/api\/adopt/);
      assert.equal((await mapping(c.token, table)).data.sync_status, 'error');

      const done = await adopted(c.token, (await adopt(c.token)).data.id);
      assert.equal(done.state, 'completed', JSON.stringify(done));
      assert.deepEqual([done.counts.matched, done.counts.matched_by.handle, done.counts.already_mapped], [1, 1, 0], 'a refused push is no mapping');
      const linked = (await mapping(c.token, table)).data;
      assert.deepEqual([linked.storefront_product_id, linked.sync_status, linked.sync_error], [theirs.numericId, 'pending', null]);

      const pushed = (await h.call('POST', '/api/products/push', c.token, { id: table })).json().data.results[0];
      assert.equal(pushed.status, 'success', JSON.stringify(pushed));
      assert.deepEqual([pushed.method, pushed.storefront_product_id, pushed.storefront_handle], ['update', theirs.numericId, 'oak-table']);
      assert.equal((await c.gql(STORE_PRODUCTS)).productsCount.count, 1, 'no second product');
    });

    it('refuses: no token, a narrower scope, a bad body, another integration’s or an unknown id; a second adoption, a full sync during one, or one during a full sync is 409 SYNC_IN_PROGRESS', async () => {
      const a = await connectedSandbox();
      const b = await connectedSandbox();
      await seed(a.gql, merchantProduct('one', 'One', [['ONE-1', '1.00']]));
      const read = (await h.call('POST', '/api/tokens', a.token, { scope: 'read' })).json().data.api_token;
      const write = (await h.call('POST', '/api/tokens', a.token, { scope: 'write' })).json().data.api_token;
      assertError(await h.call('POST', '/api/adopt', null), 401, 'AUTHENTICATION_FAILED');
      assertError(await h.call('POST', '/api/adopt', read), 403, 'INSUFFICIENT_SCOPE');
      assertError(await h.call('POST', '/api/adopt', write), 403, 'INSUFFICIENT_SCOPE');
      assertError(await h.call('POST', '/api/adopt', a.token, { import_unmatched: 'yes' }), 400, 'VALIDATION_FAILED');
      assertError(await h.call('POST', '/api/adopt', a.token, { import_unmatched: true, dry_run: true }), 400, 'VALIDATION_FAILED');
      assertError(await h.call('POST', '/api/adopt', a.token, [true]), 400, 'VALIDATION_FAILED');
      // JSON null is a body too, and not the object the document declares (found by the fuzz test, seed 1557946640).
      const nullBody = await h.app.inject({
        method: 'POST',
        url: '/api/adopt',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        payload: 'null',
      });
      assertError(nullBody, 400, 'VALIDATION_FAILED');
      assertError(await h.call('POST', '/api/adopt', a.token, '{"import_unmatched": tru'), 400, 'INVALID_JSON');

      // Hold the shop's bulk query so the adoption stays running while the next POSTs come.
      let open!: () => void;
      pause.gate = new Promise<void>((resolve) => (open = resolve));
      let id: string;
      try {
        const res = await h.call('POST', '/api/adopt', a.token, {});
        assert.equal(res.statusCode, 200, res.body);
        id = res.json().data.id;
        await until(
          'the adoption reading the shop',
          async () => {
            const data = (await h.call('GET', `/api/adopt/${id}`, read)).json().data;
            return data.state === 'running' && data.progress.phase === 'reading_shop' ? data : null;
          },
          WAIT_MS,
          EVERY_MS,
        );
        const again = await h.call('POST', '/api/adopt', a.token);
        assertError(again, 409, 'SYNC_IN_PROGRESS');
        assert.equal(again.json().data.id, id);
        assert.match(again.json().message, new RegExp(id));
        // Nor does a full sync start meanwhile: it would create in the shop what the adoption is about to link.
        const sync = await h.call('POST', '/api/sync/full', a.token);
        assertError(sync, 409, 'SYNC_IN_PROGRESS');
        assert.match(sync.json().message, new RegExp(`adoption of this integration is open \\(${id}\\)`));
        // Another integration's adoption runs on its own.
        assert.equal((await h.call('POST', '/api/adopt', b.token)).statusCode, 200);
      } finally {
        open();
        pause.gate = null;
      }
      assertError(await h.call('GET', `/api/adopt/${id}`, b.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', '/api/adopt/abc', a.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', `/api/adopt/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, a.token), 404, 'NOT_FOUND');
      assertError(await h.call('GET', `/api/adopt/${id}`, null), 401, 'AUTHENTICATION_FAILED');
      const done = await adopted(read, id);
      assert.equal(done.state, 'completed');
      assert.deepEqual([done.counts.shop_products, done.counts.unmatched_shop], [1, 1]);

      // While a full sync of the integration is open, no adoption starts (it would link what the sync is creating).
      // (A running one, made by its repository without a sync.full job: nothing runs it meanwhile.)
      const fullSyncs = new FullSyncRepository(h.database.db);
      const running = crypto.randomUUID();
      await fullSyncs.create(running, a.integrationId, new Date());
      assert.ok(await fullSyncs.markRunning(running, new Date()));
      const blocked = await h.call('POST', '/api/adopt', a.token);
      assertError(blocked, 409, 'SYNC_IN_PROGRESS');
      assert.match(blocked.json().message, /full sync/);
      await fullSyncs.fail(running, 'ended by the test', new Date());
    });
  });
}

describe('adoption rules (pure)', () => {
  const variant = (sku: string | null, extra: Partial<StorefrontCatalogueProduct['variants'][number]> = {}) => ({
    id: `gid://shopify/ProductVariant/${Math.floor(Math.random() * 1e9)}`,
    sku,
    barcode: null,
    price: '10.00',
    compareAtPrice: null,
    inventoryQuantity: 3,
    options: [{ name: 'Title', value: 'Default Title' }],
    inventoryItemId: null,
    ...extra,
  });
  let n = 0;
  const shop = (
    handle: string,
    variants: StorefrontCatalogueProduct['variants'],
    extra: Partial<StorefrontCatalogueProduct> = {},
  ): StorefrontCatalogueProduct => {
    const id = ++n;
    return {
      id: `gid://shopify/Product/${id}`,
      numericId: id,
      handle,
      title: handle,
      descriptionHtml: '',
      vendor: '',
      productType: '',
      status: 'ACTIVE',
      tags: [],
      pimProductId: null,
      variants,
      images: [],
      ...extra,
    };
  };
  const pim = (id: number, sku: string, extra: Partial<PimCatalogueEntry> = {}): PimCatalogueEntry => ({
    id,
    sku,
    name: sku,
    slug: sku.toLowerCase(),
    ean: null,
    status: 'active',
    variants: [],
    ...extra,
  });

  it('a PIM product links to one shop product, the first; a SKU match wins over a handle match; archived ones only by our metafield', () => {
    const a = shop('a', [variant('X')]);
    const b = shop('b', [variant('X')]);
    const c = shop('y', [variant('C-9')]); // handle "y" = slug of PIM 2, but its SKU is PIM 3's
    const d = shop('d', [variant('ARCH')]);
    const e = shop('e', [variant('NONE')], { pimProductId: 4 });
    const result = matchCatalogues(
      [a, b, c, d, e],
      [pim(1, 'X'), pim(2, 'Y'), pim(3, 'C-9', { slug: 'zz' }), pim(4, 'ARCH', { status: 'archived' })],
      [],
      'adoption',
    );
    assert.deepEqual(
      result.matches.map((m) => [m.shop.handle, m.pim.id, m.rule]),
      [
        ['a', 1, 'sku'],
        ['y', 3, 'sku'],
        ['e', 4, 'pim_id'],
      ],
    );
    assert.deepEqual(
      result.unmatchedShop.map((u) => u.shop.handle),
      ['b', 'd'],
    );
    assert.match(result.unmatchedShop[0].reason, /PIM product 1 \(by sku\) is linked to storefront product \d+, which matched it first/);
    assert.deepEqual(
      result.unmatchedPim.map((p) => p.id),
      [2],
    );
  });

  it('barcodes are one GTIN whatever the spelling (UPC-A = EAN-13 with a leading 0); SKUs vote; links of this adoption count again', () => {
    const upc = withGtinCheckDigit('03600029145');
    const s = shop('s', [variant('Q1', { barcode: upc })]);
    const t = shop('t', [variant('A'), variant('B'), variant('C')]);
    const r = matchCatalogues(
      [s, t],
      [
        pim(1, 'P1', { ean: `0${upc}` }),
        pim(2, 'P2', { variants: [{ sku: 'A', attributes: [] }] }),
        pim(3, 'P3', {
          variants: [
            { sku: 'B', attributes: [] },
            { sku: 'C', attributes: [] },
          ],
        }),
      ],
      [{ pimProductId: 9, storefrontProductId: 999, adoptionId: 'other' }],
      'me',
    );
    assert.deepEqual(
      r.matches.map((m) => [m.shop.handle, m.pim.id, m.rule]),
      [
        ['s', 1, 'barcode'],
        ['t', 3, 'sku'],
      ],
    );
    const again = matchCatalogues(
      [s, t],
      [pim(1, 'P1', { ean: `0${upc}` }), pim(3, 'P3')],
      [{ pimProductId: 1, storefrontProductId: s.numericId, adoptionId: 'me' }],
      'me',
    );
    assert.deepEqual([again.matches.map((m) => m.pim.id), again.alreadyMapped], [[1], 0]);
    const other = matchCatalogues([s], [pim(1, 'P1', { ean: `0${upc}` })], [{ pimProductId: 1, storefrontProductId: s.numericId, adoptionId: null }], 'me');
    assert.deepEqual([other.matches.length, other.alreadyMapped, other.unmatchedPim.length], [0, 1, 0]);
  });

  it('variants are linked by SKU, then by option values (without case); a product without variants takes the shop’s only one', () => {
    const v1 = variant('OLD-S', { options: [{ name: 'Size', value: 's' }], inventoryItemId: 'gid://shopify/InventoryItem/1' });
    const v2 = variant('M-1', { options: [{ name: 'Size', value: 'M' }] });
    const links = variantLinks(
      shop('x', [v1, v2]),
      pim(1, 'X', {
        variants: [
          { sku: 'M-1', attributes: [{ attribute_name: 'Size', value: 'M' }] },
          { sku: 'NEW-S', attributes: [{ attribute_name: 'size', value: 'S' }] },
        ],
      }),
    );
    assert.deepEqual(links, { variantIds: { 'M-1': v2.id, 'NEW-S': v1.id }, inventoryItemIds: { 'NEW-S': 'gid://shopify/InventoryItem/1' } });
    const single = variant('SHOP-SKU');
    assert.deepEqual(variantLinks(shop('y', [single]), pim(2, 'PIM-SKU')).variantIds, { 'PIM-SKU': single.id });
  });

  it('drafts follow the Shopify CSV import: one plain variant is the product; several keep theirs; a compare-at price above the price is a sale; Type is the storefront type, not a category', () => {
    assert.deepEqual(pimPrices('15.00', '20.00'), { price: '20.00', sale_price: '15.00' });
    assert.deepEqual(pimPrices('15.00', '10.00'), { price: '15.00', sale_price: null });
    const ean = withGtinCheckDigit('400638133393');
    const simple = shopProductDraft(
      shop('hat', [variant('HAT', { barcode: ean, price: '15.00', compareAtPrice: '20.00' })], {
        title: 'Hat',
        vendor: 'V',
        productType: 'Headwear',
        status: 'DRAFT',
        descriptionHtml: '<p>x</p>',
        images: [
          { mediaId: 'm', url: 'https://cdn.example/hat.png' },
          { mediaId: 'n', url: null },
        ],
      }),
      2,
      'USD',
    );
    assert.deepEqual(simple, {
      line: 2,
      lines: [2],
      sku: 'HAT',
      fields: {
        name: 'Hat',
        slug: 'hat',
        description: '<p>x</p>',
        status: 'draft',
        brand: 'V',
        storefront_type: 'Headwear',
        tags: [],
        currency: 'USD',
        price: '20.00',
        sale_price: '15.00',
        barcode: ean,
        compare_at_price: null,
        weight: null,
        weight_unit: null,
        stock_quantity: 3,
        ean,
      },
      images: ['https://cdn.example/hat.png'],
      imageAlts: [null],
      variants: [],
    });
    const multi = shopProductDraft(
      shop('tee', [
        variant(null, { options: [{ name: 'Size', value: 'S' }], price: '9.00' }),
        variant('T-M', { options: [{ name: 'Size', value: 'M' }], price: '8.00', inventoryQuantity: -2 }),
      ]),
      5,
      null,
    );
    assert.equal(multi.sku, 'tee');
    assert.deepEqual(multi.lines, [5, 6]);
    assert.deepEqual([multi.fields.price, multi.fields.sale_price], ['8.00', null]);
    assert.deepEqual(
      multi.variants.map((v) => [v.sku, v.fields.name, v.fields.price, v.fields.stock_quantity, v.fields.attributes]),
      [
        ['tee-1', 'S', '9.00', 3, [{ attribute_name: 'Size', value: 'S' }]],
        ['T-M', 'M', '8.00', 0, [{ attribute_name: 'Size', value: 'M' }]],
      ],
    );
  });

  it('the body: none, {} or {import_unmatched: boolean}', () => {
    assert.deepEqual(parseStartBody(undefined), { import_unmatched: false });
    assert.deepEqual(parseStartBody({}), { import_unmatched: false });
    assert.deepEqual(parseStartBody({ import_unmatched: true }), { import_unmatched: true });
    assert.throws(() => parseStartBody({ import_unmatched: 1 }), /must be a boolean/);
    assert.throws(() => parseStartBody({ x: 1 }), /'x' is not allowed/);
    assert.throws(() => parseStartBody('x'), /JSON object/);
  });
});
