// Handles, end to end on both databases: PIM → connector push (and its dry run) → Shopify adapter → sandbox, read back
// over the sandbox's Admin GraphQL. A product's handle is its PIM slug, exactly, Unicode included; a handle a merchant's
// product holds is that push's error naming the product (nothing is created, no suffix); a product whose mapping was
// lost is found again by our pimbridge.pim_product_id metafield, not by its handle (which the merchant may have
// changed) — through customId where the shop has the unique definition, through a search by the metafield's value where
// it has a definition without unique values.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { connectorHarness, freePort, type ConnectorHarness } from './helpers/connector.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { sku } from './helpers/pim.js';

type Json = any;

const BY_HANDLE = /* GraphQL */ `
  query ByHandle($handle: String!) {
    productByIdentifier(identifier: { handle: $handle }) {
      id
      handle
      title
      metafield(namespace: "pimbridge", key: "pim_product_id") {
        value
      }
    }
  }
`;
const PRODUCT = /* GraphQL */ `
  query P($id: ID!) {
    product(id: $id) {
      id
      handle
      title
    }
  }
`;
const COUNT = /* GraphQL */ `
  query C {
    productsCount {
      count
    }
  }
`;

for (const target of databaseTargets()) {
  describe(`handles are the PIM slug (${target.name})`, () => {
    let h: ConnectorHarness;
    let port: number;
    let shops = 0;

    before(async () => {
      port = await freePort();
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT: '1000000' }, port);
    });
    after(async () => h?.close());

    interface Connected {
      tenant: Tenant;
      token: string;
      gql: (query: string, variables?: Json) => Promise<Json>;
    }

    /** A sandbox shop connected to a fresh organization; `beforeConnect` runs on the shop first (as its merchant). */
    async function connectedSandbox(beforeConnect?: (gql: Connected['gql']) => Promise<void>): Promise<Connected> {
      const domain = `handles-${process.pid}-${++shops}.myshopify.com`;
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      assert.equal(made.statusCode, 201, made.body);
      const storeToken = made.json().access_token as string;
      const gql = async (query: string, variables: Json = {}) => {
        const r = await fetch(`http://127.0.0.1:${port}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': storeToken },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await r.json()) as Json;
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
        return body.data;
      };
      await beforeConnect?.(gql);
      const res = await h.call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: h.pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      assert.equal(res.statusCode, 200, res.body);
      return { tenant, token: res.json().data.api_token, gql };
    }

    const newProduct = async (c: Connected, fields: Json) => {
      const res = await h.as(c.tenant)('POST', '/api/products', { sku: sku('HDL'), price: '20.00', currency: 'EUR', status: 'active', stock: 3, ...fields });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: number; slug: string };
    };
    const push = async (c: Connected, id: number, dryRun = false) => {
      const res = await h.call('POST', `/api/products/push${dryRun ? '?dry_run=true' : ''}`, c.token, { id });
      return res.json().data.results[0] as Json;
    };
    /** A product of the merchant's own (no metafield of ours), made in the shop's admin. */
    const merchantProduct = async (c: Connected, handle: string, title: string) => {
      const made = await c.gql(
        `mutation ($input: ProductSetInput!) { productSet(input: $input, synchronous: true) { product { id handle } userErrors { message code } } }`,
        { input: { title, handle } },
      );
      assert.deepEqual(made.productSet.userErrors, []);
      assert.equal(made.productSet.product.handle, handle);
      return made.productSet.product.id as string;
    };
    const count = async (c: Connected) => (await c.gql(COUNT)).productsCount.count as number;
    /** The mapping as a crash between Shopify's answer and our write leaves it: a row that knows no storefront ids. */
    const loseMapping = (pimProductId: number) =>
      h.database.db.execute(
        sql`update product_mappings set storefront_product_id = null, storefront_variant_id = null, storefront_state = '{}'::jsonb, metadata = '{}'::jsonb,
              sync_status = 'pending', storefront_version = null where pim_product_id = ${pimProductId}`,
      );
    /** No row at all (the product looks never pushed, so nothing is looked up before its create). */
    const dropMapping = (pimProductId: number) => h.database.db.execute(sql`delete from product_mappings where pim_product_id = ${pimProductId}`);

    it('a Unicode slug is the handle, exactly: pushed, answered and read back over the sandbox GraphQL', async () => {
      const c = await connectedSandbox();
      const given = ['東京-tシャツ', 'рубашка-синяя', 'crème-brûlée', 'हिन्दी-किताब'];
      for (const slug of given) {
        const p = await newProduct(c, { name: `Unicode ${slug}`, slug });
        assert.equal(p.slug, slug);
        const r = await push(c, p.id);
        assert.equal(r.status, 'success', JSON.stringify(r));
        assert.equal(r.method, 'create');
        assert.equal(r.storefront_handle, slug, 'the handle Shopify answered is the slug, no suffix, no folding');
        const read = (await c.gql(PRODUCT, { id: `gid://shopify/Product/${r.storefront_product_id}` })).product;
        assert.equal(read.handle, slug);
        assert.equal((await c.gql(BY_HANDLE, { handle: slug })).productByIdentifier.id, read.id);
      }
      // A product made without a slug gets one from its name, letters of its script kept, and that is its handle.
      const named = await newProduct(c, { name: 'Синяя Рубашка' });
      assert.equal(named.slug, 'синяя-рубашка');
      const r = await push(c, named.id);
      assert.equal(r.storefront_handle, 'синяя-рубашка');
      // Pushed again (an update), the handle is not sent: it stays.
      assert.equal((await h.as(c.tenant)('PATCH', `/api/products/${named.id}`, { name: 'Синяя Рубашка 2' })).statusCode, 200);
      const again = await push(c, named.id);
      assert.equal(again.method, 'update');
      assert.equal(again.storefront_handle, 'синяя-рубашка');
    });

    it("a handle a merchant's product holds: the push is that product's error naming it (adopt, or change the slug); nothing is created, no suffix", async () => {
      const c = await connectedSandbox();
      const merchant = await merchantProduct(c, 'desk-lamp', "Merchant's Desk Lamp");
      const p = await newProduct(c, { name: 'Desk Lamp', slug: 'desk-lamp' });
      const before = await count(c);

      const dry = await push(c, p.id, true);
      assert.equal(dry.status, 'error', JSON.stringify(dry));
      const r = await push(c, p.id);
      assert.equal(r.status, 'error', JSON.stringify(r));
      assert.equal(r.storefront_product_id, null);
      const numeric = merchant.split('/').pop();
      assert.equal(r.validation_errors.length, 1, JSON.stringify(r.validation_errors));
      const [problem] = r.validation_errors as string[];
      assert.ok(problem.includes(`Shopify product ${numeric} "Merchant's Desk Lamp" (${merchant}, handle 'desk-lamp')`), problem);
      assert.match(problem, /which the bridge does not own: adopt it \(POST \/api\/adopt[^)]*\), or change this product's slug in the PIM/);
      assert.match(r.message, /desk-lamp/);
      assert.deepEqual(dry.validation_errors, r.validation_errors, 'the dry run says what the push says');

      assert.equal(await count(c), before, 'nothing created');
      const holder = (await c.gql(BY_HANDLE, { handle: 'desk-lamp' })).productByIdentifier;
      assert.deepEqual([holder.id, holder.title, holder.metafield], [merchant, "Merchant's Desk Lamp", null], "the merchant's product is untouched");
      const suffixed = await c.gql(`{ products(first: 5, query: "handle:desk-lamp-1,desk-lamp-2") { nodes { handle } } }`);
      assert.deepEqual(suffixed.products.nodes, [], 'no desk-lamp-1 made');
      const mapping = (await h.call('GET', `/api/products/mapping/${p.id}`, c.token)).json().data;
      assert.equal(mapping.sync_status, 'error');
      assert.match(mapping.sync_error, /taken in the shop by Shopify product/);

      // Renamed in the PIM, the product goes through with its new slug as handle.
      assert.equal((await h.as(c.tenant)('PATCH', `/api/products/${p.id}`, { slug: 'desk-lamp-pim' })).statusCode, 200);
      const renamed = await push(c, p.id);
      assert.equal(renamed.status, 'success', JSON.stringify(renamed));
      assert.equal(renamed.storefront_handle, 'desk-lamp-pim');
    });

    it('a dry run shows the handle a create will get: the slug', async () => {
      const c = await connectedSandbox();
      const p = await newProduct(c, { name: 'Preview Mug', slug: 'кружка' });
      const dry = await push(c, p.id, true);
      assert.equal(dry.status, 'success', JSON.stringify(dry));
      assert.equal(dry.method, 'create');
      assert.equal(dry.storefront_handle, 'кружка');
      assert.equal(await count(c), 0, 'a dry run writes nothing');
    });

    it('a lost mapping is found again by our metafield (customId) after the merchant renamed the handle: updated, not duplicated', async () => {
      const c = await connectedSandbox();
      const p = await newProduct(c, { name: 'Lost Lamp', slug: 'lost-lamp' });
      const first = await push(c, p.id);
      assert.equal(first.status, 'success', JSON.stringify(first));
      const gid = `gid://shopify/Product/${first.storefront_product_id}`;
      const edit = await c.gql(
        `mutation ($id: ID!) { productUpdate(product: { id: $id, handle: "the-merchants-lamp" }) { product { handle } userErrors { message } } }`,
        {
          id: gid,
        },
      );
      assert.deepEqual(edit.productUpdate.userErrors, []);
      await loseMapping(p.id);
      const before = await count(c);

      const r = await push(c, p.id);
      assert.equal(r.status, 'success', JSON.stringify(r));
      assert.equal(r.method, 'update');
      assert.equal(r.storefront_product_id, first.storefront_product_id, 'the same storefront product');
      assert.equal(r.storefront_handle, 'the-merchants-lamp', "the merchant's handle is kept");
      assert.equal(await count(c), before, 'no duplicate');

      // No mapping row at all: the create is sent unread, by customId, and Shopify's upsert matches our metafield.
      const q = await newProduct(c, { name: 'Dropped Lamp', slug: 'dropped-lamp' });
      const made = await push(c, q.id);
      await dropMapping(q.id);
      const again = await push(c, q.id);
      assert.equal(again.status, 'success', JSON.stringify(again));
      assert.equal(again.storefront_product_id, made.storefront_product_id);
      assert.equal(await count(c), before + 1);
    });

    it('a shop whose pim_product_id definition has no unique values: the lost product is found by a search on the metafield, whatever its handle', async () => {
      // The merchant (or an older app) made the definition without unique values: customId cannot be used.
      const c = await connectedSandbox(async (gql) => {
        const made = await gql(
          `mutation { metafieldDefinitionCreate(definition: { name: "PIM id", namespace: "pimbridge", key: "pim_product_id", type: "single_line_text_field", ownerType: PRODUCT }) { createdDefinition { id } userErrors { message } } }`,
        );
        assert.deepEqual(made.metafieldDefinitionCreate.userErrors, []);
      });
      const p = await newProduct(c, { name: 'Searched Lamp', slug: 'searched-lamp' });
      const first = await push(c, p.id);
      assert.equal(first.status, 'success', JSON.stringify(first));
      assert.equal(first.storefront_handle, 'searched-lamp');
      const gid = `gid://shopify/Product/${first.storefront_product_id}`;
      const edit = await c.gql(`mutation ($id: ID!) { productUpdate(product: { id: $id, handle: "renamed-lamp" }) { userErrors { message } } }`, { id: gid });
      assert.deepEqual(edit.productUpdate.userErrors, []);
      await loseMapping(p.id);

      const r = await push(c, p.id);
      assert.equal(r.status, 'success', JSON.stringify(r));
      assert.equal(r.method, 'update');
      assert.equal(r.storefront_product_id, first.storefront_product_id);
      assert.equal(r.storefront_handle, 'renamed-lamp');
      assert.equal(await count(c), 1);

      // No mapping row at all: the create is sent unread and without an identifier, refused the handle our own product
      // holds, and that product (our metafield, this PIM id) is taken over and updated.
      const d = await newProduct(c, { name: 'Dropped Lamp', slug: 'dropped-lamp' });
      const made = await push(c, d.id);
      await dropMapping(d.id);
      const taken = await push(c, d.id);
      assert.equal(taken.status, 'success', JSON.stringify(taken));
      assert.equal(taken.method, 'update');
      assert.equal(taken.storefront_product_id, made.storefront_product_id);
      assert.equal(await count(c), 2);

      // A merchant's product holding the slug of a new product is refused the same way here.
      const merchant = await merchantProduct(c, 'their-lamp', 'Their Lamp');
      const q = await newProduct(c, { name: 'Our Lamp', slug: 'their-lamp' });
      const refused = await push(c, q.id);
      assert.equal(refused.status, 'error');
      assert.ok((refused.validation_errors as string[])[0].includes(`(${merchant}, handle 'their-lamp')`), JSON.stringify(refused));
      assert.equal(await count(c), 3);
    });
  });
}
