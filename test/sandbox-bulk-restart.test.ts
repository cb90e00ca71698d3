// A sandbox process SIGKILLed while a bulk mutation runs: started again on the same database, it reports the
// operation FAILED (INTERNAL_SERVER_ERROR) when the store is next used, and the store takes a new bulk mutation.
// `pimbridge sandbox` as a real child process, on a PGlite data directory and on a fresh PostgreSQL database.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { MetafieldDefinitionCreate, ProductSetBulk } from '../src/storefront/shopify/operations.js';
import { SandboxStoreRepository } from '../src/sandbox/sandbox-store.repository.js';
import { SandboxStoreService } from '../src/sandbox/sandbox-store.service.js';
import { sandboxMigrations } from '../src/sandbox/sandbox.module.js';
import { freshStorage, type Storage } from './helpers/bridge-processes.js';
import { freePort } from './helpers/connector.js';
import { until } from './helpers/until.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOMAIN = 'bulk-restart.myshopify.com';

function startSandbox(env: Record<string, string>, port: number): { child: ChildProcess; exited: Promise<unknown>; output: () => string } {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'LOG_LEVEL', 'TEST_DATABASE_URL'].includes(k)),
  );
  const child = spawn(process.execPath, [...CLI, 'sandbox', '--port', String(port)], {
    cwd: ROOT,
    env: { ...clean, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output = (output + d).slice(-10_000)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output = (output + d).slice(-10_000)));
  const exited = new Promise((resolve) => child.once('close', resolve));
  return { child, exited, output: () => output };
}

/** A sandbox process starting and a 5,000-line operation: waits of up to a minute, polled every 50 ms. */
const WAIT_MS = 60_000;
const EVERY_MS = 50;

const kinds: ('pglite' | 'postgres')[] = testDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite'];

for (const kind of kinds) {
  describe(`sandbox bulk mutation across a SIGKILL (${kind})`, () => {
    let store: Storage;
    let token: string;
    let port: number;
    let proc: ReturnType<typeof startSandbox> | null = null;

    before(async () => {
      store = await freshStorage(kind, 'bulkrestart', testDatabaseUrl() ?? undefined);
      const db = await store.open();
      try {
        await db.migrate(sandboxMigrations);
        token = (await new SandboxStoreService(new SandboxStoreRepository(db.db)).create(DOMAIN)).accessToken;
      } finally {
        await db.close();
      }
      port = await freePort();
    });
    after(async () => {
      if (proc && proc.child.exitCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited;
      }
      await store.drop();
    });

    const base = () => `http://127.0.0.1:${port}/sandbox/shopify/${DOMAIN}`;
    async function gql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
      const res = await fetch(`${base()}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
        body: JSON.stringify({ query, variables }),
      });
      assert.equal(res.status, 200);
      return res.json();
    }
    async function start(): Promise<void> {
      proc = startSandbox(store.env, port);
      await until('the sandbox', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, WAIT_MS, EVERY_MS);
    }
    async function bulk(lines: number): Promise<string> {
      const staged = await gql('mutation S($i: [StagedUploadInput!]!) { stagedUploadsCreate(input: $i) { stagedTargets { url parameters { name value } } } }', {
        i: [{ resource: 'BULK_MUTATION_VARIABLES', filename: 'p.jsonl', mimeType: 'text/jsonl', httpMethod: 'POST' }],
      });
      const target = staged.data.stagedUploadsCreate.stagedTargets[0];
      const form = new FormData();
      for (const p of target.parameters) form.append(p.name, p.value);
      const jsonl = Array.from({ length: lines }, (_, i) =>
        JSON.stringify({
          identifier: { customId: { namespace: 'pimbridge', key: 'pim_product_id', value: `${Date.now()}-${i}` } },
          input: {
            title: `Restart ${i}`,
            productOptions: [{ name: 'Title', values: [{ name: 'Default Title' }] }],
            variants: [{ sku: `R-${i}`, price: '1.00', optionValues: [{ optionName: 'Title', name: 'Default Title' }] }],
          },
          variants: 1,
          media: 1,
        }),
      ).join('\n');
      form.append('file', new Blob([jsonl]), 'p.jsonl');
      assert.equal((await fetch(target.url, { method: 'POST', body: form })).status, 201);
      const key = target.parameters.find((p: { name: string }) => p.name === 'key').value;
      const run = await gql(
        'mutation R($m: String!, $p: String!) { bulkOperationRunMutation(mutation: $m, stagedUploadPath: $p) { bulkOperation { id } userErrors { code message } } }',
        { m: ProductSetBulk, p: key },
      );
      assert.deepEqual(run.data.bulkOperationRunMutation.userErrors, []);
      return run.data.bulkOperationRunMutation.bulkOperation.id;
    }
    const state = async (id: string) => (await gql('query B($id: ID!) { bulkOperation(id: $id) { status errorCode objectCount } }', { id })).data.bulkOperation;

    it('is FAILED with INTERNAL_SERVER_ERROR after the restart, and the store runs the next one', async () => {
      await start();
      await gql(MetafieldDefinitionCreate, {
        definition: {
          name: 'PIM product id',
          namespace: 'pimbridge',
          key: 'pim_product_id',
          type: 'single_line_text_field',
          ownerType: 'PRODUCT',
          capabilities: { uniqueValues: { enabled: true } },
        },
      });
      const id = await bulk(5000);
      // Running, with some lines done (objectCount is reported about every 0.5 s).
      await until(
        'progress',
        async () => {
          const s = await state(id);
          return s.status === 'RUNNING' && Number(s.objectCount) > 0 ? s : undefined;
        },
        WAIT_MS,
        EVERY_MS,
      );
      proc!.child.kill('SIGKILL');
      await proc!.exited;

      await start();
      const failed = await until(
        'FAILED',
        async () => {
          const s = await state(id);
          return s.status === 'FAILED' ? s : undefined;
        },
        WAIT_MS,
        EVERY_MS,
      );
      assert.equal(failed.errorCode, 'INTERNAL_SERVER_ERROR');
      const next = await bulk(3);
      const done = await until(
        'COMPLETED',
        async () => {
          const s = await state(next);
          return s.status === 'COMPLETED' ? s : undefined;
        },
        WAIT_MS,
        EVERY_MS,
      );
      assert.equal(done.objectCount, '3');
      proc!.child.kill('SIGTERM');
      await proc!.exited;
    });
  });
}
