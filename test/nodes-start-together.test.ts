// Nodes of one deployment started at the same moment on one PostgreSQL (2 API nodes and 2 workers, as
// docs/operations.md lays it out): on a fresh database, and on one `pimbridge migrate` prepared. Every node comes up
// and stays up. Before start-up took turns (server/prepare-database.ts), creating the job queue's schema and queues
// at once deadlocked in PostgreSQL's catalogue and killed most nodes of such a start.
//
// PostgreSQL only (registered when TEST_DATABASE_URL is set): the embedded database opens in one process only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { testDatabaseUrl } from '../src/config.js';
import { QUEUE_NAMES } from '../src/jobs/queue.js';
import { freePort } from './helpers/connector.js';
import { freshStorage, spawnCli, stopProc, waitForHttp, type Proc, type Storage } from './helpers/bridge-processes.js';

const baseUrl = testDatabaseUrl();
const ROLES = ['api', 'api', 'worker', 'worker'] as const;

if (baseUrl) {
  describe('nodes started together (postgres)', { timeout: 240_000 }, () => {
    const storages: Storage[] = [];
    const procs: Proc[] = [];
    after(async () => {
      await Promise.all(procs.map((p) => stopProc(p)));
      for (const s of storages) await s.drop();
    });

    const env = (storage: Storage, role: string, port: number) => ({
      ...storage.env,
      ROLE: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN: `admin-${randomBytes(16).toString('hex')}`,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    });

    /** Starts the four nodes in the same tick; every one answers /readyz, and none has exited by then. */
    async function startTogether(storage: Storage): Promise<Proc[]> {
      const ports = await Promise.all(ROLES.map(() => freePort()));
      const nodes = ROLES.map((role, i) => spawnCli(['serve'], env(storage, role, ports[i]!)));
      procs.push(...nodes);
      await Promise.all(nodes.map((p, i) => waitForHttp(`node ${i + 1} (role ${ROLES[i]})`, p, `http://127.0.0.1:${ports[i]}/readyz`, 120_000)));
      for (const [i, p] of nodes.entries()) assert.ok(p.running(), `node ${i + 1} exited:\n${p.output()}`);
      return nodes;
    }

    async function queues(storage: Storage): Promise<string[]> {
      const database = await storage.open();
      try {
        const { rows } = await database.executor.executeSql('SELECT name FROM pgboss.queue ORDER BY name', []);
        return rows.map((r) => String(r.name));
      } finally {
        await database.close();
      }
    }

    it('on a fresh database: all four come up, and the job queue exists once', async () => {
      const storage = await freshStorage('postgres', 'together', baseUrl);
      storages.push(storage);
      const nodes = await startTogether(storage);
      assert.deepEqual(await queues(storage), [...QUEUE_NAMES].sort());
      // Whoever waited said so once, in one line.
      for (const p of nodes) assert.ok(p.output().split('another node is preparing the database').length <= 2, p.output());
      await Promise.all(nodes.map((p) => stopProc(p)));
    });

    it('after `pimbridge migrate`: the queue is there before any node starts, and all four come up', async () => {
      const storage = await freshStorage('postgres', 'migrated', baseUrl);
      storages.push(storage);
      const migrate = spawnCli(['migrate'], env(storage, 'all', 0));
      procs.push(migrate);
      assert.deepEqual(await migrate.exited, { code: 0, signal: null }, migrate.output());
      assert.match(migrate.output(), /Migrations applied \(postgres\); the job queue is ready/);
      assert.deepEqual(await queues(storage), [...QUEUE_NAMES].sort());
      const nodes = await startTogether(storage);
      await Promise.all(nodes.map((p) => stopProc(p)));
    });
  });
}
