// The sandbox's bulk mutations over real HTTP, on both databases: stagedUploadsCreate → multipart POST to the target
// the sandbox serves → bulkOperationRunMutation → bulkOperation(id) polled until COMPLETED → the result JSONL at its
// signed URL. Also: the same file twice makes no duplicates, five bulk mutations per store at a time, userErrors and
// errors lines, the refusals (file, mutation, upload), lines not charged to the bucket, faults, and an operation left
// RUNNING by a dead process marked FAILED when the store is next used.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { SandboxBulkRepository } from '../src/sandbox/bulk-operation.repository.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { sandboxBulkOperations } from '../src/sandbox/bulk.tables.js';
import { MetafieldDefinitionCreate, ProductSetBulk } from '../src/storefront/shopify/operations.js';
import { freePort } from './helpers/connector.js';
import { startApp } from '../src/server/start-app.js';
import { databaseTargets, harness, testConfig, type Harness } from './helpers/harness.js';
import { BulkPause } from './helpers/sandbox-graphql.js';
import { mustHold, until } from './helpers/until.js';

type Json = any;

const STAGE = /* GraphQL */ `
  mutation Stage($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) { stagedTargets { url resourceUrl parameters { name value } } userErrors { field message } }
  }
`;
const RUN = /* GraphQL */ `
  mutation Run($mutation: String!, $path: String!) {
    bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $path) {
      bulkOperation { id status type objectCount url }
      userErrors { field message code }
    }
  }
`;
const STATE = /* GraphQL */ `
  query State($id: ID!) {
    bulkOperation(id: $id) { id status errorCode type query objectCount rootObjectCount fileSize url partialDataUrl createdAt completedAt }
  }
`;
const LATEST = /* GraphQL */ `
  query Latest { bulkOperations(first: 1, query: "operation_type:mutation") { nodes { id status errorCode } } }
`;
const COUNT = /* GraphQL */ `query Count { productsCount { count } }`;

/** One JSONL line of ProductSetBulk variables: a simple product identified by its PIM id (customId). */
function line(pimId: number, title: string): Json {
  return {
    identifier: { customId: { namespace: 'pimbridge', key: 'pim_product_id', value: String(pimId) } },
    input: {
      title,
      handle: `bulk-${pimId}`,
      status: 'ACTIVE',
      productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
      variants: [{ sku: `SKU-${pimId}`, price: '9.99', optionValues: [{ optionName: 'Title', name: 'Default Title' }] }],
    },
    variants: 1,
  };
}

const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

for (const target of databaseTargets()) {
  describe(`sandbox bulk mutations (${target.name})`, () => {
    let h: Harness;
    let port: number;
    const domain = 'bulk-sandbox.myshopify.com';
    const pause = new BulkPause();
    let token: string;
    let base: string;

    before(async () => {
      port = await freePort();
      h = await harness(target, { SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` }, { sandbox: { bulk: { pause: pause.check } } });
      await h.app.listen({ port, host: '127.0.0.1' });
      token = (await h.app.services.sandbox!.stores.create(domain)).accessToken;
      base = `http://127.0.0.1:${port}/sandbox/shopify/${domain}`;
      const def = await gql(MetafieldDefinitionCreate, {
        definition: {
          name: 'PIM product id',
          namespace: 'pimbridge',
          key: 'pim_product_id',
          type: 'single_line_text_field',
          ownerType: 'PRODUCT',
          capabilities: { uniqueValues: { enabled: true } },
        },
      });
      assert.ok(def.data.metafieldDefinitionCreate.createdDefinition, JSON.stringify(def));
    });
    after(async () => h.close());

    async function gql(query: string, variables: Json = {}): Promise<Json> {
      const res = await fetch(`${base}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
      });
      assert.equal(res.status, 200);
      return res.json();
    }

    async function stage(): Promise<{ url: string; resourceUrl: string | null; parameters: { name: string; value: string }[] }> {
      const res = await gql(STAGE, {
        input: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'products.jsonl', mimeType: 'text/jsonl', httpMethod: 'POST' }],
      });
      assert.deepEqual(res.data.stagedUploadsCreate.userErrors, []);
      return res.data.stagedUploadsCreate.stagedTargets[0];
    }

    async function upload(
      t: { url: string; parameters: { name: string; value: string }[] },
      content: string,
      override: Record<string, string> = {},
    ): Promise<Response> {
      const form = new FormData();
      for (const p of t.parameters) form.append(p.name, override[p.name] ?? p.value);
      form.append('file', new Blob([content], { type: 'text/jsonl' }), 'products.jsonl');
      return fetch(t.url, { method: 'POST', body: form });
    }

    /** Stages and uploads `content`; returns the stagedUploadPath. */
    async function staged(content: string): Promise<string> {
      const t = await stage();
      const res = await upload(t, content);
      assert.equal(res.status, 201, await res.clone().text());
      return t.parameters.find((p) => p.name === 'key')!.value;
    }

    async function run(path: string, mutation = ProductSetBulk): Promise<Json> {
      return (await gql(RUN, { mutation, path })).data.bulkOperationRunMutation;
    }

    async function finished(id: string): Promise<Json> {
      return until(
        `operation ${id} to finish`,
        async () => {
          const op = (await gql(STATE, { id })).data.bulkOperation;
          if (['CREATED', 'RUNNING'].includes(op.status)) throw new Error(`operation ${id} still ${op.status}`);
          return op;
        },
        30_000,
        20,
      );
    }

    async function results(url: string): Promise<Json[]> {
      const res = await fetch(url); // no token: the URL is signed
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /jsonl/);
      const text = await res.text();
      assert.ok(text.endsWith('\n'));
      return text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    }

    let firstIds: string[];

    it('stages a target served by the sandbox, takes the upload, runs every line and serves the result file', async () => {
      const t = await stage();
      assert.equal(t.url, `${base}/staged-uploads`);
      assert.equal(t.resourceUrl, null);
      const names = t.parameters.map((p) => p.name);
      for (const n of ['key', 'policy', 'x-goog-signature', 'Content-Type', 'success_action_status']) assert.ok(names.includes(n), n);
      const key = t.parameters.find((p) => p.name === 'key')!.value;
      assert.match(key, /^tmp\/\d+\/bulk\/[0-9a-f-]{36}\/products\.jsonl$/);

      const content = jsonl([line(1, 'Bulk One'), line(2, 'Bulk Two'), line(3, '   '), { identifier: line(4, 'x').identifier, variants: 1 }]);
      const up = await upload(t, content);
      assert.equal(up.status, 201);
      assert.match(await up.text(), /<PostResponse>.*<Key>tmp\/.*<\/Key>/);

      const started = await run(key);
      assert.deepEqual(started.userErrors, []);
      assert.equal(started.bulkOperation.type, 'MUTATION');
      assert.equal(started.bulkOperation.status, 'CREATED');
      assert.equal(started.bulkOperation.url, null);

      const op = await finished(started.bulkOperation.id);
      assert.equal(op.status, 'COMPLETED');
      assert.equal(op.errorCode, null);
      assert.equal(op.objectCount, '4', 'UnsignedInt64 is a string, as in Shopify');
      assert.equal(op.rootObjectCount, '4');
      assert.equal(op.query, ProductSetBulk);
      assert.ok(op.completedAt);
      assert.equal(op.partialDataUrl, null);
      assert.match(op.url, new RegExp(`^${base}/bulk-operation-results/\\d+\\.jsonl\\?signature=[0-9a-f]{64}$`));

      const lines = await results(op.url);
      assert.equal(String(Buffer.byteLength(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)), op.fileSize);
      assert.deepEqual(lines.map((l) => l.__lineNumber).sort(), [0, 1, 2, 3]);
      const byLine = new Map(lines.map((l) => [l.__lineNumber, l]));
      const one = byLine.get(0).data.productSet;
      assert.deepEqual(one.userErrors, []);
      assert.equal(one.product.title, 'Bulk One');
      assert.equal(one.product.handle, 'bulk-1');
      assert.deepEqual(
        one.product.variants.nodes.map((v: Json) => v.sku),
        ['SKU-1'],
      );
      assert.ok(one.product.createdAt);
      assert.equal(byLine.get(1).data.productSet.product.handle, 'bulk-2');
      // A line the product rules refuse: its userErrors, in the line's data.
      assert.equal(byLine.get(2).data.productSet.product, null);
      assert.deepEqual(
        byLine.get(2).data.productSet.userErrors.map((e: Json) => e.code),
        ['INVALID_INPUT'],
      );
      // A line whose variables do not fit the document: errors for the whole line.
      assert.equal(byLine.get(3).data, undefined);
      assert.match(byLine.get(3).errors[0].message, /\$input/);

      firstIds = [one.product.id, byLine.get(1).data.productSet.product.id];
      assert.equal((await gql(COUNT)).data.productsCount.count, 2);
    });

    it('the same file again updates the same products: no duplicates', async () => {
      const content = jsonl([line(1, 'Bulk One v2'), line(2, 'Bulk Two v2')]);
      const op = await finished((await run(await staged(content))).bulkOperation.id);
      assert.equal(op.status, 'COMPLETED');
      const lines = await results(op.url);
      const ids = lines.sort((a, b) => a.__lineNumber - b.__lineNumber).map((l) => l.data.productSet.product.id);
      assert.deepEqual(ids, firstIds);
      assert.equal(lines[0].data.productSet.product.title, 'Bulk One v2');
      assert.equal((await gql(COUNT)).data.productsCount.count, 2);
    });

    it('runs up to five bulk mutations per store at a time: a sixth start answers OPERATION_IN_PROGRESS', async () => {
      let open!: () => void;
      pause.gate = new Promise<void>((r) => (open = r));
      try {
        const held: Json[] = [];
        for (let i = 0; i < 5; i++) {
          const started = await run(await staged(jsonl([line(10 + 2 * i, 'Held'), line(11 + 2 * i, 'Held too')])));
          assert.deepEqual(started.userErrors, [], `start ${i + 1}`);
          held.push(started.bulkOperation);
        }
        const sixth = await run(await staged(jsonl([line(40, 'Refused')])));
        assert.equal(sixth.bulkOperation, null);
        assert.equal(sixth.userErrors[0].code, 'OPERATION_IN_PROGRESS');
        assert.equal(sixth.userErrors[0].field, null);
        for (const op of held) assert.match(sixth.userErrors[0].message, new RegExp(op.id));
        const listed = await gql(LATEST);
        assert.ok(listed.data, JSON.stringify(listed));
        const latest = listed.data.bulkOperations.nodes[0];
        assert.equal(latest.id, held[4].id);
        assert.equal(latest.status, 'RUNNING');
        open();
        for (const op of held) assert.equal((await finished(op.id)).status, 'COMPLETED');
      } finally {
        pause.gate = null;
        open();
      }
      const again = await run(await staged(jsonl([line(40, 'Now it runs')])));
      assert.deepEqual(again.userErrors, []);
      assert.equal((await finished(again.bulkOperation.id)).status, 'COMPLETED');
    });

    it('refuses a missing file, an invalid file and a mutation it cannot run in bulk', async () => {
      assert.equal((await run('tmp/1/bulk/nope/products.jsonl')).userErrors[0].code, 'NO_SUCH_FILE');
      const never = (await stage()).parameters.find((p) => p.name === 'key')!.value;
      assert.equal((await run(never)).userErrors[0].code, 'NO_SUCH_FILE', 'a target nothing was posted to');
      assert.equal((await run(await staged('{"input": {}}\nnot json\n'))).userErrors[0].code, 'INVALID_STAGED_UPLOAD_FILE');
      const path = await staged(jsonl([line(20, 'x')]));
      for (const mutation of [
        'mutation { productSet(input: {title: "x"}) { product { id } } ',
        'mutation D($id: ID!) { productDelete(input: {id: $id}) { deletedProductId } }',
        'query { shop { id } }',
        'mutation M($input: ProductSetInput!) { productSet(input: $input) { product { nope } } }',
      ]) {
        const res = await run(path, mutation);
        assert.equal(res.bulkOperation, null);
        assert.equal(res.userErrors[0].code, 'INVALID_MUTATION', mutation);
      }
      // One connection at most in the selection ("limited to one connection field"), through fragments too.
      for (const mutation of [
        'mutation M($input: ProductSetInput!) { productSet(input: $input) { product { variants(first: 5) { nodes { id } } media(first: 5) { nodes { id } } } } }',
        'mutation M($input: ProductSetInput!) { productSet(input: $input) { product { ...P } } } fragment P on Product { variants(first: 5) { nodes { id } } metafields(first: 5) { nodes { id } } }',
      ]) {
        const res = await run(path, mutation);
        assert.equal(res.bulkOperation, null);
        assert.deepEqual(res.userErrors[0], {
          field: ['mutation'],
          message: 'Bulk mutations cannot contain more than 1 connection.',
          code: 'INVALID_MUTATION',
        });
      }
      const one = await run(path, 'mutation M($input: ProductSetInput!) { productSet(input: $input) { product { variants(first: 5) { nodes { id } } } } }');
      assert.deepEqual(one.userErrors, []);
      assert.equal((await finished(one.bulkOperation.id)).status, 'COMPLETED', 'a selection of one connection runs');
      const other = await gql(STAGE, { input: [{ resource: 'IMAGE', filename: 'a.jpg', mimeType: 'image/jpeg', httpMethod: 'POST' }] });
      assert.equal(other.data.stagedUploadsCreate.userErrors.length, 1);
    });

    it('the upload target checks the signed policy and the size, as a storage service', async () => {
      const t = await stage();
      const forged = await upload(t, jsonl([line(30, 'x')]), { 'x-goog-signature': '0'.repeat(64) });
      assert.equal(forged.status, 403);
      assert.match(await forged.text(), /<Code>SignatureDoesNotMatch<\/Code>/);
      const otherKey = await upload(t, jsonl([line(30, 'x')]), { key: 'tmp/1/bulk/other/x.jsonl' });
      assert.equal(otherKey.status, 400);
      assert.match(await otherKey.text(), /<Code>InvalidPolicyDocument<\/Code>/);
      // The same target posted to a server of the same store (same database) whose uploads are capped at 64 bytes.
      const smallPort = await freePort();
      const small = await startApp({
        config: testConfig({ SHOPIFY_SANDBOX: 'true', PUBLIC_URL: `http://127.0.0.1:${smallPort}` }),
        database: h.database,
        logger: false,
        services: { sandbox: { bulk: { maxUploadBytes: 64 } } },
      });
      try {
        await small.listen({ port: smallPort, host: '127.0.0.1' });
        const big = await upload({ ...t, url: t.url.replace(`//127.0.0.1:${port}/`, `//127.0.0.1:${smallPort}/`) }, 'x'.repeat(200));
        assert.equal(big.status, 400);
        assert.match(await big.text(), /<Code>EntityTooLarge<\/Code>/);
      } finally {
        await small.close();
      }
      const notForm = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(notForm.status, 400);
      const unknown = await upload({ ...t, url: t.url.replace(domain, 'nobody.myshopify.com') }, 'x');
      assert.equal(unknown.status, 404);
      const badResult = await fetch(`${base}/bulk-operation-results/1.jsonl?signature=${'a'.repeat(64)}`);
      assert.equal(badResult.status, 404);
    });

    it('does not charge the lines to the cost bucket (a small bucket runs 40 productSet lines)', async () => {
      await h.app.services.sandbox!.stores.configure(domain, { bucket_size: 60, restore_rate: 1 });
      try {
        const started = await run(await staged(jsonl(Array.from({ length: 40 }, (_, i) => line(100 + i, `Cheap ${i}`)))));
        // Charged per line, 40 productSets (≥ 11 points each) would drain a 60-point bucket restoring 1 point/s many
        // times over; uncharged, only the calls count: staging, the start and the polls (1 point each).
        let polls = 0;
        const op = await until(
          'the operation to complete',
          async () => {
            polls++;
            const op = (await gql(STATE, { id: started.bulkOperation.id })).data.bulkOperation;
            if (op.status === 'COMPLETED') return op;
            mustHold(() => assert.ok(op.status === 'RUNNING' || op.status === 'CREATED', JSON.stringify(op)));
            return null;
          },
          30_000,
          100,
        );
        assert.equal(op.objectCount, '40');
        const res = await gql(COUNT);
        assert.ok(res.extensions.cost.throttleStatus.currentlyAvailable >= 60 - 13 - 12 - polls - 1 - 3, JSON.stringify({ polls, cost: res.extensions.cost }));
      } finally {
        await h.app.services.sandbox!.stores.configure(domain, { bucket_size: null, restore_rate: null });
      }
    });

    it("the store's faults apply to the bulk calls", async () => {
      await h.app.services.sandbox!.stores.configure(domain, { error_rate: 1 });
      try {
        const res = await fetch(`${base}/admin/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
          body: JSON.stringify({ query: STAGE, variables: { input: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'a.jsonl', mimeType: 'text/jsonl' }] } }),
        });
        assert.ok([500, 502, 503].includes(res.status));
      } finally {
        await h.app.services.sandbox!.stores.configure(domain, { error_rate: 0 });
      }
    });

    it('an operation left RUNNING by a process that died is FAILED (INTERNAL_SERVER_ERROR) when the store is next used', async () => {
      const store = (await h.app.services.sandbox!.stores.find(domain))!;
      // Five, so that live owners would fill the store's five places.
      const rows = await h.database.db
        .insert(sandboxBulkOperations)
        .values(
          Array.from({ length: 5 }, () => ({ storeId: store.id, status: 'RUNNING', mutation: ProductSetBulk, stagedUploadPath: 'tmp/dead', objectCount: 7 })),
        )
        .returning({ id: sandboxBulkOperations.id });
      const row = rows[0];
      const id = `gid://shopify/BulkOperation/${row.id}`;

      if (target.name === 'postgres') {
        // Their owner alive elsewhere (holding the owner locks): they stay RUNNING and block a new start.
        const other = new pg.Client({ connectionString: (h.database.db as Json).$client.options.connectionString });
        await other.connect();
        try {
          for (const r of rows) await other.query('select pg_advisory_lock($1, $2)', [1_651_001, r.id]);
          assert.equal((await gql(STATE, { id })).data.bulkOperation.status, 'RUNNING');
          assert.equal((await run(await staged(jsonl([line(200, 'x')])))).userErrors[0].code, 'OPERATION_IN_PROGRESS');
        } finally {
          await other.end(); // the owner's process dies: its session locks go with it
        }
      }

      const op = (await gql(STATE, { id })).data.bulkOperation;
      assert.equal(op.status, 'FAILED');
      assert.equal(op.errorCode, 'INTERNAL_SERVER_ERROR');
      assert.equal(op.url, null);
      const next = await run(await staged(jsonl([line(201, 'After the crash')])));
      assert.deepEqual(next.userErrors, []);
      assert.equal((await finished(next.bulkOperation.id)).status, 'COMPLETED');
    });

    it('a server stopping mid-run marks its running operation FAILED', async () => {
      const bulk = h.app.services.sandbox!.graphql.bulk;
      pause.gate = new Promise<void>(() => {});
      const started = await run(await staged(jsonl([line(300, 'Interrupted')])));
      assert.deepEqual(started.userErrors, []);
      assert.equal(bulk.runningCount, 1);
      await h.app.close();
      // The server is gone: the operation as it left it, through the sandbox's repository.
      const store = (await new SandboxStoreRepository(h.database.db).findByDomain(domain))!;
      const row = (await new SandboxBulkRepository(h.database.db).operation(store.id, Number(started.bulkOperation.id.split('/').pop())))!;
      assert.equal(row.status, 'FAILED');
      assert.equal(row.errorCode, 'INTERNAL_SERVER_ERROR');
    });
  });
}
