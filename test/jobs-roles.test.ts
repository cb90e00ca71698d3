// Roles and the queue's settings: ROLE / --role validation (api and worker need PostgreSQL), the SYNC_* variables,
// a worker node's HTTP surface (health only), and an app that never starts background work unless asked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config/env.js';
import { JOB } from '../src/jobs/job-types.js';
import { startApp } from '../src/server/start-app.js';
import { databaseTargets, harness, testConfig, type Harness } from './helpers/harness.js';
import { CLI } from './helpers/cli-command.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG = {
  DATABASE_URL: 'postgres://user@127.0.0.1:5432/db',
  ADMIN_TOKEN: 'x'.repeat(16),
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
  METRICS_TOKEN: 'metrics-token-0123456789',
};

describe('ROLE and the SYNC_* settings', () => {
  it('defaults: role all, concurrency 8, poll 30 s, bulk threshold 200, 5 retries from 5 s, a lease of 15 s', () => {
    const c = loadConfig(PG);
    assert.deepEqual(
      [c.role, c.syncConcurrency, c.syncPollSeconds, c.syncBulkThreshold, c.syncRetryLimit, c.syncRetryDelaySeconds, c.syncJobExpireSeconds],
      ['all', 8, 30, 200, 5, 5, 15],
    );
    assert.equal(loadConfig({ ...PG, ROLE: 'worker', SYNC_CONCURRENCY: '32' }).syncConcurrency, 32);
    assert.equal(loadConfig({ ...PG, ROLE: 'api' }).role, 'api');
  });

  it('refuses bad values with one line naming the variable', () => {
    for (const [env, message] of [
      [{ ROLE: 'boss' }, /^ROLE \(--role\) must be one of api, worker, all, got "boss"$/],
      [{ SYNC_CONCURRENCY: '0' }, /^SYNC_CONCURRENCY must be an integer between 1 and 256/],
      [{ SYNC_POLL_SECONDS: 'often' }, /^SYNC_POLL_SECONDS must be an integer/],
      [{ SYNC_BULK_THRESHOLD: '-1' }, /^SYNC_BULK_THRESHOLD must be an integer/],
      [{ SYNC_RETRY_LIMIT: '51' }, /^SYNC_RETRY_LIMIT must be an integer between 0 and 50/],
      [{ SYNC_JOB_EXPIRE_SECONDS: '5' }, /^SYNC_JOB_EXPIRE_SECONDS must be an integer between 10/],
    ] as const) {
      assert.throws(
        () => loadConfig({ ...PG, ...env }),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
      );
    }
  });

  it('api and worker need DATABASE_URL: refused before anything is written to DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pimbridge-role-'));
    try {
      for (const role of ['api', 'worker']) {
        assert.throws(
          () => loadConfig({ DATA_DIR: dir, ROLE: role }),
          (err: Error) =>
            err instanceof ConfigError &&
            err.message === `role ${role} needs DATABASE_URL: the embedded database opens in one process only, which runs role all`,
        );
      }
      assert.deepEqual(readdirSync(dir), [], 'no secrets generated for a refused start');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`pimbridge serve --role worker` without DATABASE_URL exits 1 with that one line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pimbridge-role-'));
    try {
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir };
      const r = spawnSync(process.execPath, [...CLI, 'serve', '--role', 'worker'], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 1, r.stderr);
      assert.equal(
        r.stderr.trim().split('\n').at(-1),
        'Configuration error: role worker needs DATABASE_URL: the embedded database opens in one process only, which runs role all',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const target of databaseTargets()) {
  describe(`worker and api apps (${target.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await harness(target);
    });
    after(async () => h.close());

    it('a worker node answers /healthz and /readyz only', async () => {
      const app = await startApp({ config: testConfig({ ...PG, ROLE: 'worker' }), database: h.database, logger: false });
      try {
        assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 200);
        assert.equal(ready.json().status, 'ready');
        for (const url of ['/api/products', '/api/status', '/admin/organizations', '/docs/openapi.json', '/api/system/status']) {
          assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
        }
      } finally {
        await app.close();
      }
    });

    it('an app has the queue for sending but runs no worker until asked', async () => {
      assert.equal(h.app.services.jobs.workers.running, false);
      const { rows } = await h.database.executor.executeSql('SELECT count(*)::int AS n FROM pgboss.queue');
      assert.equal(rows[0].n, Object.keys(JOB).length);
      await h.app.services.jobs.workers.start();
      assert.equal(h.app.services.jobs.workers.running, true);
      await h.app.services.jobs.workers.stop(1_000);
      assert.equal(h.app.services.jobs.workers.running, false);
    });
  });
}
