// Access scopes in the sandbox, proven from Shopify's own schema (each field's `requiredAccess`, access-scopes.ts):
// a field outside the token's scopes is ACCESS_DENIED with Shopify's message and the field null while the rest runs;
// write implies read; the store's revoked_scopes take a scope from existing tokens (the legacy one too);
// currentAppInstallation.accessScopes lists the grant; requiredScopes/deniedFields tell what documents need.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deniedFields, everyScope, fieldAccess, impliedScopes, parseRequiredAccess, requiredScopes, withoutRevoked } from '../src/sandbox/access-scopes.js';
import { ADMIN_API_VERSION } from '../src/storefront/shopify/api-version.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

type Json = Record<string, any>;

const PRODUCT_SET = `mutation ProductSetSync($input: ProductSetInput!) {
  productSet(input: $input, synchronous: true) { product { id } userErrors { field message code } } }`;
const COUNT = '{ shop { name } productsCount { count } }';

describe('access-scopes.ts: requirements read from the schema', () => {
  it("parses Shopify's requiredAccess texts", () => {
    assert.deepEqual(fieldAccess('QueryRoot', 'productsCount'), { text: '`read_products` access scope.', clauses: [['read_products']] });
    assert.deepEqual(fieldAccess('QueryRoot', 'shopLocales')?.clauses, [['read_locales', 'read_markets_home']]);
    assert.deepEqual(fieldAccess('Mutation', 'productSet')?.clauses, [['write_products']]);
    assert.equal(fieldAccess('QueryRoot', 'shop'), null);
    assert.deepEqual(parseRequiredAccess('`read_orders` for queries and both `read_orders` as well as `write_orders` for mutations.', true), [
      ['read_orders'],
      ['write_orders'],
    ]);
    assert.deepEqual(parseRequiredAccess('`read_a` access scope as well as any of `read_b`, `read_c` access scopes. Also: The user must…', false), [
      ['read_a'],
      ['read_b', 'read_c'],
    ]);
    assert.deepEqual(parseRequiredAccess('`read_a` access scope. Also: Requires `read_b` scope.', false), [['read_a'], ['read_b']]);
    assert.ok(everyScope().includes('write_products') && everyScope().length > 100);
  });

  it('write implies read; revoking read takes write too', () => {
    assert.deepEqual([...impliedScopes(['write_products'])].sort(), ['read_products', 'write_products']);
    assert.deepEqual(withoutRevoked(['read_products', 'write_products', 'read_files'], ['read_products']), ['read_files']);
    assert.deepEqual(withoutRevoked(['read_products', 'write_products'], ['write_products']), ['read_products']);
  });

  it('requiredScopes and deniedFields over documents (fragments too)', () => {
    const docs = [PRODUCT_SET, 'query { shopLocales { locale } ...F } fragment F on QueryRoot { productByIdentifier(identifier: { handle: "x" }) { id } }'];
    assert.deepEqual([...requiredScopes(docs)].sort(), ['read_locales', 'read_products', 'write_products']);
    assert.deepEqual(deniedFields(docs, ['write_products', 'read_markets_home']), []);
    assert.deepEqual(deniedFields(docs, ['read_products']), [
      { field: 'Mutation.productSet', requiredAccess: '`write_products` access scope. Also: The user must have a permission to create products.' },
      { field: 'QueryRoot.shopLocales', requiredAccess: '`read_locales` access scope or `read_markets_home` access scope.' },
    ]);
  });
});

for (const target of databaseTargets()) {
  describe(`Sandbox access scopes (${target.name})`, () => {
    let h: Harness;
    const domain = `scopes-${target.name}.myshopify.com`;
    let legacy: string;
    let app: { clientId: string; clientSecret: string };

    before(async () => {
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: 'http://127.0.0.1:1' });
      const made = await h.app.services.sandbox!.stores.create(domain);
      legacy = made.accessToken;
      app = { clientId: made.clientId, clientSecret: made.clientSecret };
    });
    after(async () => h.close());

    const stores = () => h.app.services.sandbox!.stores;
    const gql = async (token: string, query: string, variables: Json = {}) => {
      const res = await h.app.inject({
        method: 'POST',
        url: `/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`,
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        payload: JSON.stringify({ query, variables }),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Json;
    };
    /** A client credentials token with the app's scopes set to `scopes`. */
    const tokenWith = async (scopes: string[]) => {
      await stores().configure(domain, { app_scopes: scopes });
      const res = await h.app.inject({
        method: 'POST',
        url: `/sandbox/shopify/${domain}/admin/oauth/access_token`,
        payload: { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().access_token as string;
    };
    const input = {
      title: 'Scoped Boot',
      productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
      variants: [{ optionValues: [{ optionName: 'Title', name: 'Default Title' }], price: '1.00' }],
    };

    it("a field outside the token's scopes: ACCESS_DENIED naming the required access, the field null, the rest answered", async () => {
      const token = await tokenWith(['read_locations']);
      const body = await gql(token, COUNT);
      assert.deepEqual(body.errors, [
        {
          message: 'Access denied for productsCount field. Required access: `read_products` access scope.',
          locations: [{ line: 1, column: 17 }],
          path: ['productsCount'],
          extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: '`read_products` access scope.' },
        },
      ]);
      assert.deepEqual(body.data, { shop: { name: `Scopes ${target.name[0].toUpperCase()}${target.name.slice(1)}` }, productsCount: null });

      // A mutation is refused before it runs: nothing is created.
      const denied = await gql(token, PRODUCT_SET, { input });
      assert.equal(denied.errors[0].extensions.code, 'ACCESS_DENIED');
      assert.match(denied.errors[0].message, /^Access denied for productSet field\. Required access: `write_products` access scope\./);
      assert.deepEqual(denied.data, { productSet: null });
      assert.equal((await gql(legacy, '{ productsCount { count } }')).data.productsCount.count, 0);
    });

    it('write_products implies read_products; the legacy token has every scope', async () => {
      const token = await tokenWith(['write_products']);
      const made = await gql(token, PRODUCT_SET, { input });
      assert.equal(made.errors, undefined, JSON.stringify(made.errors));
      assert.deepEqual(made.data.productSet.userErrors, []);
      assert.equal((await gql(token, COUNT)).data.productsCount.count, 1);
      assert.equal((await gql(legacy, COUNT)).errors, undefined);
    });

    it('currentAppInstallation.accessScopes: the handles granted', async () => {
      const token = await tokenWith(['write_products', 'read_locations']);
      const data = (await gql(token, '{ currentAppInstallation { id accessScopes { handle } app { apiKey title } } }')).data;
      assert.deepEqual(
        data.currentAppInstallation.accessScopes.map((s: { handle: string }) => s.handle),
        ['write_products', 'read_locations'],
      );
      assert.deepEqual(data.currentAppInstallation.app, { apiKey: app.clientId, title: 'Pimbridge' });
      const all = (await gql(legacy, '{ currentAppInstallation { accessScopes { handle } } }')).data.currentAppInstallation.accessScopes;
      assert.deepEqual(
        all.map((s: { handle: string }) => s.handle),
        everyScope(),
      );
    });

    it("revoked_scopes take a scope from the store's existing tokens (the legacy one too) and from new grants", async () => {
      const token = await tokenWith(['read_products', 'read_locations']);
      assert.equal((await gql(token, COUNT)).errors, undefined);
      await stores().configure(domain, { revoked_scopes: ['read_products'] });
      try {
        for (const t of [token, legacy]) {
          const body = await gql(t, COUNT);
          assert.equal(body.errors?.[0]?.extensions?.code, 'ACCESS_DENIED');
          assert.deepEqual(body.errors[0].path, ['productsCount']);
        }
        const scopes = (await gql(token, '{ currentAppInstallation { accessScopes { handle } } }')).data.currentAppInstallation.accessScopes;
        assert.deepEqual(
          scopes.map((s: { handle: string }) => s.handle),
          ['read_locations'],
        );
        // Granted anew: not in the answer's scope either.
        const res = await h.app.inject({
          method: 'POST',
          url: `/sandbox/shopify/${domain}/admin/oauth/access_token`,
          payload: { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret },
        });
        assert.equal(res.json().scope, 'read_locations');
      } finally {
        await stores().configure(domain, { revoked_scopes: [], app_scopes: null });
      }
      assert.equal((await gql(token, COUNT)).errors, undefined, 'given back');
    });
  });
}
