// PIM categories → the shop's custom collections, end to end: PIM → connector push → Shopify adapter → sandbox, read
// back through the sandbox's Admin GraphQL API (docs/shopify-fidelity.md, "Categories → collections").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CategoryCollectionRepository } from '../src/connector/collections/category-collection.repository.js';
import { connectorHarness, freePort, type ConnectorHarness, type SandboxConnection } from './helpers/connector.js';
import { databaseTargets } from './helpers/harness.js';
import { sku } from './helpers/pim.js';
import { until } from './helpers/until.js';

interface CollectionView {
  id: string;
  title: string;
  handle: string;
  products: { nodes: { id: string }[] };
}

for (const target of databaseTargets()) {
  describe(`categories as collections, end to end (${target.name})`, () => {
    let h: ConnectorHarness;
    let s: SandboxConnection;
    const categories: Record<string, number> = {};
    const pim = (method: string, url: string, payload?: unknown) =>
      h.app.inject({ method: method as never, url, payload: payload as never, headers: { 'x-api-key': s.tenant.apiKey } });

    before(async () => {
      const port = await freePort();
      // SYNC_BULK_THRESHOLD 1: a full sync goes through bulk operations whatever its size.
      h = await connectorHarness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, SYNC_BULK_THRESHOLD: '1' }, port);
      s = await h.sandboxConnected('collections-e2e.myshopify.com');
      for (const name of ['Shirts', 'Summer', 'Sale']) {
        const res = await pim('POST', '/api/categories', { name });
        assert.equal(res.statusCode, 201, res.body);
        categories[name] = res.json().data.id;
      }
    });
    after(async () => h.close());

    const newProduct = async (categoryNames: string[]) => {
      const res = await pim('POST', '/api/products', {
        name: 'Collection Tee',
        sku: sku('COLL'),
        price: '20.00',
        currency: 'EUR',
        status: 'active',
        category_ids: categoryNames.map((n) => categories[n]),
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as number;
    };
    const push = async (...ids: number[]) => {
      const res = await h.call('POST', '/api/products/push', s.token, { products: ids.map((id) => ({ id })) });
      assert.equal(res.statusCode, 200, res.body);
      const results = res.json().data.results as { status: string; message: string }[];
      for (const r of results) assert.equal(r.status, 'success', r.message);
    };
    const productGid = async (id: number) =>
      `gid://shopify/Product/${(await h.call('GET', `/api/products/mapping/${id}`, s.token)).json().data.storefront_product_id}`;
    const collectionsOf = async (id: number) =>
      (
        await s.gql<{ product: { collections: { nodes: { title: string }[] } } }>(
          'query ($id: ID!) { product(id: $id) { collections(first: 20) { nodes { title } } } }',
          { id: await productGid(id) },
        )
      ).product.collections.nodes
        .map((c) => c.title)
        .sort();
    const listed = async () => {
      const res = await h.call('GET', '/api/collections', s.token);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { collections: { pim_category_id: number; storefront_collection_gid: string; title: string; handle: string }[]; total: number };
    };
    const collection = async (gid: string) =>
      (
        await s.gql<{ collection: CollectionView | null }>(
          'query ($id: ID!) { collection(id: $id) { id title handle products(first: 20) { nodes { id } } } }',
          {
            id: gid,
          },
        )
      ).collection;
    const gidOf = async (category: string) => (await listed()).collections.find((c) => c.pim_category_id === categories[category])!.storefront_collection_gid;

    let a: number;
    let b: number;

    it('a push makes one custom collection per category of its products, once, with the products in them', async () => {
      a = await newProduct(['Shirts', 'Summer']);
      b = await newProduct(['Shirts']);
      await push(a, b);
      const view = await listed();
      assert.deepEqual(view.collections.map((c) => c.title).sort(), ['Shirts', 'Summer']);
      assert.equal(view.total, 2);
      assert.deepEqual(await collectionsOf(a), ['Shirts', 'Summer']);
      assert.deepEqual(await collectionsOf(b), ['Shirts']);
      const shirts = (await collection(await gidOf('Shirts')))!;
      assert.equal(shirts.handle, 'shirts');
      assert.deepEqual(shirts.products.nodes.map((n) => n.id).sort(), [await productGid(a), await productGid(b)].sort());
      // A custom collection (no rules), ours by its metafield, published where the products are (Online Store by default).
      const meta = await s.gql<{ collection: { ruleSet: unknown; metafield: { value: string } | null } }>(
        'query ($id: ID!) { collection(id: $id) { ruleSet { appliedDisjunctively } metafield(namespace: "pimbridge", key: "pim_category_id") { value } } }',
        { id: shirts.id },
      );
      assert.equal(meta.collection.ruleSet, null);
      assert.equal(meta.collection.metafield?.value, String(categories.Shirts));

      // Pushed again: no second collection for the same categories.
      await push(a, b);
      const all = await s.gql<{ collections: { nodes: { title: string }[] } }>('{ collections(first: 50) { nodes { title } } }');
      assert.deepEqual(all.collections.nodes.map((c) => c.title).sort(), ['Shirts', 'Summer']);
    });

    it("membership follows the PIM's assignments, and the merchant's own collections are kept", async () => {
      // The merchant's collection, with product a in it (made in the shop, not by the bridge).
      const staff = await s.gql<{ collectionCreate: { collection: { id: string } } }>(
        'mutation { collectionCreate(collection: { title: "Staff picks" }) { collection { id } userErrors { message } } }',
      );
      const set = await s.gql<{ productSet: { userErrors: unknown[] } }>(
        'mutation ($id: ID!, $c: [ID!]) { productSet(identifier: { id: $id }, input: { collections: $c }) { userErrors { message } } }',
        { id: await productGid(a), c: [await gidOf('Shirts'), await gidOf('Summer'), staff.collectionCreate.collection.id] },
      );
      assert.deepEqual(set.productSet.userErrors, []);
      assert.deepEqual(await collectionsOf(a), ['Shirts', 'Staff picks', 'Summer']);

      // a leaves Summer and joins Sale in the PIM.
      const moved = await pim('PATCH', `/api/products/${a}`, { category_ids: [categories.Shirts, categories.Sale] });
      assert.equal(moved.statusCode, 200, moved.body);
      await push(a);
      assert.deepEqual(await collectionsOf(a), ['Sale', 'Shirts', 'Staff picks']);
      assert.deepEqual((await collection(await gidOf('Summer')))!.products.nodes, []);
    });

    it('a renamed category renames its collection (same collection, same handle)', async () => {
      const before = await gidOf('Shirts');
      const renamed = await pim('PUT', `/api/categories/${categories.Shirts}`, { name: 'Tops' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      await push(b);
      const after = (await collection(before))!;
      assert.equal(after.title, 'Tops');
      assert.equal(after.handle, 'shirts');
      assert.equal((await listed()).collections.find((c) => c.pim_category_id === categories.Shirts)!.title, 'Tops');
      assert.deepEqual(await collectionsOf(b), ['Tops']);
    });

    it('a deleted category has its collection deleted by the reconcile; the products stay', async () => {
      const summer = await gidOf('Summer');
      const gone = await pim('DELETE', `/api/categories/${categories.Summer}`);
      assert.equal(gone.statusCode, 200, gone.body);
      const res = await h.call('POST', '/api/collections/reconcile', s.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().data, { renamed: 0, deleted: 1, kept: 2 });
      assert.equal(await collection(summer), null);
      assert.deepEqual((await listed()).collections.map((c) => c.title).sort(), ['Sale', 'Tops']);
      assert.deepEqual(await collectionsOf(a), ['Sale', 'Staff picks', 'Tops']);
      // Nothing left to do: a second reconcile changes nothing.
      const again = await h.call('POST', '/api/collections/reconcile', s.token);
      assert.deepEqual(again.json().data, { renamed: 0, deleted: 0, kept: 2 });
    });

    it('a collection made by a push whose record was lost is found again by its metafield, not made twice', async () => {
      const sale = await gidOf('Sale');
      await new CategoryCollectionRepository(h.database.db).remove(s.integrationId, categories.Sale);
      const c = await newProduct(['Sale']);
      await push(c);
      assert.equal(await gidOf('Sale'), sale);
      const all = await s.gql<{ collections: { nodes: { title: string }[] } }>('{ collections(first: 50, query: "title:Sale") { nodes { title } } }');
      assert.equal(all.collections.nodes.length, 1);
    });

    it('a dry run lists the collections a push would change, by title, and makes none', async () => {
      const outerwear = await pim('POST', '/api/categories', { name: 'Outerwear' });
      assert.equal(outerwear.statusCode, 201, outerwear.body);
      categories.Outerwear = outerwear.json().data.id;
      await push(a); // its tags and product type still name Shirts, renamed Tops since
      const before = await listed();
      // Unchanged: nothing would change.
      const same = await h.call('POST', '/api/products/push?dry_run=true', s.token, { products: [{ id: a }] });
      assert.equal(same.statusCode, 200, same.body);
      assert.deepEqual(same.json().data.results[0].changes, []);

      // a leaves Sale for Outerwear, which has no collection yet: the push would make it.
      const moved = await pim('PATCH', `/api/products/${a}`, { category_ids: [categories.Shirts, categories.Outerwear] });
      assert.equal(moved.statusCode, 200, moved.body);
      const res = await h.call('POST', '/api/products/push?dry_run=true', s.token, { products: [{ id: a }] });
      assert.equal(res.statusCode, 200, res.body);
      const changes = res.json().data.results[0].changes as { field: string; storefront: unknown; pim: unknown }[];
      assert.deepEqual(
        changes.find((c) => c.field === 'collections'),
        { field: 'collections', storefront: ['Sale', 'Staff picks', 'Tops'], pim: ['Outerwear', 'Staff picks', 'Tops'] },
      );
      assert.deepEqual(await listed(), before, 'no collection made or recorded');
      const made = await s.gql<{ collections: { nodes: unknown[] } }>('{ collections(first: 5, query: "title:Outerwear") { nodes { id } } }');
      assert.deepEqual(made.collections.nodes, []);
      assert.deepEqual(await collectionsOf(a), ['Sale', 'Staff picks', 'Tops']);
      const back = await pim('PATCH', `/api/products/${a}`, { category_ids: [categories.Shirts, categories.Sale] });
      assert.equal(back.statusCode, 200, back.body);
    });

    it("a bulk full sync's productSet lines carry the collections: a new category's collection is made, memberships follow", async () => {
      const hats = await pim('POST', '/api/categories', { name: 'Hats' });
      assert.equal(hats.statusCode, 201, hats.body);
      categories.Hats = hats.json().data.id;
      const d = await newProduct(['Hats']);
      // b leaves Tops (was Shirts) for Hats: only the full sync sends it.
      const moved = await pim('PATCH', `/api/products/${b}`, { category_ids: [categories.Hats] });
      assert.equal(moved.statusCode, 200, moved.body);
      await h.app.services.jobs.workers.start();
      try {
        const started = await h.call('POST', '/api/sync/full', s.token);
        assert.equal(started.statusCode, 200, started.body);
        const done = await until('the full sync', async () => {
          const data = (await h.call('GET', `/api/sync/full/${started.json().data.id}`, s.token)).json().data;
          return data.status === 'completed' || data.status === 'failed' ? data : null;
        });
        assert.equal(done.mode, 'bulk');
        assert.equal(done.status, 'completed', JSON.stringify(done));
      } finally {
        await h.app.services.jobs.workers.stop(5_000);
      }
      assert.deepEqual(await collectionsOf(d), ['Hats']);
      assert.deepEqual(await collectionsOf(b), ['Hats']);
      assert.deepEqual(await collectionsOf(a), ['Sale', 'Staff picks', 'Tops']);
      const hatsCollection = (await collection(await gidOf('Hats')))!;
      assert.deepEqual(hatsCollection.products.nodes.map((n) => n.id).sort(), [await productGid(b), await productGid(d)].sort());
    });

    it('a category left with no product has its collection deleted by the reconcile, and made again when a product joins', async () => {
      const hats = await gidOf('Hats');
      const listedProducts = (await pim('GET', `/api/categories/${categories.Hats}/products`)).json().data.products as { id: number }[];
      const ids = listedProducts.map((p) => p.id);
      assert.equal(ids.length, 2);
      for (const id of ids) {
        const res = await pim('PATCH', `/api/products/${id}`, { category_ids: [] });
        assert.equal(res.statusCode, 200, res.body);
      }
      const res = await h.call('POST', '/api/collections/reconcile', s.token);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.deleted, 1);
      assert.equal(await collection(hats), null);
      assert.equal(
        (await listed()).collections.find((c) => c.pim_category_id === categories.Hats),
        undefined,
      );

      const back = await pim('PATCH', `/api/products/${ids[0]}`, { category_ids: [categories.Hats] });
      assert.equal(back.statusCode, 200, back.body);
      await push(ids[0]);
      assert.deepEqual(await collectionsOf(ids[0]), ['Hats']);
      assert.notEqual(await gidOf('Hats'), hats, 'a new collection');
    });

    it('the routes: another token is refused; a read token cannot reconcile', async () => {
      assert.equal((await h.call('GET', '/api/collections', 'not-a-token')).statusCode, 401);
      const read = await h.call('POST', '/api/tokens', s.token, { name: 'reader', scope: 'read' });
      assert.equal(read.statusCode, 200, read.body);
      const refused = await h.call('POST', '/api/collections/reconcile', read.json().data.api_token);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'INSUFFICIENT_SCOPE');
    });
  });
}
