// A variant's stock per warehouse, end to end: PIM levels per variant and warehouse → connector push → Shopify adapter
// → sandbox store, read back through the sandbox's Admin GraphQL API: each level at the location its warehouse maps to
// (explicitly, or by name), a variant without levels at the default location, a changed level moved by the PIM's change.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { sku } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`variant stock per warehouse reaches the shop's locations (${target.name})`, () => {
    const domain = 'variant-stock.myshopify.com';
    let h: ConnectorHarness;
    let tenant: Tenant;
    let token: string;
    let shopId: number;
    let accessToken: string;

    const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<any> => {
      const res = await fetch(`${h.pimUrl}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': accessToken },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    };
    const pim = async (method: string, url: string, payload?: unknown) => {
      const res = await h.app.inject({ method: method as never, url, payload: payload as never, headers: { 'x-api-key': tenant.apiKey } });
      assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
      return res.json().data;
    };
    const push = async (id: number) => {
      const res = await h.call('POST', '/api/products/push', token, { id });
      assert.equal(res.statusCode, 200, res.body);
      const [result] = res.json().data.results;
      assert.equal(result.status, 'success', JSON.stringify(result));
      return result;
    };
    /** Available quantity by variant SKU and location name. */
    const shopLevels = async (productId: number) => {
      const data = await gql(
        `query ($id: ID!) { product(id: $id) { variants(first: 10) { nodes { sku inventoryItem { inventoryLevels(first: 10) { nodes { location { name } quantities(names: ["available"]) { quantity } } } } } } } }`,
        { id: `gid://shopify/Product/${productId}` },
      );
      const out: Record<string, Record<string, number>> = {};
      for (const v of data.product.variants.nodes) {
        out[v.sku] = {};
        for (const l of v.inventoryItem.inventoryLevels.nodes) out[v.sku][l.location.name] = l.quantities[0].quantity;
      }
      return out;
    };

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      shopId = made.json().id;
      accessToken = made.json().access_token;
      const patched = await h.admin('PATCH', `/admin/shops/${shopId}/sandbox`, { locations: ['Berlin', 'Paris depot'] });
      assert.equal(patched.statusCode, 200, patched.body);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      token = res.json().data.api_token;
    });
    after(async () => h.close());

    it("each variant's levels go to their warehouses' locations; a variant without levels to the default location; a change moves the shop by it", async () => {
      const locations = (await h.call('GET', '/api/integration/locations', token)).json().data;
      const paris = locations.available_locations.find((l: { name: string }) => l.name === 'Paris depot');
      const fallback = locations.default_location;
      assert.ok(paris && fallback, JSON.stringify(locations));
      // BER goes to "Berlin" by name; PAR is mapped to "Paris depot" explicitly.
      const ber = await pim('POST', '/api/warehouses', { code: 'BER', name: 'Berlin' });
      const par = await pim('POST', '/api/warehouses', { code: 'PAR', name: 'Paris' });
      const mapped = await h.call('PUT', '/api/integration/locations', token, { warehouses: { PAR: paris.id } });
      assert.equal(mapped.statusCode, 200, mapped.body);

      const product = await pim('POST', '/api/products', { name: 'Stocked Tee', sku: sku('VST'), price: '20.00', status: 'active', publishing_channels: [] });
      const made = await pim('POST', `/api/products/${product.id}/variants/options`, { options: [{ name: 'Size', values: ['S', 'M', 'L'] }] });
      const [s, m, l] = made.created as { id: number; sku: string }[];
      await pim('PUT', `/api/products/${product.id}/variants/${s.id}/stock`, { warehouse_id: ber.id, quantity: 3 });
      await pim('PUT', `/api/products/${product.id}/variants/${s.id}/stock`, { warehouse_id: par.id, quantity: 2 });
      await pim('PUT', `/api/products/${product.id}/variants/${m.id}/stock`, { warehouse_id: par.id, quantity: 5 });
      await pim('PATCH', `/api/products/${product.id}/variants/${l.id}`, { stock_quantity: 4 });
      assert.equal((await pim('GET', `/api/products/${product.id}`)).stock, 14);

      const first = await push(product.id);
      const levels = await shopLevels(first.storefront_product_id);
      assert.deepEqual(levels[s.sku], { Berlin: 3, 'Paris depot': 2 });
      assert.deepEqual(levels[m.sku], { 'Paris depot': 5 });
      assert.deepEqual(levels[l.sku], { [fallback.name]: 4 });

      // A new level and a changed one: the shop moves by the PIM's change, at each location.
      await pim('PUT', `/api/products/${product.id}/variants/${m.id}/stock`, { warehouse_id: ber.id, quantity: 1 });
      await pim('PUT', `/api/products/${product.id}/variants/${s.id}/stock`, { warehouse_id: par.id, quantity: 7 });
      await push(product.id);
      const again = await shopLevels(first.storefront_product_id);
      assert.deepEqual(again[s.sku], { Berlin: 3, 'Paris depot': 7 });
      assert.deepEqual(again[m.sku], { Berlin: 1, 'Paris depot': 5 });
      assert.deepEqual(again[l.sku], { [fallback.name]: 4 });
    });
  });
}
