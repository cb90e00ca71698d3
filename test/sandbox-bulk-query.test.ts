// The sandbox's bulk queries over real HTTP, on both databases: bulkOperationRunQuery → bulkOperation(id) polled until
// COMPLETED → the JSONL at its signed URL, one line per node with nested connections' nodes on lines of their own
// naming their parent in `__parentId` (parents first; grouped under their parent with groupObjects: true), GIDs as ids,
// objectCount and rootObjectCount. Shopify's rules for the document (at least one connection, at most five, two levels
// of nesting, no top-level node/nodes, edges > node, the parent's id, a query and no variables) answer its userErrors;
// five queries run at a time per store (the sixth: OPERATION_IN_PROGRESS) while mutations count apart; the operations
// are listed by type. The Shopify adapter's catalogue read (CatalogueProducts) reads the store back into products.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { BulkOperationRunQuery, CatalogueProducts } from '../src/storefront/shopify/operations.js';
import { ShopifyAdapter } from '../src/storefront/shopify/shopify.adapter.js';
import type { StorefrontShop } from '../src/storefront/port/shop.js';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';
import { BulkPause } from './helpers/sandbox-graphql.js';
import { until } from './helpers/until.js';

type Json = any;

const PRODUCT_SET = /* GraphQL */ `
  mutation Seed($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) { product { id handle } userErrors { field message code } }
  }
`;
const RUN = /* GraphQL */ `
  mutation Run($query: String!, $group: Boolean!) {
    bulkOperationRunQuery(query: $query, groupObjects: $group) {
      bulkOperation { id status type query }
      userErrors { field message code }
    }
  }
`;
const STATE = /* GraphQL */ `
  query State($id: ID!) {
    bulkOperation(id: $id) { id status errorCode type objectCount rootObjectCount fileSize url partialDataUrl completedAt }
  }
`;
const QUERY = `{ products { edges { node { id handle title variants { edges { node { id sku price selectedOptions { name value } } } } media { edges { node { id ... on MediaImage { image { url } } } } } } } } }`;

function productInput(handle: string, variants: { sku: string; price: string; size?: string }[], images: string[] = []): Json {
  const sized = variants.some((v) => v.size);
  return {
    title: `Product ${handle}`,
    handle,
    status: 'ACTIVE',
    productOptions: sized ? [{ name: 'Size', values: variants.map((v) => ({ name: v.size })) }] : [{ name: 'Title', values: [{ name: 'Default Title' }] }],
    variants: variants.map((v) => ({
      sku: v.sku,
      price: v.price,
      optionValues: [sized ? { optionName: 'Size', name: v.size } : { optionName: 'Title', name: 'Default Title' }],
    })),
    ...(images.length ? { files: images.map((url) => ({ originalSource: url, contentType: 'IMAGE' })) } : {}),
  };
}

for (const target of databaseTargets()) {
  describe(`sandbox bulk queries (${target.name})`, () => {
    let h: Harness;
    const pause = new BulkPause();
    let base: string;
    let token: string;
    const domain = 'bulk-query.myshopify.com';
    let photos: http.Server;
    let photoUrl: string;

    async function gql(query: string, variables: Json = {}): Promise<Json> {
      const res = await fetch(`${base}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json;
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    }
    const run = async (query: string, group = false) => (await gql(RUN, { query, group })).bulkOperationRunQuery;
    const finished = async (id: string): Promise<Json> => {
      return until(`bulk operation ${id} to finish`, async () => {
        const op = (await gql(STATE, { id })).bulkOperation;
        return ['CREATED', 'RUNNING'].includes(op.status) ? null : op;
      });
    };
    const lines = async (url: string): Promise<Json[]> => {
      const res = await fetch(url);
      assert.equal(res.status, 200);
      return (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    };

    before(async () => {
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c04030' } })
        .png()
        .toBuffer();
      photos = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
      photoUrl = `http://127.0.0.1:${(photos.address() as net.AddressInfo).port}/photo.png`;
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, { sandbox: { bulk: { pause: pause.check } } });
      await h.app.listen({ port, host: '127.0.0.1' });
      token = (await h.app.services.sandbox!.stores.create(domain)).accessToken;
      // The photo is on a local server (127.0.0.1): the store opts in to fetch it, as a real shop would not.
      await h.app.services.sandbox!.stores.configure(domain, { allow_private_media_sources: true });
      base = `http://127.0.0.1:${port}/sandbox/shopify/${domain}`;
      // Three products: two variants and an image; one variant; three variants.
      for (const input of [
        productInput(
          'alpha',
          [
            { sku: 'A-S', price: '10.00', size: 'S' },
            { sku: 'A-M', price: '11.00', size: 'M' },
          ],
          [photoUrl],
        ),
        productInput('beta', [{ sku: 'B-1', price: '5.00' }]),
        productInput('gamma', [
          { sku: 'G-1', price: '1.00', size: '1' },
          { sku: 'G-2', price: '2.00', size: '2' },
          { sku: 'G-3', price: '3.00', size: '3' },
        ]),
      ]) {
        const made = (await gql(PRODUCT_SET, { input })).productSet;
        assert.deepEqual(made.userErrors, []);
      }
      // The image is fetched by the sandbox after the productSet: wait until it is READY (it then has a URL).
      await until('the image to be processed', async () => {
        const data = await gql(`{ products(first: 5, query: "handle:alpha") { nodes { media(first: 5) { nodes { status } } } } }`);
        return data.products.nodes[0].media.nodes[0].status === 'READY';
      });
    });
    after(async () => {
      await h?.close();
      await new Promise<void>((resolve) => photos?.close(() => resolve()));
    });

    it('runs a products query: one line per node, children with __parentId after their parent, counts and a signed URL', async () => {
      const started = await run(QUERY);
      assert.deepEqual(started.userErrors, []);
      assert.equal(started.bulkOperation.type, 'QUERY');
      assert.equal(started.bulkOperation.query, QUERY);
      const op = await finished(started.bulkOperation.id);
      assert.equal(op.status, 'COMPLETED', JSON.stringify(op));
      assert.equal(op.type, 'QUERY');
      const out = await lines(op.url);
      const products = out.filter((l) => !l.__parentId);
      assert.deepEqual(
        products.map((p) => p.handle),
        ['alpha', 'beta', 'gamma'],
      );
      for (const p of products) {
        assert.match(p.id, /^gid:\/\/shopify\/Product\/\d+$/);
        assert.equal('variants' in p, false, 'nested connections are not on the parent line');
        assert.equal('media' in p, false);
      }
      const variants = out.filter((l) => typeof l.id === 'string' && l.id.startsWith('gid://shopify/ProductVariant/'));
      assert.equal(variants.length, 6);
      for (const v of variants) {
        const parent = out.findIndex((l) => l.id === v.__parentId);
        assert.ok(parent >= 0 && parent < out.indexOf(v), 'the parent line comes first');
      }
      const alpha = products[0];
      assert.deepEqual(
        variants.filter((v) => v.__parentId === alpha.id).map((v) => [v.sku, v.price, v.selectedOptions]),
        [
          ['A-S', '10.00', [{ name: 'Size', value: 'S' }]],
          ['A-M', '11.00', [{ name: 'Size', value: 'M' }]],
        ],
      );
      const media = out.filter((l) => typeof l.id === 'string' && l.id.startsWith('gid://shopify/MediaImage/'));
      assert.equal(media.length, 1);
      assert.equal(media[0].__parentId, alpha.id);
      assert.match(media[0].image.url, /\/cdn\/files\//);
      // Ungrouped (the default): the page's products come first, their children after them.
      assert.deepEqual(
        out.slice(0, 3).map((l) => l.__parentId),
        [undefined, undefined, undefined],
      );
      assert.equal(op.objectCount, String(out.length));
      assert.equal(op.rootObjectCount, '3');
      assert.equal(op.fileSize, String(Buffer.byteLength(`${out.map((l) => JSON.stringify(l)).join('\n')}\n`)));
      // The URL is signed: without its signature it is refused.
      assert.equal((await fetch(op.url.replace(/signature=[^&]+/, 'signature=0'))).status, 404);
    });

    it('groupObjects: true puts each node’s children directly under it', async () => {
      const op = await finished((await run(QUERY, true)).bulkOperation.id);
      const out = await lines(op.url);
      let current: string | null = null;
      for (const l of out) {
        if (!l.__parentId) current = l.id;
        else assert.equal(l.__parentId, current, 'a child follows its parent');
      }
    });

    it('a query finding nothing completes with no file; a filtered query reads only its products', async () => {
      const none = await finished((await run('{ products(query: "handle:nope") { edges { node { id } } } }')).bulkOperation.id);
      assert.deepEqual([none.status, none.objectCount, none.url, none.fileSize], ['COMPLETED', '0', null, null]);
      const one = await finished(
        (await run('{ products(query: "handle:gamma") { edges { node { id variants { edges { node { sku } } } } } } }')).bulkOperation.id,
      );
      const out = await lines(one.url);
      assert.deepEqual(
        out.map((l) => l.sku ?? 'product'),
        ['product', 'G-1', 'G-2', 'G-3'],
      );
    });

    it('refuses what Shopify refuses, with its userErrors (field ["query"], code INVALID)', async () => {
      const refused = async (query: string) => {
        const r = await run(query);
        assert.equal(r.bulkOperation, null, query);
        for (const e of r.userErrors) {
          assert.deepEqual(e.field, ['query']);
          assert.equal(e.code, 'INVALID');
        }
        return r.userErrors.map((e: Json) => e.message);
      };
      assert.deepEqual(await refused('{ shop { id } }'), ['Bulk queries must contain at least one connection.']);
      assert.deepEqual(await refused('{ node(id: "gid://shopify/Product/1") { id } }'), [
        'Bulk queries cannot contain a top level `node` field.',
        'Bulk queries must contain at least one connection.',
      ]);
      assert.deepEqual(
        await refused(
          '{ products { edges { node { id variants { edges { node { id } } } metafields { edges { node { id } } } collections { edges { node { id } } } media { edges { node { id } } } sellingPlanGroups { edges { node { id } } } } } } }',
        ),
        ['Bulk queries cannot contain more than 5 connections.'],
      );
      assert.deepEqual(await refused('{ collections { edges { node { id products { edges { node { id variants { edges { node { id } } } } } } } } } }'), [
        'Bulk queries cannot contain connections with a nesting depth greater than 2.',
      ]);
      assert.match((await refused('{ products { nodes { id } } }'))[0], /must select their contents using 'edges' > 'node'.*'products'/);
      assert.match((await refused('{ products { edges { node { title variants { edges { node { id } } } } } } }'))[0], /must select the 'id' field.*products/);
      assert.deepEqual(await refused('mutation { productDelete(input: { id: "gid://shopify/Product/1" }) { deletedProductId } }'), [
        'Invalid operation type. Only `query` operations are supported.',
      ]);
      assert.match((await refused('{ products { edges { node { id }'))[0], /^Invalid bulk query: Syntax Error/);
      assert.match((await refused('{ products { edges { node { nope } } } }'))[0], /^Invalid bulk query: Cannot query field "nope"/);
      assert.match((await refused('query Q($h: String) { products(query: $h) { edges { node { id } } } }'))[0], /take no variables/);
      assert.deepEqual(await refused('{ a: products { edges { node { id } } } b: products { edges { node { id } } } }'), [
        'Bulk queries cannot contain more than one top level field.',
      ]);
    });

    it('five queries run at a time per store (the sixth: OPERATION_IN_PROGRESS); mutations count apart; listed by type', async () => {
      let open!: () => void;
      pause.gate = new Promise<void>((resolve) => (open = resolve));
      try {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const r = await run('{ products { edges { node { id } } } }');
          assert.deepEqual(r.userErrors, []);
          ids.push(r.bulkOperation.id);
        }
        const sixth = await run('{ products { edges { node { id } } } }');
        assert.equal(sixth.bulkOperation, null);
        assert.deepEqual(sixth.userErrors, [
          { field: null, code: 'OPERATION_IN_PROGRESS', message: `A bulk query operation for this app and shop is already in progress: ${ids.join(', ')}.` },
        ]);
        // A bulk mutation is not held back by running queries ("can run at the same time per shop").
        const mutation = await gql(
          `mutation { bulkOperationRunMutation(mutation: "mutation M($id: ID!) { publishablePublish(id: $id, input: []) { userErrors { message } } }", stagedUploadPath: "nope") { userErrors { code } } }`,
        );
        assert.deepEqual(mutation.bulkOperationRunMutation.userErrors, [{ code: 'NO_SUCH_FILE' }]);
        const listed = await gql(
          `{ q: bulkOperations(first: 10, query: "operation_type:query status:running") { nodes { id type } } m: bulkOperations(first: 10, query: "operation_type:mutation") { nodes { type } } current: currentBulkOperation { id type } }`,
        );
        assert.deepEqual(listed.q.nodes.map((n: Json) => n.id).sort(), [...ids].sort());
        assert.ok(listed.q.nodes.every((n: Json) => n.type === 'QUERY'));
        assert.ok(listed.m.nodes.every((n: Json) => n.type === 'MUTATION'));
        assert.deepEqual(listed.current, { id: ids[4], type: 'QUERY' });
        open();
        for (const id of ids) assert.equal((await finished(id)).status, 'COMPLETED');
      } finally {
        open();
        pause.gate = null;
      }
      // Once they finished, a new one starts.
      assert.deepEqual((await run('{ products { edges { node { id } } } }')).userErrors, []);
    });

    it('the adapter reads the store into products (CatalogueProducts, one bulk query, polled until done)', async () => {
      const adapter = new ShopifyAdapter({ retry: { maxAttempts: 2 } });
      const shop: StorefrontShop = { domain, apiBaseUrl: base, accessToken: token };
      // The adapter's bulk query passes the sandbox's rules (and so Shopify's) as it is.
      const { operationId } = await adapter.startCatalogueRead(shop);
      const state = await until('the catalogue read', async () => {
        const read = await adapter.catalogueReadState(shop, operationId);
        return read.state === 'running' ? null : read;
      });
      assert.equal(state.state, 'completed', JSON.stringify(state));
      const products = state.state === 'completed' ? state.products : [];
      assert.deepEqual(
        products.map((p) => [p.handle, p.variants.map((v) => v.sku), p.images.length]),
        [
          ['alpha', ['A-S', 'A-M'], 1],
          ['beta', ['B-1'], 0],
          ['gamma', ['G-1', 'G-2', 'G-3'], 0],
        ],
      );
      const alpha = products[0];
      assert.equal(alpha.title, 'Product alpha');
      assert.equal(alpha.status, 'ACTIVE');
      assert.equal(alpha.pimProductId, null);
      assert.match(alpha.images[0].url ?? '', /\/cdn\/files\//);
      assert.deepEqual(alpha.variants[1].options, [{ name: 'Size', value: 'M' }]);
      assert.match(alpha.variants[0].inventoryItemId ?? '', /^gid:\/\/shopify\/InventoryItem\//);
      assert.equal(products[1].variants[0].price, '5.00');
      // A second read of an unknown operation is a failed read, not a throw.
      assert.equal((await adapter.catalogueReadState(shop, 'gid://shopify/BulkOperation/999999')).state, 'failed');
      assert.ok(BulkOperationRunQuery.includes('bulkOperationRunQuery') && CatalogueProducts.includes('products'));
    });
  });
}
