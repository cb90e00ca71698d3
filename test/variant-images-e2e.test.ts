// Variant images, end to end: a PIM variant's `image` becomes that variant's media in Shopify (ProductVariantSetInput.file,
// "Any file specified here must also be specified in the `files` input for the product", schema 2026-10): PIM → connector
// push → Shopify adapter → sandbox, read back through the sandbox's Admin GraphQL API (ProductVariant.media).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { mapProduct } from '../src/storefront/shopify/product-mapper.js';
import type { PimProductSnapshot } from '../src/storefront/port/pim-product.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { makeImage, serveHttp, type TestServer } from './helpers/servers.js';
import { until } from './helpers/until.js';

const variant = (i: number, size: string, image: string | null) => ({
  id: 770_000 + i,
  sku: `VIMG-${size}`,
  name: size,
  price: '12.00',
  sale_price: null,
  cost: null,
  weight: null,
  stock_quantity: 3,
  stock_status: 'in_stock',
  is_enabled: true,
  position: i,
  image,
  attributes: [{ attribute_name: 'Size', value: size }],
});

describe('variant images in the productSet input', () => {
  const placement = { warehouseLocations: {}, unsyncedWarehouses: [], variantStockLocation: null } as never;
  const product = {
    id: 1,
    sku: 'P',
    name: 'Tee',
    status: 'active',
    price: '1.00',
    images: ['https://img.test/a.png'],
    variants: [variant(0, 'S', 'https://img.test/a.png'), variant(1, 'M', 'https://img.test/m.png'), variant(2, 'L', null)],
  } as unknown as PimProductSnapshot;

  it("each variant's image is its `file` and is in the product's `files` once, by the same entry", () => {
    const { input, imageUrls, owned } = mapProduct(product, { productId: null, variantIds: {}, mediaIds: {} }, { locations: [], placement, current: null });
    assert.deepEqual(imageUrls, ['https://img.test/a.png', 'https://img.test/m.png']);
    assert.deepEqual(
      input.files?.map((f) => f.originalSource),
      imageUrls,
    );
    const [s, m, l] = input.variants;
    assert.deepEqual(s.file, input.files?.[0]);
    assert.deepEqual(m.file, input.files?.[1]);
    assert.equal(l.file, undefined);
    assert.deepEqual(owned.variantImages, { 'VIMG-S': 'https://img.test/a.png', 'VIMG-M': 'https://img.test/m.png' });
  });

  it('known images go by media id; unchanged images and attachments send neither `files` nor variant files', () => {
    const mediaIds = { 'https://img.test/a.png': 'gid://shopify/MediaImage/1', 'https://img.test/m.png': 'gid://shopify/MediaImage/2' };
    const known = { productId: 'gid://shopify/Product/9', variantIds: {}, mediaIds };
    const changed = mapProduct(product, known, { locations: [], placement, current: null });
    assert.deepEqual(changed.input.variants[1].file, { id: 'gid://shopify/MediaImage/2' });
    assert.deepEqual(changed.input.files, [{ id: 'gid://shopify/MediaImage/1' }, { id: 'gid://shopify/MediaImage/2' }]);
    const same = mapProduct(product, { ...known, owned: { variantImages: changed.owned.variantImages } }, { locations: [], placement, current: null });
    assert.equal(same.input.files, undefined);
    assert.ok(same.input.variants.every((v) => v.file === undefined));
  });
});

for (const target of databaseTargets()) {
  describe(`variant images, end to end (${target.name})`, () => {
    const domain = 'variant-images.myshopify.com';
    let h: ConnectorHarness;
    let token: string;
    let source: TestServer;
    let gql: <T = any>(query: string, variables?: Record<string, unknown>) => Promise<T>;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      // The images are this server's media and a local source, on 127.0.0.1: the store opts in to fetch them.
      await h.allowPrivateMediaSources(domain);
      const accessToken = made.json().access_token as string;
      gql = async (query, variables = {}) => {
        const res = await fetch(`${h.pimUrl}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': accessToken },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await res.json()) as { data?: any; errors?: unknown };
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data;
      };
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().data.api_token;
      const picture = await makeImage('png', 8, 6);
      source = await serveHttp((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(picture));
    });
    after(async () => {
      await source?.close();
      await h?.close();
    });

    it("each variant has its image as its media; the product's media are not duplicated; a second push uploads nothing", async () => {
      const id = 990_770;
      const front = `${source.url}/front.png`;
      const red = `${source.url}/red.png`;
      const blue = `${source.url}/blue.png`;
      const snapshot = {
        id,
        sku: 'VIMG',
        name: 'Variant pictured tee',
        status: 'draft',
        price: '12.00',
        currency: 'EUR',
        images: [front, red],
        // S shares a product image, M has its own, L has none.
        variants: [variant(0, 'S', red), variant(1, 'M', blue), variant(2, 'L', null)],
      };
      const push = async () => {
        const res = await h.call('POST', '/api/products/push', token, { products: [snapshot] });
        const result = res.json().data.results[0];
        assert.equal(result.status, 'success', res.body);
        return `gid://shopify/Product/${result.storefront_product_id}`;
      };
      const read = async (gid: string) =>
        (
          await gql(
            `query ($id: ID!) { product(id: $id) {
               media(first: 10) { nodes { id status ... on MediaImage { image { url } } } }
               variants(first: 5) { nodes { sku media(first: 5) { nodes { id status } } } } } }`,
            { id: gid },
          )
        ).product as {
          media: { nodes: { id: string; status: string; image: { url: string } | null }[] };
          variants: { nodes: { sku: string; media: { nodes: { id: string; status: string }[] } }[] };
        };

      const gid = await push();
      const first = await read(gid);
      assert.equal(first.media.nodes.length, 3, 'front, red, blue: one media each (red is not uploaded twice)');
      const bySku = Object.fromEntries(first.variants.nodes.map((v) => [v.sku, v.media.nodes.map((m) => m.id)]));
      const productMedia = first.media.nodes.map((m) => m.id);
      assert.deepEqual(bySku, { 'VIMG-S': [productMedia[1]], 'VIMG-M': [productMedia[2]], 'VIMG-L': [] });
      await until('the shop processed the images', async () => (await read(gid)).media.nodes.every((m) => m.status === 'READY'), 10_000, 50);
      const ready = await read(gid);
      assert.match(ready.media.nodes[2].image?.url ?? '', /pim-[0-9a-f]{16}\.png$/, 'the variant image has our stable file name');

      const hits = source.hits.length;
      assert.equal(await push(), gid);
      const second = await read(gid);
      assert.deepEqual(
        second.media.nodes.map((m) => m.id),
        productMedia,
        'same media ids, same count',
      );
      assert.deepEqual(Object.fromEntries(second.variants.nodes.map((v) => [v.sku, v.media.nodes.map((m) => m.id)])), bySku);
      assert.equal(source.hits.length, hits, 'nothing fetched again');

      // L gets M's image: the files are sent again by id, nothing uploaded, L attached to the same media.
      snapshot.variants[2].image = blue;
      await push();
      const third = await read(gid);
      assert.deepEqual(
        third.media.nodes.map((m) => m.id),
        productMedia,
      );
      assert.deepEqual(
        third.variants.nodes.find((v) => v.sku === 'VIMG-L')?.media.nodes.map((m) => m.id),
        [productMedia[2]],
      );
      assert.equal(source.hits.length, hits, 'nothing fetched again');
    });

    it("the sandbox refuses a variant file that is not in the product's files", async () => {
      const d = await gql(`mutation ($input: ProductSetInput!) { productSet(input: $input, synchronous: true) { product { id } userErrors { field code } } }`, {
        input: {
          title: 'Lonely variant file',
          productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
          variants: [{ optionValues: [{ optionName: 'Title', name: 'Default Title' }], file: { originalSource: `${source.url}/x.png` } }],
        },
      });
      assert.equal(d.productSet.product, null);
      assert.deepEqual(d.productSet.userErrors, [{ field: ['input', 'variants', '0', 'file'], code: 'INVALID_INPUT' }]);
    });
  });
}
