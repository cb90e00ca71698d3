// A real store's rules, end to end: PIM → connector push → Shopify adapter → sandbox, read back through the sandbox's
// Admin GraphQL API. Sales channels (ACTIVE publishes nothing; channels map to publications), stock that respects
// sales made in the shop, fields the merchant owns, currency, long titles, disabled variants and inventory items, an
// image the shop cannot fetch, a product past 250 variants.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { storefrontStateOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { sku } from './helpers/pim.js';
import { makeImage, serveHttp } from './helpers/servers.js';
import { until } from './helpers/until.js';

for (const target of databaseTargets()) {
  describe(`a real store's rules, end to end (${target.name})`, () => {
    const domain = 'rules-e2e.myshopify.com';
    let h: ConnectorHarness;
    let tenant: Tenant;
    let token: string;
    let integrationId: number;
    let gql: <T = any>(query: string, variables?: Record<string, unknown>) => Promise<T>;
    let shopId: number;

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      // The image sources of these tests are local servers on 127.0.0.1: the store opts in to fetch them.
      await h.allowPrivateMediaSources(domain);
      shopId = made.json().id;
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
      integrationId = res.json().data.integration_id;
    });
    after(async () => h.close());

    const pim = (method: string, url: string, payload?: unknown) =>
      h.app.inject({ method: method as never, url, payload: payload as never, headers: { 'x-api-key': tenant.apiKey } });
    const newProduct = async (fields: Record<string, unknown>) => {
      const res = await pim('POST', '/api/products', {
        name: 'Rules Tee',
        sku: sku('RULE'),
        price: '20.00',
        currency: 'EUR',
        status: 'active',
        stock: 10,
        ...fields,
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as number;
    };
    const push = async (id: number) => {
      const res = await h.call('POST', '/api/products/push', token, { id });
      return { status: res.statusCode, result: res.json().data.results[0] };
    };
    const storefrontId = async (id: number) =>
      `gid://shopify/Product/${(await h.call('GET', `/api/products/mapping/${id}`, token)).json().data.storefront_product_id}`;
    const publications = async () =>
      (await gql(`{ publications(first: 20) { nodes { id catalog { title } } } }`)).publications.nodes as { id: string; catalog: { title: string } }[];
    const publishedOn = async (productGid: string) => {
      const out: string[] = [];
      for (const p of await publications()) {
        const d = await gql(`query ($id: ID!, $p: ID!) { product(id: $id) { publishedOnPublication(publicationId: $p) } }`, { id: productGid, p: p.id });
        if (d.product.publishedOnPublication) out.push(p.catalog.title);
      }
      return out.sort();
    };
    const variantOf = async (productGid: string) =>
      (
        await gql(
          `query ($id: ID!) { product(id: $id) { title seo { title } variants(first: 5) { nodes { id sku price compareAtPrice inventoryPolicy inventoryQuantity
             inventoryItem { id tracked unitCost { amount } measurement { weight { value unit } } inventoryLevels(first: 5) { nodes { location { id name } quantities(names: ["available"]) { quantity } } } } } } } }`,
          { id: productGid },
        )
      ).product;

    it("an active product is published on exactly its channels' publications; leaving a channel or going draft unpublishes it", async () => {
      const id = await newProduct({ publishing_channels: ['web', 'mobile', 'email'] });
      assert.equal((await push(id)).result.status, 'success');
      const gid = await storefrontId(id);
      assert.deepEqual(await publishedOn(gid), ['Online Store', 'Shop']);

      assert.equal((await pim('PATCH', `/api/products/${id}`, { publishing_channels: ['web'] })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      assert.deepEqual(await publishedOn(gid), ['Online Store']);

      assert.equal((await pim('PATCH', `/api/products/${id}`, { status: 'draft' })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      assert.deepEqual(await publishedOn(gid), []);
    });

    it('GET/PUT /api/integration/channels: remaps a channel, refuses an unknown publication naming it, and saves nothing then', async () => {
      const before = (await h.call('GET', '/api/integration/channels', token)).json().data;
      const web = before.channels.find((c: any) => c.channel === 'web');
      assert.deepEqual(
        web.publications.map((p: any) => p.name),
        ['Online Store'],
      );
      assert.equal(web.source, 'default');
      const pos = before.available_publications.find((p: any) => p.name === 'Point of Sale');
      assert.ok(pos, JSON.stringify(before.available_publications));

      const bad = await h.call('PUT', '/api/integration/channels', token, { channels: { mobile: ['gid://shopify/Publication/999999'] } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().code, 'VALIDATION_FAILED');
      assert.match(bad.json().message, /gid:\/\/shopify\/Publication\/999999/);
      const badChannel = await h.call('PUT', '/api/integration/channels', token, { channels: { fax: [] } });
      assert.equal(badChannel.statusCode, 400, badChannel.body);
      assert.match(badChannel.json().message, /fax/);

      const ok = await h.call('PUT', '/api/integration/channels', token, { channels: { mobile: [pos.id] } });
      assert.equal(ok.statusCode, 200, ok.body);
      const status = (await h.call('GET', '/api/status', token)).json().data;
      assert.deepEqual(status.channel_mapping.mobile, { source: 'custom', publications: [pos.id] });
      assert.deepEqual(status.channel_mapping.web, { source: 'default', publications: ['Online Store'] });
      const id = await newProduct({ publishing_channels: ['mobile'] });
      assert.equal((await push(id)).result.status, 'success');
      assert.deepEqual(await publishedOn(await storefrontId(id)), ['Point of Sale']);
      // Back to the default for the other tests.
      assert.equal((await h.call('PUT', '/api/integration/channels', token, { channels: { mobile: null } })).statusCode, 200);
    });

    it("a sale made in the shop survives the next push: the shop moves by the PIM's change (old − 3 + 10)", async () => {
      const id = await newProduct({ stock: 10, publishing_channels: [] });
      assert.equal((await push(id)).result.status, 'success');
      const gid = await storefrontId(id);
      const v = (await variantOf(gid)).variants.nodes[0];
      const level = v.inventoryItem.inventoryLevels.nodes[0];
      assert.equal(level.quantities[0].quantity, 10);

      // Three sold in the shop, as an order would (an adjustment of available).
      const sold = await gql(
        `mutation ($input: InventoryAdjustQuantitiesInput!) { inventoryAdjustQuantities(input: $input) @idempotent(key: "sale-${id}") { userErrors { field message code } } }`,
        {
          input: {
            name: 'available',
            reason: 'correction',
            changes: [{ inventoryItemId: v.inventoryItem.id, locationId: level.location.id, delta: -3, changeFromQuantity: null }],
          },
        },
      );
      assert.deepEqual(sold.inventoryAdjustQuantities.userErrors, []);

      // The PIM has not changed: a push leaves the shop's 7 alone.
      assert.equal((await pim('PATCH', `/api/products/${id}`, { name: 'Rules Tee renamed' })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      assert.equal((await variantOf(gid)).variants.nodes[0].inventoryQuantity, 7);

      // The PIM receives 10 more: 10 − 3 + 10 = 17.
      assert.equal((await pim('PATCH', `/api/products/${id}`, { stock: 20 })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      assert.equal((await variantOf(gid)).variants.nodes[0].inventoryQuantity, 17);
    });

    it('GET/PUT /api/integration/locations: a second location by name; an unknown location is refused naming it', async () => {
      const patched = await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { locations: ['Berlin'] });
      assert.equal(patched.statusCode, 200, patched.body);
      const view = (await h.call('GET', '/api/integration/locations', token)).json().data;
      const berlin = view.available_locations.find((l: any) => l.name === 'Berlin');
      assert.ok(berlin, JSON.stringify(view));
      const bad = await h.call('PUT', '/api/integration/locations', token, { warehouses: { MAIN: 'gid://shopify/Location/424242' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().code, 'VALIDATION_FAILED');
      assert.match(bad.json().message, /Location\/424242/);
      const ok = await h.call('PUT', '/api/integration/locations', token, { default_location: berlin.id });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().data.default_location.name, 'Berlin');
    });

    it('a compare-at price the merchant set in Shopify survives; one the PIM set is cleared when its sale ends', async () => {
      const id = await newProduct({ price: '30.00' });
      assert.equal((await push(id)).result.status, 'success');
      const gid = await storefrontId(id);
      const v = (await variantOf(gid)).variants.nodes[0];
      const edit = await gql(
        `mutation ($p: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $p, variants: $v) { userErrors { field message code } } }`,
        { p: gid, v: [{ id: v.id, compareAtPrice: '45.00' }] },
      );
      assert.deepEqual(edit.productVariantsBulkUpdate.userErrors, []);
      assert.equal((await push(id)).result.status, 'success');
      assert.equal(Number((await variantOf(gid)).variants.nodes[0].compareAtPrice), 45);

      assert.equal((await pim('PATCH', `/api/products/${id}`, { sale_price: '25.00' })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      let now = (await variantOf(gid)).variants.nodes[0];
      assert.deepEqual([Number(now.price), Number(now.compareAtPrice)], [25, 30]);

      assert.equal((await pim('PATCH', `/api/products/${id}`, { sale_price: null })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      now = (await variantOf(gid)).variants.nodes[0];
      assert.deepEqual([Number(now.price), now.compareAtPrice], [30, null]);
    });

    it("a price in another currency than the shop's is a validation error naming both, unless prices are converted elsewhere", async () => {
      const id = await newProduct({ currency: 'USD' });
      const refused = await push(id);
      assert.equal(refused.result.status, 'error');
      assert.ok(
        refused.result.validation_errors.some((e: string) => /USD/.test(e) && /EUR/.test(e)),
        JSON.stringify(refused.result),
      );
      assert.equal((await h.call('PUT', '/api/integration/pricing', token, { prices_converted_elsewhere: true })).statusCode, 200);
      assert.equal((await push(id)).result.status, 'success');
      assert.equal((await h.call('PUT', '/api/integration/pricing', token, { prices_converted_elsewhere: false })).statusCode, 200);
    });

    it('a name longer than 70 characters syncs as the title; no SEO title is made from it', async () => {
      const name = `A very long product name that goes well past the seventy character hint ${'x'.repeat(40)}`;
      const id = await newProduct({ name });
      assert.equal((await push(id)).result.status, 'success');
      const p = await variantOf(await storefrontId(id));
      assert.equal(p.title, name);
      assert.equal(p.seo.title, null);
    });

    it('a disabled variant is not sellable; weight and cost reach the inventory item', async () => {
      const id = await newProduct({ stock: 0 });
      for (const [i, [size, enabled]] of (
        [
          ['S', true],
          ['M', false],
        ] as const
      ).entries()) {
        const res = await pim('POST', `/api/products/${id}/variants`, {
          sku: sku(`V${size}`),
          name: size,
          price: '20.00',
          cost: '7.5000',
          weight: '0.2500',
          stock_quantity: 5,
          is_enabled: enabled,
          position: i,
          attributes: [{ attribute_name: 'Size', value: size }],
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      assert.equal((await push(id)).result.status, 'success');
      const variants = (await variantOf(await storefrontId(id))).variants.nodes;
      const [s, m] = variants;
      assert.equal(s.inventoryQuantity, 5);
      assert.equal(m.inventoryQuantity, 0);
      assert.equal(m.inventoryPolicy, 'DENY');
      assert.equal(s.inventoryItem.tracked, true);
      assert.equal(Number(s.inventoryItem.unitCost.amount), 7.5);
      assert.deepEqual(s.inventoryItem.measurement.weight, { value: 0.25, unit: 'KILOGRAMS' });
    });

    it("an image the shop cannot fetch is an error on the mapping with Shopify's reason; once its source answers, the next push sends it again", async () => {
      const picture = await makeImage('png', 8, 6);
      let broken = true;
      const source = await serveHttp((_req, res) => {
        if (broken) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'image/png' }).end(picture);
      });
      try {
        const id = 990_500;
        const snapshot = {
          id,
          sku: 'IMG',
          name: 'Pictured product',
          status: 'draft',
          price: '5.00',
          currency: 'EUR',
          variants: [],
          images: [`${source.url}/photo.png`],
        };
        const pushSnapshot = async () => (await h.call('POST', '/api/products/push', token, { products: [snapshot] })).json().data.results[0];
        const mapping = async () => (await h.call('GET', `/api/products/mapping/${id}`, token)).json().data;
        const media = async (gid: string) =>
          (await gql(`query ($id: ID!) { product(id: $id) { media(first: 5) { nodes { id status mediaErrors { code } } } } }`, { id: gid })).product.media
            .nodes;

        // Shopify answers before it fetches the image (the first push may or may not see the failure); the shop fails it.
        await pushSnapshot();
        const gid = await storefrontId(id);
        await until('the shop failed the image', async () => (await media(gid))[0]?.status === 'FAILED', 10_000, 50);
        // The next push sends it from its source again, sees it fail again, and says why; the product keeps its ids.
        const second = await pushSnapshot();
        assert.equal(second.status, 'error');
        assert.match(second.message, /photo\.png: the shop could not process it: .*\(IMAGE_DOWNLOAD_FAILURE\)/);
        const failed = await mapping();
        assert.deepEqual([failed.sync_status, `gid://shopify/Product/${failed.storefront_product_id}`], ['error', gid]);
        assert.match(failed.sync_error, /IMAGE_DOWNLOAD_FAILURE/);
        assert.deepEqual(
          (await media(gid)).map((m: { status: string }) => m.status),
          ['FAILED'],
          'one media: the failed one was replaced, not kept beside',
        );

        broken = false;
        const third = await pushSnapshot();
        assert.equal(third.status, 'success', third.message);
        assert.equal((await mapping()).sync_status, 'synced');
        await until(
          'the shop processed the image',
          async () => {
            const nodes = await media(gid);
            if (nodes[0]?.status !== 'READY') throw new Error(JSON.stringify(nodes));
            return true;
          },
          10_000,
          50,
        );
        assert.equal((await media(gid)).length, 1);
      } finally {
        await source.close();
      }
    });

    it('a product with 400 variants is pushed twice and keeps its 400 variant ids (read page by page past 250)', async () => {
      const id = 990_400;
      const variants = Array.from({ length: 400 }, (_, i) => ({
        id: 400_000 + i,
        sku: `BIG-${i}`,
        name: `S${i}`,
        price: '5.00',
        sale_price: null,
        cost: null,
        weight: null,
        stock_quantity: 1,
        stock_status: 'in_stock',
        is_enabled: true,
        position: i,
        image: null,
        attributes: [{ attribute_name: 'Size', value: `S${i}` }],
      }));
      const snapshot = { id, sku: 'BIG', name: 'Big product', status: 'draft', price: '5.00', currency: 'EUR', variants };
      /** The storefront variant ids the mapping keeps by SKU (sent back on the next push; no route shows them). */
      const idsOf = async () => (await storefrontStateOf(h.database.db, integrationId, id))!.variantIds;
      const first = await h.call('POST', '/api/products/push', token, { products: [snapshot] });
      assert.equal(first.json().data.results[0].status, 'success', first.body);
      const before = await idsOf();
      assert.equal(Object.keys(before).length, 400);
      const second = await h.call('POST', '/api/products/push', token, { products: [snapshot] });
      assert.equal(second.json().data.results[0].status, 'success', second.body);
      assert.deepEqual(await idsOf(), before);
      const gid = `gid://shopify/Product/${second.json().data.results[0].storefront_product_id}`;
      const count = await gql(`query ($id: ID!) { product(id: $id) { variantsCount { count } } }`, { id: gid });
      assert.equal(count.product.variantsCount.count, 400);
    });
  });
}
