// PIM attributes → product metafields and the product type, end to end: PIM → connector push → Shopify adapter →
// sandbox, read back through the sandbox's Admin GraphQL API (docs/shopify-fidelity.md, "Product type" and "Attributes").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { sku } from './helpers/pim.js';

for (const target of databaseTargets()) {
  describe(`attributes as metafields and the product type, end to end (${target.name})`, () => {
    const domain = 'attributes-e2e.myshopify.com';
    let h: ConnectorHarness;
    let tenant: Tenant;
    let token: string;
    let gql: <T = any>(query: string, variables?: Record<string, unknown>) => Promise<T>;
    let rawGql: (query: string, variables?: Record<string, unknown>) => Promise<any>;
    let categoryId: number;
    let accessToken: string;

    const pim = (method: string, url: string, payload?: unknown) =>
      h.app.inject({ method: method as never, url, payload: payload as never, headers: { 'x-api-key': tenant.apiKey } });

    before(async () => {
      const port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      accessToken = made.json().access_token as string;
      rawGql = async (query, variables = {}) => {
        const res = await fetch(`${h.pimUrl}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': accessToken },
          body: JSON.stringify({ query, variables }),
        });
        return res.json();
      };
      gql = async (query, variables = {}) => {
        const body = await rawGql(query, variables);
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

      for (const a of [
        { code: 'material', name: 'Material', type: 'text' },
        { code: 'care', name: 'Care', type: 'textarea' },
        { code: 'weight_g', name: 'Weight (g)', type: 'number' },
        { code: 'organic', name: 'Organic', type: 'boolean' },
        { code: 'released', name: 'Released', type: 'date' },
        { code: 'fit', name: 'Fit', type: 'select', options: ['slim', 'regular'] },
        { code: 'seasons', name: 'Seasons', type: 'multiselect', options: ['spring', 'summer', 'winter'] },
        { code: 'garment', name: 'Garment', type: 'text' },
        { code: 'seo_title', name: 'SEO title', type: 'text' },
      ]) {
        const r = await pim('POST', '/api/product-attributes', { options: [], ...a });
        assert.equal(r.statusCode, 201, r.body);
      }
      const cat = await pim('POST', '/api/categories', { name: 'T-Shirts' });
      assert.equal(cat.statusCode, 201, cat.body);
      categoryId = cat.json().data.id;
    });
    after(async () => h.close());

    const newProduct = async (fields: Record<string, unknown>) => {
      const res = await pim('POST', '/api/products', { name: 'Attr Tee', sku: sku('ATTR'), price: '20.00', currency: 'EUR', status: 'draft', ...fields });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as number;
    };
    const pushMany = async (ids: number[]) => {
      const res = await h.call('POST', '/api/products/push', token, { products: ids.map((id) => ({ id })) });
      return res.json().data.results as { status: string; pim_product_id: number; validation_errors?: string[]; message?: string }[];
    };
    const storefrontId = async (id: number) =>
      `gid://shopify/Product/${(await h.call('GET', `/api/products/mapping/${id}`, token)).json().data.storefront_product_id}`;
    const readBack = async (gid: string) =>
      (
        await gql(
          `query ($id: ID!) { product(id: $id) { productType
             metafields(first: 50) { nodes { namespace key type value } }
             fit: metafield(namespace: "pimbridge_attr", key: "fit") { type value } } }`,
          { id: gid },
        )
      ).product as {
        productType: string;
        metafields: { nodes: { namespace: string; key: string; type: string; value: string }[] };
        fit: { type: string; value: string } | null;
      };
    const definitions = async () =>
      (
        await gql(`{ metafieldDefinitions(ownerType: PRODUCT, namespace: "pimbridge_attr", first: 50) {
          nodes { key type { name } validations { name value } } } }`)
      ).metafieldDefinitions.nodes as { key: string; type: { name: string }; validations: { name: string; value: string }[] }[];

    it('the settings routes: defaults, an update, and bad input refused with VALIDATION_FAILED changing nothing', async () => {
      const type = await h.call('GET', '/api/integration/product-type', token);
      assert.equal(type.statusCode, 200, type.body);
      assert.deepEqual(type.json().data, { source: 'first_category', attribute_code: null, is_default: true });
      const attrs = await h.call('GET', '/api/integration/attributes', token);
      assert.equal(attrs.statusCode, 200, attrs.body);
      const view = attrs.json().data;
      assert.equal(view.namespace, 'pimbridge_attr');
      assert.equal(view.only, null);
      assert.equal(view.is_default, true);
      assert.deepEqual(
        view.attributes.find((a: { code: string }) => a.code === 'fit'),
        {
          code: 'fit',
          name: 'Fit',
          type: 'select',
          synced: true,
          metafield: 'pimbridge_attr.fit',
        },
      );

      for (const [url, body, pattern] of [
        ['/api/integration/product-type', { source: 'attribute', attribute_code: 'nope' }, /nope/],
        ['/api/integration/product-type', { source: 'attribute' }, /attribute_code/],
        ['/api/integration/product-type', { source: 'category' }, /.+/],
        ['/api/integration/attributes', { namespace: 'pimbridge' }, /reserved/],
        ['/api/integration/attributes', { namespace: 'bad space' }, /namespace/],
        ['/api/integration/attributes', { only: ['material', 'ghost'] }, /ghost/],
        ['/api/integration/attributes', { keys: { material: 'fit' } }, /fit/],
      ] as const) {
        const bad = await h.call('PUT', url, token, body);
        assert.equal(bad.statusCode, 400, `${url} ${JSON.stringify(body)}: ${bad.body}`);
        assert.equal(bad.json().code, 'VALIDATION_FAILED', bad.body);
        assert.match(bad.json().message, pattern);
      }
      assert.deepEqual((await h.call('GET', '/api/integration/product-type', token)).json().data, type.json().data);
      assert.deepEqual((await h.call('GET', '/api/integration/attributes', token)).json().data, view);

      const changed = await h.call('PUT', '/api/integration/attributes', token, { exclude: ['garment'], keys: { weight_g: 'weight_grams' } });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().data.attributes.find((a: { code: string }) => a.code === 'garment').synced, false);
      assert.equal(changed.json().data.attributes.find((a: { code: string }) => a.code === 'weight_g').metafield, 'pimbridge_attr.weight_grams');
      const back = await h.call('PUT', '/api/integration/attributes', token, { exclude: [], keys: { weight_g: null } });
      assert.equal(back.json().data.attributes.find((a: { code: string }) => a.code === 'weight_g').metafield, 'pimbridge_attr.weight_g');
    });

    it('attributes of every type land as typed metafields with their definitions; the product type is the first category, never `simple`', async () => {
      const id = await newProduct({
        product_type: 'simple',
        category_ids: [categoryId],
        attributes: {
          material: 'Cotton',
          care: 'Wash cold.\nDo not tumble dry.',
          weight_g: 180.5,
          organic: true,
          released: '2026-03-01',
          fit: 'slim',
          seasons: ['spring', 'summer'],
          seo_title: 'Attr Tee | Shop',
        },
      });
      const [result] = await pushMany([id]);
      assert.equal(result.status, 'success', JSON.stringify(result));
      const p = await readBack(await storefrontId(id));
      assert.equal(p.productType, 'T-Shirts');
      const attr = Object.fromEntries(p.metafields.nodes.filter((m) => m.namespace === 'pimbridge_attr').map((m) => [m.key, [m.type, m.value]]));
      assert.deepEqual(attr, {
        material: ['single_line_text_field', 'Cotton'],
        care: ['multi_line_text_field', 'Wash cold.\nDo not tumble dry.'],
        weight_g: ['number_decimal', '180.5'],
        organic: ['boolean', 'true'],
        released: ['date', '2026-03-01'],
        fit: ['single_line_text_field', 'slim'],
        seasons: ['list.single_line_text_field', '["spring","summer"]'],
      });
      assert.deepEqual(p.fit, { type: 'single_line_text_field', value: 'slim' });
      // The bridge's own metafield is still there (productSet replaces the list).
      assert.ok(p.metafields.nodes.some((m) => m.namespace === 'pimbridge' && m.key === 'pim_product_id' && m.value === String(id)));

      const defs = Object.fromEntries((await definitions()).map((d) => [d.key, d]));
      assert.equal(defs.material.type.name, 'single_line_text_field');
      assert.equal(defs.care.type.name, 'multi_line_text_field');
      assert.equal(defs.weight_g.type.name, 'number_decimal');
      assert.equal(defs.organic.type.name, 'boolean');
      assert.equal(defs.released.type.name, 'date');
      assert.equal(defs.seasons.type.name, 'list.single_line_text_field');
      assert.deepEqual(defs.fit.validations, [{ name: 'choices', value: '["slim","regular"]' }]);
      assert.equal(defs.seo_title, undefined, 'SEO attributes have a home of their own');
    });

    it('a value that does not fit is a pre-flight validation_error naming the attribute; the other products of the push go on', async () => {
      const good = await newProduct({ attributes: { material: 'Linen' } });
      // A finite PIM number past number_decimal's ±9999999999999.999999999.
      const bad = await newProduct({ attributes: { material: 'Wool', weight_g: 1e16 } });
      const results = await pushMany([good, bad]);
      const byId = new Map(results.map((r) => [r.pim_product_id, r]));
      assert.equal(byId.get(good)?.status, 'success', JSON.stringify(results));
      const refused = byId.get(bad)!;
      assert.equal(refused.status, 'error', JSON.stringify(refused));
      assert.match(JSON.stringify(refused.validation_errors), /attribute 'weight_g'.*number_decimal/);
      // Nothing of it reached the shop.
      assert.equal((await h.call('GET', `/api/products/mapping/${bad}`, token)).json().data?.storefront_product_id ?? null, null);
    });

    it('a second push creates no definition again; a changed attribute is written, a removed one deleted, merchant metafields kept', async () => {
      const id = await newProduct({ category_ids: [categoryId], attributes: { material: 'Hemp', fit: 'regular' } });
      assert.equal((await pushMany([id]))[0].status, 'success');
      const before = (await definitions()).length;
      const gid = await storefrontId(id);
      // A merchant's own metafield in another namespace.
      const edit = await gql(
        `mutation ($id: ID!) { productUpdate(product: { id: $id, metafields: [{ namespace: "custom", key: "note", type: "single_line_text_field", value: "hand-picked" }] }) { userErrors { message } } }`,
        { id: gid },
      );
      assert.deepEqual(edit.productUpdate.userErrors, []);
      assert.equal((await pim('PATCH', `/api/products/${id}`, { attributes: { material: 'Silk', fit: null } })).statusCode, 200);
      assert.equal((await pushMany([id]))[0].status, 'success');
      const p = await readBack(gid);
      const byKey = Object.fromEntries(p.metafields.nodes.map((m) => [`${m.namespace}.${m.key}`, m.value]));
      assert.equal(byKey['pimbridge_attr.material'], 'Silk');
      assert.equal(byKey['pimbridge_attr.fit'], undefined);
      assert.equal(byKey['custom.note'], 'hand-picked');
      assert.equal(byKey['pimbridge.pim_product_id'], String(id));
      assert.equal((await definitions()).length, before, 'no definition made twice');
    });

    it('definitions are read once per shop and created only where missing: a new process makes no TAKEN round trips', async () => {
      const sent: string[] = [];
      const counting: typeof fetch = async (input, init) => {
        const body = JSON.parse(String(init?.body ?? '{}')) as { query?: string };
        sent.push(/(?:query|mutation) (\w+)/.exec(body.query ?? '')?.[1] ?? '?');
        return fetch(input, init);
      };
      const adapter = new ShopifyAdapter({ fetch: counting });
      const shop = { domain, apiBaseUrl: `${h.pimUrl}/sandbox/shopify/${domain}`, accessToken };
      const spec = (code: string, pimType: string) => ({ code, name: code, pimType, options: [], namespace: 'pimbridge_attr', key: code });
      const existing = [spec('material', 'text'), spec('weight_g', 'number')];
      const defs = await adapter.attributeDefinitions(shop, existing);
      assert.equal(defs.get('pimbridge_attr.weight_g')?.type, 'number_decimal');
      assert.deepEqual(sent, ['ProductMetafieldDefinitions'], 'one read, no create');
      await adapter.attributeDefinitions(shop, [...existing, spec('batch_no', 'text')]);
      assert.deepEqual(sent, ['ProductMetafieldDefinitions', 'MetafieldDefinitionCreate']);
      await adapter.attributeDefinitions(shop, [...existing, spec('batch_no', 'text')]);
      assert.equal(sent.length, 2, 'nothing again');
    });

    it('the product type from an attribute; none is left out (never blanked), so a new product has Shopify\'s ""', async () => {
      assert.equal((await h.call('PUT', '/api/integration/product-type', token, { source: 'attribute', attribute_code: 'garment' })).statusCode, 200);
      const withType = await newProduct({ category_ids: [categoryId], attributes: { garment: 'Tee' } });
      const without = await newProduct({ category_ids: [categoryId] });
      const results = await pushMany([withType, without]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['success', 'success'],
      );
      assert.equal((await readBack(await storefrontId(withType))).productType, 'Tee');
      assert.equal((await readBack(await storefrontId(without))).productType, '');
      assert.equal((await h.call('PUT', '/api/integration/product-type', token, { source: 'first_category' })).statusCode, 200);
    });

    it('the sandbox refuses a value that does not fit its definition with INVALID_METAFIELD, and a definition of an unknown type', async () => {
      const body = await rawGql(
        `mutation { productSet(input: { title: "Direct", metafields: [
           { namespace: "pimbridge_attr", key: "fit", type: "single_line_text_field", value: "baggy" },
           { namespace: "pimbridge_attr", key: "organic", type: "boolean", value: "yes" },
           { namespace: "pimbridge_attr", key: "material", type: "multi_line_text_field", value: "Cotton" }] }) {
           product { id } userErrors { field message code } } }`,
      );
      const errors = body.data.productSet.userErrors as { field: string[]; message: string; code: string }[];
      assert.equal(body.data.productSet.product, null);
      assert.deepEqual(
        errors.map((e) => [e.field.join('.'), e.code]),
        [
          ['input.metafields.0.value', 'INVALID_METAFIELD'],
          ['input.metafields.1.value', 'INVALID_METAFIELD'],
          ['input.metafields.2.type', 'INVALID_METAFIELD'],
        ],
      );
      assert.match(errors[0].message, /choices/);
      const def = await rawGql(
        `mutation { metafieldDefinitionCreate(definition: { name: "X", namespace: "pimbridge_attr", key: "xx", type: "number_float", ownerType: PRODUCT }) { createdDefinition { id } userErrors { field code } } }`,
      );
      assert.deepEqual(def.data.metafieldDefinitionCreate.userErrors, [{ field: ['definition', 'type'], code: 'INCLUSION' }]);
      const taken = await rawGql(
        `mutation { metafieldDefinitionCreate(definition: { name: "Fit", namespace: "pimbridge_attr", key: "fit", type: "single_line_text_field", ownerType: PRODUCT }) { createdDefinition { id } userErrors { code } } }`,
      );
      assert.deepEqual(taken.data.metafieldDefinitionCreate.userErrors, [{ code: 'TAKEN' }]);
    });

    // Last: its attributes would be synced by the pushes of the cases above.
    it("an attribute that is a storefront metafield of its own (a Shopify file's metafield column) goes to that metafield; the merchant's others in its namespace stay; `shopify.*` is never written", async () => {
      for (const a of [
        { code: 'fabric', name: 'Fabric', type: 'text', metafield: 'custom.fabric' },
        { code: 'color_pattern', name: 'Color', type: 'text', metafield: 'shopify.color-pattern' },
      ]) {
        const r = await pim('POST', '/api/product-attributes', { options: [], ...a });
        assert.equal(r.statusCode, 201, r.body);
      }
      // The settings view reads the PIM's definitions afresh (a push uses them cached for 30 s).
      const view = (await h.call('GET', '/api/integration/attributes', token)).json().data;
      const row = (code: string) => view.attributes.find((a: { code: string }) => a.code === code);
      assert.deepEqual([row('fabric').synced, row('fabric').metafield], [true, 'custom.fabric']);
      assert.deepEqual([row('color_pattern').synced, row('color_pattern').metafield], [false, null]);
      const id = await newProduct({ attributes: { fabric: 'Linen', color_pattern: 'Blue' } });
      assert.equal((await pushMany([id]))[0].status, 'success');
      const gid = await storefrontId(id);
      const metafields = async () =>
        Object.fromEntries((await readBack(gid)).metafields.nodes.map((m) => [`${m.namespace}.${m.key}`, m.value])) as Record<string, string>;
      let byKey = await metafields();
      assert.equal(byKey['custom.fabric'], 'Linen');
      assert.equal(byKey['pimbridge_attr.fabric'], undefined, 'not written twice');
      assert.equal(byKey['shopify.color-pattern'], undefined, "Shopify's category metafields hold references, not the PIM's text");
      const edit = await gql(
        `mutation ($id: ID!) { productUpdate(product: { id: $id, metafields: [{ namespace: "custom", key: "care", type: "single_line_text_field", value: "cold wash" }] }) { userErrors { message } } }`,
        { id: gid },
      );
      assert.deepEqual(edit.productUpdate.userErrors, []);
      assert.equal((await pim('PATCH', `/api/products/${id}`, { attributes: { fabric: null } })).statusCode, 200);
      assert.equal((await pushMany([id]))[0].status, 'success');
      byKey = await metafields();
      assert.equal(byKey['custom.fabric'], undefined, 'a value the PIM dropped is removed');
      assert.equal(byKey['custom.care'], 'cold wash', "the merchant's metafield in the same namespace stays");
    });
  });
}
