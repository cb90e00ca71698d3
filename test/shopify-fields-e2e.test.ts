// Every field of the ownership table (src/storefront/shopify/field-ownership.ts) whose test is this file, end to end on
// both databases: a PIM product made through the PIM API (with its selling fields, tags, SEO, taxonomy category and an
// image with alt text), pushed by the connector through the Shopify adapter into the built-in sandbox, and read back
// over the sandbox's Admin GraphQL. Then what the merchant owns: tags, media, product type and inventory policy set in
// the shop survive a push; and a dry run and a drift report compare the table's fields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIELD_OWNERSHIP } from '../src/storefront/shopify/field-ownership.js';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import type { Json } from './helpers/sandbox-graphql.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';
import { until } from './helpers/until.js';

const WAIT_MS = 20_000;

/** A variant of a pushed snapshot (the PIM API's Variant). */
const VARIANT = { price: '9.00', sale_price: null, cost: null, weight: null, stock_quantity: 1, stock_status: 'in_stock', is_enabled: true, image: null };

/** What a product reads back: every field the table says this file proves. */
const READ = /* GraphQL */ `
  query Fields($id: ID!) {
    product(id: $id) {
      title
      descriptionHtml
      vendor
      productType
      status
      tags
      seo {
        title
        description
      }
      isGiftCard
      category {
        id
        fullName
      }
      media(first: 10) {
        nodes {
          id
          alt
          status
          ... on MediaImage {
            image {
              url
            }
          }
        }
      }
      variants(first: 10) {
        nodes {
          id
          sku
          price
          compareAtPrice
          barcode
          inventoryPolicy
          taxable
          inventoryItem {
            tracked
            requiresShipping
            measurement {
              weight {
                value
                unit
              }
            }
          }
        }
      }
    }
  }
`;

for (const target of databaseTargets()) {
  describe(`every field the bridge writes, pushed and read back (${target.name})`, () => {
    let h: ConnectorHarness;
    let c: SandboxConnection;
    let images: TestServer;
    /** The table's keys each test below proved. */
    const proved = new Set<string>();

    before(async () => {
      // Distinct files (the PIM keeps one media per file of a product).
      const files: Record<string, Buffer> = {
        '/front.png': await makeImage('png', 6, 4),
        '/back.png': await makeImage('png', 8, 6),
        '/merchant-lifestyle.png': await makeImage('png', 10, 8),
      };
      images = await serveHttp((req, res) => {
        const file = files[req.url ?? ''];
        if (!file) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'image/png' }).end(file);
      });
      const port = await freePort();
      h = await connectorHarness(
        target,
        { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, MEDIA_ALLOW_PRIVATE_NETWORKS: 'true', SYNC_POLL_SECONDS: '0' },
        port,
        { drift: { pollMs: { first: 20, max: 100 } } },
      );
      await h.app.services.jobs.workers.start();
      c = await h.sandboxConnected(`fields-${process.pid}.myshopify.com`);
      // The images are this server's media and a local image server, on 127.0.0.1: the store opts in to fetch them.
      await h.allowPrivateMediaSources(c.domain);
    });
    after(async () => {
      await h?.app.services.jobs.workers.stop(5_000);
      await h?.close();
      await images?.close();
    });

    const pim = (method: string, url: string, payload?: unknown) => h.as(c.tenant)(method, url, payload);
    const created = async (url: string, payload: unknown) => {
      const res = await pim('POST', url, payload);
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data;
    };
    const push = async (id: number, dryRun = false) => {
      const res = await h.call('POST', `/api/products/push${dryRun ? '?dry_run=true' : ''}`, c.token, { id });
      assert.equal(res.statusCode, 200, res.body);
      const [r] = res.json().data.results;
      assert.equal(r.status, 'success', JSON.stringify(r));
      return r;
    };
    const gidOf = async (id: number) =>
      `gid://shopify/Product/${(await h.call('GET', `/api/products/mapping/${id}`, c.token)).json().data.storefront_product_id}`;
    const read = async (gid: string) => (await c.gql<Json>(READ, { id: gid })).product;
    /** The product's media once the sandbox processed them (a push answers before Shopify fetches an image). */
    const processed = async (gid: string, count: number) =>
      until(
        'media processed',
        async () => {
          const p = await read(gid);
          return p.media.nodes.length === count && p.media.nodes.every((m: Json) => m.status === 'READY') ? p : null;
        },
        WAIT_MS,
        50,
      );

    let simpleId: number;
    let simpleGid: string;
    let variedId: number;
    let variedGid: string;

    it('a product without variants: its fields, selling fields, category by full name and image alt text, read back', async () => {
      const brand = (await created('/api/brands', { name: `Fields Brand ${process.pid}` })).id;
      simpleId = (
        await created('/api/products', {
          name: 'Fields Tee',
          sku: `FIELDS-${process.pid}`,
          description: '<p>Soft <b>cotton</b></p>',
          brand_id: brand,
          price: '20.00',
          status: 'active',
          stock: 5,
          tags: ['eco', 'summer'],
          seo_title: 'The fields tee',
          seo_description: 'Every field, read back.',
          gift_card: false,
          taxonomy_category: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts',
          barcode: 'UPC 0123-X',
          compare_at_price: '30.00',
          weight: '250',
          weight_unit: 'g',
          inventory_policy: 'continue',
          inventory_tracked: false,
          taxable: false,
          requires_shipping: false,
        })
      ).id;
      await created(`/api/products/${simpleId}/media`, { file_url: `${images.url}/front.png`, alt_text: 'Front view' });
      const r = await push(simpleId);
      assert.equal(r.method, 'create');
      simpleGid = await gidOf(simpleId);
      const p = await processed(simpleGid, 1);

      assert.equal(p.title, 'Fields Tee');
      assert.equal(p.descriptionHtml, '<p>Soft <b>cotton</b></p>');
      assert.equal(p.vendor, `Fields Brand ${process.pid}`);
      // No storefront type and no category: the integration's setting has nothing, so the type is left out (never "").
      assert.equal(p.productType, '');
      assert.equal(p.status, 'ACTIVE');
      assert.deepEqual([...p.tags].sort(), ['eco', 'summer']);
      assert.deepEqual(p.seo, { title: 'The fields tee', description: 'Every field, read back.' });
      assert.equal(p.isGiftCard, false);
      assert.deepEqual(p.category, { id: 'gid://shopify/TaxonomyCategory/aa-1-13-8', fullName: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts' });
      assert.equal(p.media.nodes[0].alt, 'Front view');
      assert.match(p.media.nodes[0].image.url, /pim-[0-9a-f]{16}/, 'our file name, at the end of the CDN URL');
      const [v] = p.variants.nodes;
      assert.equal(v.sku, `FIELDS-${process.pid}`);
      assert.equal(v.price, '20.00');
      assert.equal(v.compareAtPrice, '30.00', 'the PIM compare-at price as given (no sale)');
      assert.equal(v.barcode, 'UPC 0123-X', 'a barcode that is no GTIN, as Shopify takes it');
      assert.equal(v.inventoryPolicy, 'CONTINUE');
      assert.equal(v.taxable, false);
      assert.equal(v.inventoryItem.tracked, false);
      assert.equal(v.inventoryItem.requiresShipping, false);
      assert.deepEqual(v.inventoryItem.measurement.weight, { value: 250, unit: 'GRAMS' });
      for (const key of [
        'title',
        'descriptionHtml',
        'vendor',
        'productType',
        'status',
        'tags',
        'seo.title',
        'seo.description',
        'giftCard',
        'category',
        'images',
        'sku',
        'price',
        'compareAtPrice',
        'barcode',
        'inventoryPolicy',
        'tracked',
        'taxable',
        'requiresShipping',
        'weight',
      ])
        proved.add(key);
    });

    it('a gift card with variants: per-variant selling fields and weight units, the category by id, create defaults where the PIM says nothing', async () => {
      const cat = (await created('/api/categories', { name: `Cards ${process.pid}` })).id;
      variedId = (
        await created('/api/products', {
          name: 'Fields Card',
          sku: `FCARD-${process.pid}`,
          price: '25.00',
          sale_price: '20.00',
          status: 'active',
          category_ids: [cat],
          gift_card: true,
          taxonomy_category: 'aa-1-13-8',
        })
      ).id;
      await created(`/api/products/${variedId}/variants`, {
        sku: `FCARD-${process.pid}-S`,
        name: 'S',
        price: '50.00',
        compare_at_price: '60.00',
        barcode: '9780306406157',
        weight: '1.5',
        weight_unit: 'lb',
        inventory_policy: 'deny',
        inventory_tracked: true,
        taxable: true,
        requires_shipping: true,
      });
      await created(`/api/products/${variedId}/variants`, { sku: `FCARD-${process.pid}-M`, name: 'M', weight: '12', weight_unit: 'oz' });
      await push(variedId);
      variedGid = await gidOf(variedId);
      const p = await read(variedGid);
      assert.equal(p.isGiftCard, true);
      assert.equal(p.category.id, 'gid://shopify/TaxonomyCategory/aa-1-13-8');
      // Its category is a collection, not a tag; the type is the first category's name (the integration's default).
      assert.deepEqual(p.tags, []);
      assert.equal(p.productType, `Cards ${process.pid}`);
      const [s, m] = p.variants.nodes;
      assert.deepEqual(
        [s.sku, s.price, s.compareAtPrice, s.barcode, s.inventoryPolicy, s.taxable, s.inventoryItem.tracked, s.inventoryItem.requiresShipping],
        [`FCARD-${process.pid}-S`, '50.00', '60.00', '9780306406157', 'DENY', true, true, true],
      );
      assert.deepEqual(s.inventoryItem.measurement.weight, { value: 1.5, unit: 'POUNDS' });
      // M: its own price is none, so the product's sale applies (price 20, compare-at the regular 25); no policy or
      // tracking in the PIM: a new variant gets DENY and tracked (the create defaults), Shopify's own defaults the rest.
      assert.deepEqual([m.price, m.compareAtPrice, m.barcode, m.inventoryPolicy, m.inventoryItem.tracked], ['20.00', '25.00', null, 'DENY', true]);
      assert.deepEqual([m.taxable, m.inventoryItem.requiresShipping], [true, true]);
      assert.deepEqual(m.inventoryItem.measurement.weight, { value: 12, unit: 'OUNCES' });
    });

    it("the merchant's tags, media, product type and inventory policy survive a push; a tag removed in the PIM goes", async () => {
      // The merchant adds a tag and a product type (the PIM has none), another app an image; on the card, CONTINUE on the
      // variant whose policy the PIM leaves open.
      const before = await read(simpleGid);
      const edit = await c.gql<Json>(
        `mutation ($id: ID!, $tags: [String!]) { productUpdate(product: {id: $id, tags: $tags, productType: "Merchant Type"}) { userErrors { message } } }`,
        { id: simpleGid, tags: [...before.tags, 'merchant-pick'] },
      );
      assert.deepEqual(edit.productUpdate.userErrors, []);
      const added = await c.gql<Json>(
        `mutation ($id: ID!, $files: [FileSetInput!]) { productSet(identifier: {id: $id}, input: {files: $files}) { userErrors { message } } }`,
        { id: simpleGid, files: [{ id: before.media.nodes[0].id }, { originalSource: `${images.url}/merchant-lifestyle.png`, alt: 'On the beach' }] },
      );
      assert.deepEqual(added.productSet.userErrors, []);
      const card = await read(variedGid);
      const m = card.variants.nodes[1];
      const policy = await c.gql<Json>(
        `mutation ($p: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $p, variants: $v) { userErrors { message } } }`,
        { p: variedGid, v: [{ id: m.id, inventoryPolicy: 'CONTINUE' }] },
      );
      assert.deepEqual(policy.productVariantsBulkUpdate.userErrors, []);

      // The PIM drops a tag, adds an image and changes the first image's alt text: tags and files are sent.
      assert.equal((await pim('PATCH', `/api/products/${simpleId}`, { tags: ['eco'] })).statusCode, 200);
      const [first] = (await pim('GET', `/api/products/${simpleId}/media`)).json().data.media;
      assert.equal((await pim('PATCH', `/api/products/${simpleId}/media/${first.id}`, { alt_text: 'Front, washed' })).statusCode, 200);
      await created(`/api/products/${simpleId}/media`, { file_url: `${images.url}/back.png`, alt_text: 'Back view' });
      await push(simpleId);
      await push(variedId);

      const p = await processed(simpleGid, 3);
      assert.deepEqual([...p.tags].sort(), ['eco', 'merchant-pick']);
      assert.equal(p.productType, 'Merchant Type', 'the PIM has no type: the merchant keeps theirs');
      assert.deepEqual(
        p.media.nodes.map((n: Json) => n.alt),
        ['Front, washed', 'Back view', 'On the beach'],
        "ours in the PIM's order with the PIM's alt texts, then the merchant's media, untouched",
      );
      assert.equal((await read(variedGid)).variants.nodes[1].inventoryPolicy, 'CONTINUE', 'the PIM sets no policy on M: the merchant keeps CONTINUE');
      // The PIM-owned policy of the simple product is the PIM's still.
      assert.equal(p.variants.nodes[0].inventoryPolicy, 'CONTINUE');
    });

    it("a dry run and a drift report compare the table's fields: taxable and a tag changed in the shop", async () => {
      const p = await read(simpleGid);
      const v = p.variants.nodes[0];
      const edit = await c.gql<Json>(
        `mutation ($p: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $p, variants: $v) { userErrors { message } } }`,
        { p: simpleGid, v: [{ id: v.id, taxable: true, inventoryItem: { requiresShipping: true } }] },
      );
      assert.deepEqual(edit.productVariantsBulkUpdate.userErrors, []);
      const tags = await c.gql<Json>(`mutation ($id: ID!) { productUpdate(product: {id: $id, tags: ["merchant-pick"]}) { userErrors { message } } }`, {
        id: simpleGid,
      });
      assert.deepEqual(tags.productUpdate.userErrors, []);

      const dry = await push(simpleId, true);
      const changes = new Map(dry.changes.map((ch: Json) => [ch.field, ch]));
      const sku = `FIELDS-${process.pid}`;
      assert.deepEqual(changes.get(`variants[${sku}].taxable`), { field: `variants[${sku}].taxable`, storefront: true, pim: false });
      assert.deepEqual(changes.get(`variants[${sku}].requiresShipping`), { field: `variants[${sku}].requiresShipping`, storefront: true, pim: false });
      assert.equal(changes.has('productType'), false, "the merchant's type is not a change: the push leaves it out");
      assert.equal(changes.has('images'), false, "the merchant's image is theirs: no change");

      const res = await h.call('POST', '/api/drift', c.token);
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data.id as string;
      const report = await until(
        `drift report ${id}`,
        async () => {
          const d = (await h.call('GET', `/api/drift/${id}?limit=100`, c.token)).json().data;
          return d.state === 'completed' || d.state === 'failed' ? d : null;
        },
        WAIT_MS,
        50,
      );
      assert.equal(report.state, 'completed', JSON.stringify(report));
      const item = report.items.find((i: Json) => i.pim_product_id === simpleId);
      assert.ok(item, JSON.stringify(report.items));
      const fields = new Map(item.fields.map((f: Json) => [f.field, f]));
      assert.deepEqual(fields.get(`variants[${sku}].taxable`), { field: `variants[${sku}].taxable`, storefront: true, written: false });
      assert.deepEqual(fields.get('tags'), { field: 'tags', storefront: ['merchant-pick'], written: ['eco'] });
      assert.equal(fields.has('images'), false, "the merchant's image is no drift");
      assert.equal(
        report.items.some((i: Json) => i.pim_product_id === variedId),
        false,
        "the card: its CONTINUE policy is the merchant's (not written), no drift",
      );
    });

    it('a SKU the PIM made up is never written to the shop; the variant keeps its id push after push', async () => {
      const snapshot = {
        id: 990_777,
        sku: 'gen-tee',
        name: 'Generated Tee',
        status: 'draft',
        price: '9.00',
        variants: [
          { ...VARIANT, id: 1, sku: 'gen-tee-1', name: 'S', position: 1, sku_generated: true, attributes: [{ attribute_name: 'Size', value: 'S' }] },
          { ...VARIANT, id: 2, sku: 'REAL-M', name: 'M', position: 2, attributes: [{ attribute_name: 'Size', value: 'M' }] },
        ],
      };
      const pushSnapshot = async (name: string) => {
        const res = await h.call('POST', '/api/products/push', c.token, { products: [{ ...snapshot, name }] });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().data.results[0].status, 'success', res.body);
      };
      await pushSnapshot('Generated Tee');
      const gid = await gidOf(snapshot.id);
      const first = (await read(gid)).variants.nodes;
      assert.deepEqual(
        first.map((v: Json) => v.sku ?? ''),
        ['', 'REAL-M'],
        'the made-up SKU is not in the shop',
      );
      await pushSnapshot('Generated Tee v2');
      const second = (await read(gid)).variants.nodes;
      assert.deepEqual(
        second.map((v: Json) => v.id),
        first.map((v: Json) => v.id),
        'both variants kept by id (not made again)',
      );
      const dry = await h.call('POST', '/api/products/push?dry_run=true', c.token, { products: [{ ...snapshot, name: 'Generated Tee v2' }] });
      assert.deepEqual(dry.json().data.results[0].changes, [], 'nothing to change: the variant is matched by its id');
    });

    it('proves every row of the ownership table that names this test', () => {
      const rows = FIELD_OWNERSHIP.filter((f) => f.test === 'shopify-fields-e2e').map((f) => f.key);
      assert.deepEqual([...rows].sort(), [...proved].sort());
    });
  });
}
