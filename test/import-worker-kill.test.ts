// A worker process SIGKILLed halfway through a CSV import, then a second worker process: the import resumes after the
// last committed batch and ends with every row imported exactly once. The API node is an app in this process; the
// workers are `pimbridge serve --role worker` processes; all share one scratch PostgreSQL database and one DATA_DIR
// (the upload waits in DATA_DIR/imports for whichever worker runs its job). The in-process simulation of the same
// (an aborted run, then a second run) is in catalogue-import.test.ts; here the process really dies, typically while
// its next batch's transaction is open (PostgreSQL rolls that back when the connection drops).
//
// PostgreSQL only: registered when TEST_DATABASE_URL is set. The embedded database (PGlite) opens in one process only.
//
// How the dead worker's job comes back, and how long it takes (src/jobs/): on PostgreSQL nothing notices a dead worker
// but pg-boss maintenance, which fails an `active` job whose lease (started_on, renewed by the worker's heartbeat every
// expireInSeconds / 4) is older than its expire_in; with retries left and SYNC_RETRY_DELAY_SECONDS=0 it is `retry`
// with start_after = now(). (Releasing orphans at start is for PGlite only.) Maintenance runs on worker nodes only:
// once when a worker starts and then on a 30 s timer (services.ts, fixed for PostgreSQL), and at most once per ~29 s
// across all nodes (queue.ts maintain(): the pgboss.version.maintained_on gate). So, with the fastest settings the
// configuration allows — SYNC_JOB_EXPIRE_SECONDS=10 (its floor; set on the API app as well, as a job takes its
// expire_in and retry delay from its queue when it is sent) and SYNC_RETRY_DELAY_SECONDS=0 — the job comes back at
// the second worker's first maintenance tick, 30 s after it started: its start-up maintenance is skipped (the first
// worker took the slot seconds earlier) and would find the job not yet expired anyway (≤ 10 s since the last
// heartbeat). The expiry, ≤ 10 s after the kill, is well inside those 30 s. Its catalogue.import runner, idle by then,
// polls every 5 s at most (maxIdleMs), so the job runs again 30–35 s after the second worker started (measured: ~32 s
// after its spawn; the remaining 23 batches then take ~2 s). That wait is most of this test's ~35 s.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { testDatabaseUrl } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { JOB } from '../src/jobs/job-types.js';
import { ImportRepository } from '../src/pim/catalogue-files/import.repository.js';
import { startApp } from '../src/server/start-app.js';
import { csv, upload } from './helpers/catalogue-files.js';
import { TEST_ADMIN_TOKEN, testConfig, type TestApp } from './helpers/harness.js';
import { jobRows, until } from './helpers/jobs.js';
import { okData, type Call } from './helpers/pim.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** With DATABASE_URL, /metrics has a token of its own (config.ts). */
const METRICS_TOKEN = 'metrics-token-0123456789';
const PRODUCTS = 6_000;
const VARIANTS = 2;
const ROWS = PRODUCTS * VARIANTS;
const baseUrl = testDatabaseUrl();
/** Seconds since `since`, for the diagnostics (where the time goes; nothing is asserted on it). */
const secs = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

interface Worker {
  child: ChildProcess;
  output: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

if (baseUrl) {
  describe('a worker process killed halfway through an import (postgres)', () => {
    const dbName = `pimbridge_test_import_kill_${process.pid}_${randomBytes(3).toString('hex')}`;
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    const encryptionKey = randomBytes(32).toString('base64');
    // Shared by the API app and the workers: the job's lease and retry delay are set when the API app sends it.
    const queueEnv = { SYNC_JOB_EXPIRE_SECONDS: '10', SYNC_RETRY_DELAY_SECONDS: '0' };
    let dataDir: string;
    let database: Database;
    let app: TestApp;
    const workers: Worker[] = [];

    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    };

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'pimbridge-import-kill-'));
      await admin(`CREATE DATABASE ${dbName}`);
      database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
      await database.migrate();
      const env = { ...queueEnv, DATABASE_URL: url.toString(), ENCRYPTION_KEY: encryptionKey, METRICS_TOKEN, DATA_DIR: dataDir, ROLE: 'api' };
      app = await startApp({ config: testConfig(env), database, logger: false });
      await app.ready();
    });

    after(async () => {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await app?.close();
      await database?.close();
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const startWorker = (): Worker => {
      const env: NodeJS.ProcessEnv = {
        ...queueEnv,
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        ENCRYPTION_KEY: encryptionKey,
        METRICS_TOKEN,
        PORT: '0',
        HOST: '127.0.0.1',
        SYNC_POLL_SECONDS: '86400',
        // Nor at once on a PIM change (the wake): what runs here is what the test starts.
        SYNC_ON_PIM_CHANGE: 'false',
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
      };
      const child = spawn(process.execPath, [...CLI, 'serve', '--role', 'worker'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const w: Worker = { child, output: '', exited: new Promise((r) => child.on('close', (code, signal) => r({ code, signal }))) };
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (w.output += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (w.output += d));
      workers.push(w);
      return w;
    };

    /** The workers' JSON log lines that say a catalogue.import job completed: their job ids. */
    const importsCompletedBy = (w: Worker): string[] =>
      w.output
        .split('\n')
        .filter((l) => l.includes('"job completed"') && l.includes(`"queue":"${JOB.catalogueImport}"`))
        .map((l) => JSON.parse(l).jobId as string);

    /** `until`, failing at once (with the worker's log) should the worker exit meanwhile. */
    const untilWhileAlive = <T>(w: Worker, what: string, check: () => Promise<T>, timeoutMs: number, everyMs: number): Promise<NonNullable<T>> => {
      let alive = true;
      const died = w.exited.then(({ code, signal }) => {
        if (alive) throw new Error(`a worker exited (code ${code}, signal ${signal}) while waiting for ${what}:\n${w.output.slice(-3000)}`);
      });
      return Promise.race([until(what, check, timeoutMs, everyMs), died as Promise<never>]).finally(() => (alive = false));
    };

    it(`${PRODUCTS} products × ${VARIANTS} variants: SIGKILL mid-file, a second worker resumes after the checkpoint, no row twice`, {
      timeout: 120_000,
    }, async (t) => {
      const t0 = Date.now();
      const asAdmin = async (url: string, payload: object) => {
        const res = await app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json();
      };
      const org = await asAdmin('/admin/organizations', { name: 'Killed import' });
      const key = await asAdmin(`/admin/organizations/${org.id}/api-keys`, {});
      const call: Call = (method, path, payload, headers = {}) =>
        app.inject({ method: method as never, url: path, payload: payload as never, headers: { 'x-api-key': key.api_key, ...headers } }) as never;

      // Uploaded while no worker runs: the job waits in the queue.
      const rows: string[][] = [['sku', 'name', 'price', 'variant_sku', 'variant_price']];
      for (let p = 0; p < PRODUCTS; p++) for (let v = 0; v < VARIANTS; v++) rows.push([`K-${p}`, `Killed ${p}`, '5.00', `K-${p}-${v}`, `${v + 5}.00`]);
      const accepted = okData(await upload(call, csv(rows)), 202);
      const importId = accepted.id as string;
      assert.deepEqual([accepted.state, accepted.rows_total], ['queued', ROWS]);
      assert.deepEqual(readdirSync(path.join(dataDir, 'imports')), [`${importId}.csv`], 'the upload waits in DATA_DIR/imports');
      t.diagnostic(`upload: ${secs(t0)}`);

      // The import as its repository keeps it: the checkpoint line is not in the API's view.
      const progress = async () => (await new ImportRepository(database.db).find(importId))!;

      // The first worker: killed (SIGKILL, no chance to hand the job back) once its first batch has committed.
      let t1 = Date.now();
      const first = startWorker();
      await untilWhileAlive(first, 'the first worker to commit a batch', async () => (await progress()).checkpoint_line > 1, 60_000, 10);
      first.child.kill('SIGKILL');
      const died = await first.exited;
      assert.equal(died.signal, 'SIGKILL');
      t.diagnostic(`first worker start → first batch → killed: ${secs(t1)}`);

      // What it left: a running import whose checkpoint and committed rows agree, mid-file; its job still active.
      const stopped = await progress();
      assert.equal(stopped.state, 'running');
      assert.ok(
        stopped.checkpoint_line > 1 && stopped.checkpoint_line < ROWS + 1,
        `killed mid-file (checkpoint line ${stopped.checkpoint_line} of ${ROWS + 1})`,
      );
      assert.equal(stopped.rows_done, stopped.checkpoint_line - 1, 'the rows done are the lines up to the checkpoint (line 1 is the header)');
      const committed = okData(await call('GET', '/api/products?limit=1')).pagination.total_items;
      assert.equal(committed, stopped.rows_done / VARIANTS, 'the committed products are those of the checkpointed lines');
      assert.equal(okData(await call('GET', `/api/imports/${importId}`)).state, 'running');
      const [orphan] = await jobRows(database, JOB.catalogueImport);
      assert.deepEqual([orphan.id, orphan.state, orphan.retry_count], [importId, 'active', 0], 'the dead worker still holds the job');
      assert.deepEqual(importsCompletedBy(first), []);
      t.diagnostic(`killed at checkpoint line ${stopped.checkpoint_line} (${stopped.rows_done} rows committed)`);

      // The second worker: takes the job once maintenance has expired the dead worker's lease, and finishes it.
      t1 = Date.now();
      const second = startWorker();
      let resumedAfter: string | null = null;
      const done = await untilWhileAlive(
        second,
        'the import to end',
        async () => {
          if (resumedAfter === null && (await jobRows(database, JOB.catalogueImport))[0].retry_count > 0) resumedAfter = secs(t1);
          const view = okData(await call('GET', `/api/imports/${importId}`));
          return view.state === 'completed' || view.state === 'failed' ? view : null;
        },
        90_000,
        250,
      );
      t.diagnostic(`second worker start → job fetched again: ${resumedAfter ?? '(not seen)'}; → import completed: ${secs(t1)}`);
      assert.deepEqual(
        {
          state: done.state,
          rows_total: done.rows_total,
          rows_done: done.rows_done,
          created: done.created,
          updated: done.updated,
          unchanged: done.unchanged,
          failed: done.failed,
          error: done.error,
        },
        { state: 'completed', rows_total: ROWS, rows_done: ROWS, created: ROWS, updated: 0, unchanged: 0, failed: 0, error: null },
      );

      // Every product once, each with exactly its two variants (through the product list); nothing failed; the upload is gone.
      const products: { sku: string; variants: { sku: string }[] }[] = [];
      for (let page = 1; ; page++) {
        const data = okData(await call('GET', `/api/products?include=variants&limit=100&page=${page}`));
        products.push(...data.products);
        if (data.products.length === 0 || products.length >= data.pagination.total_items) break;
      }
      const variantSkus = products.flatMap((p) => p.variants.map((v) => v.sku));
      assert.deepEqual(
        {
          products: products.length,
          product_skus: new Set(products.map((p) => p.sku)).size,
          variants: variantSkus.length,
          variant_skus: new Set(variantSkus).size,
        },
        { products: PRODUCTS, product_skus: PRODUCTS, variants: ROWS, variant_skus: ROWS },
      );
      const notOwn = products.filter((p) => p.variants.length !== VARIANTS || !p.variants.every((v) => v.sku.startsWith(`${p.sku}-`)));
      assert.deepEqual(
        notOwn.map((p) => p.sku),
        [],
        `every product has exactly its ${VARIANTS} variants`,
      );
      const errors = await call('GET', `/api/imports/${importId}/errors.csv`);
      assert.equal(errors.statusCode, 200, errors.body);
      assert.deepEqual(errors.body.trim().split('\n').slice(1), [], 'no failed row');
      assert.deepEqual(readdirSync(path.join(dataDir, 'imports')), [], 'the finished import removed its upload');

      // The job: completed on its second fetch (the expired one counts as a try), by the second worker.
      const [job] = await jobRows(database, JOB.catalogueImport);
      assert.deepEqual([job.id, job.state, job.retry_count], [importId, 'completed', 1]);
      assert.deepEqual(importsCompletedBy(second), [importId], `the second worker ran the job:\n${second.output.slice(-3000)}`);
      assert.deepEqual(importsCompletedBy(first), []);

      second.child.kill('SIGTERM');
      assert.equal((await second.exited).code, 0, second.output.slice(-2000));
      t.diagnostic(`total: ${secs(t0)}`);
    });
  });
}
