// The limits Shopify enforces, in the sandbox over real HTTP on both databases (docs/sandbox/limits.md): input arrays
// past 250 items and first/last past 250 refused before anything runs (top-level errors, no data, the requested cost
// charged), with the documented exceptions (productSet's 2048 variants, a single product's variants at the root); the
// uniqueValues capability refused once values exist, `eligible` answered truthfully; five bulk mutations at once per
// store, the sixth refused; the variant-creation throttle (admin PATCH and CLI), per call and per bulk line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { freePort } from './helpers/connector.js';
import { databaseTargets, harness, TEST_ADMIN_TOKEN, type Harness } from './helpers/harness.js';
import { BulkPause } from './helpers/sandbox-graphql.js';
import { mustHold, until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

type Json = Record<string, any>;

const PRODUCT_SET = /* GraphQL */ `
  mutation Set($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) {
      product { id tags variantsCount { count } variants(first: 5) { nodes { id sku } } }
      userErrors { field message code }
    }
  }
`;
const BULK_LINE = /* GraphQL */ `
  mutation Line($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input) { product { id } userErrors { field message code } }
  }
`;
const STAGE = /* GraphQL */ `
  mutation Stage($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) { stagedTargets { url parameters { name value } } userErrors { field message } }
  }
`;
const RUN = /* GraphQL */ `
  mutation Run($mutation: String!, $path: String!) {
    bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $path) { bulkOperation { id status } userErrors { field message code } }
  }
`;
const STATE = /* GraphQL */ `query State($id: ID!) { bulkOperation(id: $id) { id status url } }`;
const DEFINE = /* GraphQL */ `
  mutation Define($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition { namespace key capabilities { uniqueValues { enabled eligible } } }
      userErrors { field message code }
    }
  }
`;
const DEFINITION = /* GraphQL */ `
  query Definition($key: String!) {
    metafieldDefinition(identifier: { ownerType: PRODUCT, namespace: "custom", key: $key }) { capabilities { uniqueValues { enabled eligible } } }
  }
`;
const COUNT = /* GraphQL */ `query Count { productsCount { count } }`;

/** A product of `sizes × colors` variants (options hold at most 250 values each, as every input array). */
function grid(title: string, sizes: number, colors: number): Json {
  const S = Array.from({ length: sizes }, (_, i) => `S${i}`);
  const C = Array.from({ length: colors }, (_, i) => `C${i}`);
  return {
    title,
    productOptions: [
      { name: 'Size', values: S.map((name) => ({ name })) },
      { name: 'Color', values: C.map((name) => ({ name })) },
    ],
    variants: S.flatMap((s) =>
      C.map((c) => ({
        sku: `${title}-${s}-${c}`,
        optionValues: [
          { optionName: 'Size', name: s },
          { optionName: 'Color', name: c },
        ],
      })),
    ),
  };
}

for (const target of databaseTargets()) {
  describe(`Shopify sandbox limits (${target.name})`, () => {
    let h: Harness;
    const pause = new BulkPause();
    let base: string;
    const stores: Record<string, { id: number; token: string }> = {};

    async function call(domain: string, query: string, variables: Json = {}): Promise<Json> {
      const res = await fetch(`${base}/sandbox/shopify/${domain}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': stores[domain].token },
        body: JSON.stringify({ query, variables }),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Json;
    }
    async function data(domain: string, query: string, variables: Json = {}): Promise<Json> {
      const body = await call(domain, query, variables);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    }
    async function store(domain: string): Promise<void> {
      const { organizationId } = await h.tenant();
      const res = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: organizationId });
      assert.equal(res.statusCode, 201, res.body);
      stores[domain] = { id: res.json().id, token: res.json().access_token };
    }

    /** Stages `lines` as a bulk variables file and starts BULK_LINE over it. */
    async function bulk(domain: string, lines: Json[]): Promise<Json> {
      const staged = (
        await data(domain, STAGE, { input: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'lines.jsonl', mimeType: 'text/jsonl', httpMethod: 'POST' }] })
      ).stagedUploadsCreate.stagedTargets[0];
      const form = new FormData();
      for (const p of staged.parameters) form.append(p.name, p.value);
      form.append('file', new Blob([`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`], { type: 'text/jsonl' }), 'lines.jsonl');
      assert.equal((await fetch(staged.url, { method: 'POST', body: form })).status, 201);
      const key = staged.parameters.find((p: Json) => p.name === 'key').value;
      return (await data(domain, RUN, { mutation: BULK_LINE, path: key })).bulkOperationRunMutation;
    }
    async function results(domain: string, id: string): Promise<Json[]> {
      const op = await until(
        `operation ${id} to complete`,
        async () => {
          const op = (await data(domain, STATE, { id })).bulkOperation;
          if (op.status === 'COMPLETED') return op;
          mustHold(() => assert.ok(['CREATED', 'RUNNING'].includes(op.status), JSON.stringify(op)));
          return null;
        },
        30_000,
        20,
      );
      return (await (await fetch(op.url)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    }

    const A = 'limits-a.myshopify.com';
    const T = 'limits-throttle.myshopify.com';

    before(async () => {
      const port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, { sandbox: { bulk: { pause: pause.check } } });
      await h.app.listen({ port, host: '127.0.0.1' });
      base = `http://127.0.0.1:${port}`;
      await store(A);
      await store(T);
    });
    after(async () => h.close());

    it('refuses first or last past 250 before running, as a top-level error; 250 runs', async () => {
      const ok = await call(A, `{ products(first: 250) { nodes { id } } }`);
      assert.equal(ok.errors, undefined, JSON.stringify(ok));
      for (const arg of ['first', 'last']) {
        const res = await call(A, `query Big {\n  products(${arg}: 251) { nodes { id } }\n}`);
        assert.equal(res.data, undefined, 'no data: nothing ran');
        assert.equal(res.errors.length, 1);
        assert.deepEqual(res.errors[0].path, ['products']);
        assert.deepEqual(res.errors[0].locations, [{ line: 2, column: 3 }]);
        assert.equal(res.errors[0].extensions.code, 'BAD_REQUEST');
        assert.match(res.errors[0].message, new RegExp(`${arg} argument must be between 0 and 250`));
        assert.equal(res.extensions.cost.actualQueryCost, null);
        assert.ok(res.extensions.cost.requestedQueryCost > 0);
      }
      // Nested connections and variables count too.
      const nested = await call(A, `query N($n: Int!) { products(first: 1) { nodes { media(first: $n) { nodes { id } } } } }`, { n: 300 });
      assert.deepEqual(nested.errors[0].path, ['products', 'nodes', 'media']);
    });

    it('refuses an input array of 251 (variable or literal, nested too) with MAX_INPUT_SIZE_EXCEEDED, writing nothing', async () => {
      const before = (await data(A, COUNT)).productsCount.count;
      const tags = Array.from({ length: 251 }, (_, i) => `tag-${i}`);
      const res = await call(A, PRODUCT_SET, { input: { title: 'Too many tags', tags } });
      assert.deepEqual(Object.keys(res).sort(), ['errors', 'extensions'], 'no data');
      assert.deepEqual(res.errors, [
        {
          message: 'The input array size of 251 is greater than the maximum allowed of 250.',
          locations: [{ line: 3, column: 5 }],
          path: ['productSet', 'input', 'tags'],
          extensions: { code: 'MAX_INPUT_SIZE_EXCEEDED' },
        },
      ]);
      // Charged the requested cost, as Shopify's answers show (actualQueryCost null, the bucket down by the request).
      assert.equal(res.extensions.cost.actualQueryCost, null);
      assert.ok(res.extensions.cost.requestedQueryCost >= 10);

      const literal = `mutation { productSet(input: { title: "Literal", tags: [${tags.map((t) => JSON.stringify(t)).join(', ')}] }) { product { id } } }`;
      assert.equal((await call(A, literal)).errors[0].extensions.code, 'MAX_INPUT_SIZE_EXCEEDED');

      const metafields = Array.from({ length: 251 }, (_, i) => ({ namespace: 'custom', key: `k${i}`, type: 'single_line_text_field', value: 'x' }));
      const variant = { optionValues: [{ optionName: 'Title', name: 'Default Title' }], metafields };
      const nested = await call(A, PRODUCT_SET, {
        input: { title: 'Too many metafields', productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }], variants: [variant] },
      });
      assert.deepEqual(nested.errors[0].path, ['productSet', 'input', 'variants', 'metafields']);
      assert.equal(nested.errors[0].message, 'The input array size of 251 is greater than the maximum allowed of 250.');

      // An option's values follow the variants' maximum (2048), not 250.
      const values = Array.from({ length: 2049 }, (_, i) => ({ name: `V${i}` }));
      const tooManyValues = await call(A, PRODUCT_SET, { input: { title: 'Too many values', productOptions: [{ name: 'Size', values }] } });
      assert.deepEqual(tooManyValues.errors[0].path, ['productSet', 'input', 'productOptions', 'values']);
      assert.equal(tooManyValues.errors[0].message, 'The input array size of 2049 is greater than the maximum allowed of 2048.');

      assert.deepEqual((await data(A, PRODUCT_SET, { input: { title: '250 tags', tags: tags.slice(0, 250) } })).productSet.userErrors, []);
      assert.equal((await data(A, COUNT)).productsCount.count, before + 1);
    });

    it('productSet takes 300 variants (up to 2048); a single product at the root reads them in one page', async () => {
      const set = (await data(A, PRODUCT_SET, { input: grid('Grid', 20, 15) })).productSet;
      assert.deepEqual(set.userErrors, []);
      assert.equal(set.product.variantsCount.count, 300);
      const one = await data(A, `query One($id: ID!) { product(id: $id) { variants(first: 300) { nodes { id } } } }`, { id: set.product.id });
      assert.equal(one.product.variants.nodes.length, 300);
      // "does not apply if you make multiple queries in one request"
      const two = await call(A, `query Two($id: ID!) { product(id: $id) { variants(first: 300) { nodes { id } } } shop { id } }`, { id: set.product.id });
      assert.equal(two.data, undefined);
      assert.deepEqual(two.errors[0].path, ['product', 'variants']);
      assert.match(two.errors[0].message, /between 0 and 250/);
    });

    it('uniqueValues is refused once products hold values under the key, granted on a fresh key; eligible tells which', async () => {
      const metafields = [{ namespace: 'custom', key: 'color', type: 'single_line_text_field', value: 'red' }];
      assert.deepEqual((await data(A, PRODUCT_SET, { input: { title: 'Red one', metafields } })).productSet.userErrors, []);

      const refused = (
        await data(A, DEFINE, {
          definition: {
            name: 'Color',
            namespace: 'custom',
            key: 'color',
            type: 'single_line_text_field',
            ownerType: 'PRODUCT',
            capabilities: { uniqueValues: { enabled: true } },
          },
        })
      ).metafieldDefinitionCreate;
      assert.equal(refused.createdDefinition, null);
      assert.deepEqual(
        refused.userErrors.map((e: Json) => [e.code, e.field]),
        [['INVALID_CAPABILITY', ['definition', 'capabilities', 'uniqueValues']]],
      );

      const fresh = (
        await data(A, DEFINE, {
          definition: {
            name: 'Code',
            namespace: 'custom',
            key: 'code',
            type: 'single_line_text_field',
            ownerType: 'PRODUCT',
            capabilities: { uniqueValues: { enabled: true } },
          },
        })
      ).metafieldDefinitionCreate;
      assert.deepEqual(fresh.userErrors, []);
      assert.deepEqual(fresh.createdDefinition.capabilities.uniqueValues, { enabled: true, eligible: true });

      // Without the capability the definition is made, and reads as no longer eligible for it (values exist).
      const plain = (
        await data(A, DEFINE, { definition: { name: 'Color', namespace: 'custom', key: 'color', type: 'single_line_text_field', ownerType: 'PRODUCT' } })
      ).metafieldDefinitionCreate;
      assert.deepEqual(plain.userErrors, []);
      assert.deepEqual(plain.createdDefinition.capabilities.uniqueValues, { enabled: false, eligible: false });
      assert.deepEqual((await data(A, DEFINITION, { key: 'color' })).metafieldDefinition.capabilities.uniqueValues, { enabled: false, eligible: false });
      assert.deepEqual((await data(A, DEFINITION, { key: 'code' })).metafieldDefinition.capabilities.uniqueValues, { enabled: true, eligible: true });
    });

    it('runs five bulk mutations at once per store; the sixth is refused with OPERATION_IN_PROGRESS', async () => {
      let open!: () => void;
      pause.gate = new Promise<void>((r) => (open = r));
      const held: string[] = [];
      try {
        for (let i = 0; i < 5; i++) {
          const started = await bulk(A, [{ input: { title: `Bulk ${i}` } }]);
          assert.deepEqual(started.userErrors, [], `start ${i + 1}`);
          held.push(started.bulkOperation.id);
        }
        const sixth = await bulk(A, [{ input: { title: 'Bulk 6' } }]);
        assert.equal(sixth.bulkOperation, null);
        assert.deepEqual(sixth.userErrors, [
          {
            field: null,
            code: 'OPERATION_IN_PROGRESS',
            message: `A bulk mutation operation for this app and shop is already in progress: ${held.join(', ')}.`,
          },
        ]);
      } finally {
        pause.gate = null;
        open();
      }
      for (const id of held) assert.ok((await results(A, id))[0].data.productSet.product);
      assert.deepEqual((await bulk(A, [{ input: { title: 'Bulk again' } }])).userErrors, [], 'a place is free again');
    });

    it('a bulk line is one execution: its input arrays are capped, the number of lines is not', async () => {
      const lines: Json[] = Array.from({ length: 260 }, (_, i) => ({ input: { title: `Line ${i}` } }));
      lines[3] = { input: { title: 'Tags', tags: Array.from({ length: 251 }, (_, i) => `t${i}`) } };
      const started = await bulk(A, lines);
      assert.deepEqual(started.userErrors, []);
      const out = await results(A, started.bulkOperation.id);
      assert.equal(out.length, 260);
      const third = out.find((l) => l.__lineNumber === 3)!;
      assert.equal(third.data, undefined);
      assert.equal(third.errors[0].extensions.code, 'MAX_INPUT_SIZE_EXCEEDED');
      assert.equal(out.filter((l) => l.data?.productSet?.product).length, 259);
    });

    it('variant throttle (admin PATCH): creating variants past the limit is refused and writes nothing; updates pass', async () => {
      const patch = await h.admin('PATCH', `/admin/shops/${stores[T].id}/sandbox`, { variant_throttle_limit: 3 });
      assert.equal(patch.statusCode, 200, patch.body);
      assert.equal(patch.json().variant_throttle_limit, 3);
      const sized = (title: string, sizes: string[], ids: string[] = []) => ({
        title,
        productOptions: [{ name: 'Size', values: sizes.map((name) => ({ name })) }],
        variants: sizes.map((s, i) => ({ ...(ids[i] ? { id: ids[i] } : {}), sku: `${title}-${s}`, optionValues: [{ optionName: 'Size', name: s }] })),
      });

      const first = (await data(T, PRODUCT_SET, { input: sized('First', ['S', 'M']) })).productSet;
      assert.deepEqual(first.userErrors, []);

      const refused = await call(T, PRODUCT_SET, { input: sized('Second', ['S', 'M']) });
      assert.deepEqual(refused.data, { productSet: null });
      assert.equal(refused.errors.length, 1);
      assert.equal(refused.errors[0].extensions.code, 'VARIANT_THROTTLE_EXCEEDED');
      assert.deepEqual(refused.errors[0].path, ['productSet']);
      assert.match(refused.errors[0].message, /^Daily variant creation limit reached\. Please try again later\./);
      assert.equal((await data(T, COUNT)).productsCount.count, 1, 'nothing written');

      // An update of the existing variants creates none: it passes.
      const ids = first.product.variants.nodes.map((v: Json) => v.id);
      const update = (await data(T, PRODUCT_SET, { identifier: { id: first.product.id }, input: { ...sized('First', ['S', 'M'], ids), title: 'First v2' } }))
        .productSet;
      assert.deepEqual(update.userErrors, []);
      assert.deepEqual(
        update.product.variants.nodes.map((v: Json) => v.id),
        ids,
      );

      // Per bulk line too: one new variant fits (3), the other line's does not (lines run concurrently: either one).
      const started = await bulk(T, [{ input: sized('Third', ['S']) }, { input: sized('Fourth', ['S']) }]);
      const out = await results(T, started.bulkOperation.id);
      assert.equal(out.filter((l) => l.data?.productSet?.product).length, 1, JSON.stringify(out));
      assert.deepEqual(
        out.flatMap((l) => (l.errors ?? []).map((e: Json) => e.extensions.code)),
        ['VARIANT_THROTTLE_EXCEEDED'],
      );
      assert.equal((await data(T, COUNT)).productsCount.count, 2);

      assert.equal((await h.admin('PATCH', `/admin/shops/${stores[T].id}/sandbox`, { variant_throttle_limit: null })).json().variant_throttle_limit, null);
      assert.deepEqual((await data(T, PRODUCT_SET, { input: sized('Second', ['S', 'M']) })).productSet.userErrors, []);
    });

    if (target.name === 'pglite') {
      it('pimbridge shop sandbox-config --variant-throttle-limit N sets the throttle (and --no-variant-throttle clears it)', async () => {
        const url = `${base}`;
        const cli = (...args: string[]) =>
          promisify(execFile)(process.execPath, [...CLI, '--url', url, '--admin-token', TEST_ADMIN_TOKEN, ...args], {
            cwd: path.resolve(import.meta.dirname, '..'),
            timeout: 60_000,
          });
        const id = String(stores[T].id);
        assert.equal(JSON.parse((await cli('shop', 'sandbox-config', id, '--variant-throttle-limit', '7', '--json')).stdout).variant_throttle_limit, 7);
        assert.equal(JSON.parse((await cli('shop', 'sandbox-config', id, '--no-variant-throttle', '--json')).stdout).variant_throttle_limit, null);
      });
    }
  });
}
