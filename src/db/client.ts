// Opens the database: PostgreSQL through a pg Pool, or embedded PGlite (real Postgres in WASM) in DATA_DIR.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleLite } from 'drizzle-orm/pglite';
import { migrate as migrateLite } from 'drizzle-orm/pglite/migrator';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import { acquireDataDirLock } from './lock.js';
import { makeDataDirPrivate, makePrivate, mkdirPrivate, type PrivacyReport } from '../lib/private-files.js';
import type { MigrationSet } from './migration-set.js';
import { inProcessLocks, postgresLocks, type Locks } from './advisory-locks.js';
import { clientExecutor, type SqlExecutor } from './executor.js';
import { pgliteTemplateFile, readPgliteTemplate } from './pglite-template.js';
import { type Notifications, pgliteNotifications, postgresNotifications } from './notifications.js';

export type { MigrationSet } from './migration-set.js';

/**
 * The Drizzle handle every repository takes (or a transaction of it). No schema is bound to it: the tables belong to
 * the modules (each module's tables file, docs/architecture.md) and nothing uses drizzle's relational `db.query` API,
 * so the platform needs to know none of them.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  kind: 'postgres' | 'pglite';
  db: Db;
  /** Applies the committed migrations (idempotent): the production ones (src/db/migrations), or a module's `set`. */
  migrate(set?: MigrationSet): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /** Raw SQL outside any transaction (the job queue's `db`); inside a transaction use `executorOf(tx)` (jobs/queue.ts). */
  executor: SqlExecutor;
  /** LISTEN/NOTIFY across processes (notifications.ts): on a connection of its own on PostgreSQL, the instance's on PGlite. */
  notifications: Notifications;
  /** Owners' locks for background work (advisory-locks.ts): on a connection of their own on PostgreSQL, in memory on PGlite. */
  locks: Locks<Db>;
  /**
   * Runs `fn` while no other process runs its own `exclusively` on this database (PostgreSQL: a session advisory lock on
   * a connection of its own; PGlite: one process opens it anyway). `onWait` is called once if another process holds it.
   */
  exclusively<T>(fn: () => Promise<T>, onWait?: () => void): Promise<T>;
  /** PostgreSQL: the pool's use now (metrics); PGlite has no pool. */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number };
  /**
   * PGlite in DATA_DIR: the walk that made DATA_DIR private to this user when it opened (lib/private-files.ts); the
   * caller warns when some mode could not be set.
   */
  privacy?: PrivacyReport;
  close(): Promise<void>;
}

/**
 * `dataDir` null: in memory (tests), from `templateFile` only when one is given (the tests pass the build's when it is
 * newer than the migrations); a new data directory starts from `templateFile`, by default the build's.
 */
export type DatabaseTarget = { kind: 'postgres'; url: string; poolSize?: number } | { kind: 'pglite'; dataDir: string | null; templateFile?: string };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') return openPostgres(target.url, target.poolSize ?? 20);
  return openPglite(target.dataDir, target.dataDir === null ? target.templateFile : (target.templateFile ?? pgliteTemplateFile));
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg(pool);
  const notifications = postgresNotifications(pool.options);
  return {
    kind: 'postgres',
    db,
    notifications,
    migrate: (set) => migratePg(db as never, set ?? { migrationsFolder }),
    ping: () => ping(db),
    executor: clientExecutor(pool),
    locks: postgresLocks(pool, (client) => drizzlePg(client)),
    exclusively: (fn, onWait) => exclusivelyOnPostgres(pool, fn, onWait),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    close: async () => {
      await notifications.close();
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string | null, templateFile: string | undefined): Promise<Database> {
  const release = dataDir === null ? () => {} : acquireDataDirLock(dataDir);
  try {
    // DATA_DIR private to this user (lib/private-files.ts): what is there, before PostgreSQL reads its folder's mode
    // (from which it sets the mode of the files it creates), then what its initdb or the template unpacking wrote.
    const before = dataDir === null ? null : makeDataDirPrivate(dataDir);
    const client = await createPglite(dataDir === null ? undefined : path.join(dataDir, 'pglite'), templateFile);
    const after = dataDir === null ? null : makePrivate(path.join(dataDir, 'pglite'));
    const db = drizzleLite(client);
    const notifications = pgliteNotifications(client);
    return {
      kind: 'pglite',
      db,
      notifications,
      ...(before && after
        ? {
            privacy: { changed: before.changed + after.changed, failed: before.failed + after.failed, firstFailure: before.firstFailure ?? after.firstFailure },
          }
        : {}),
      migrate: (set) => migrateLite(db as never, set ?? { migrationsFolder }),
      ping: () => ping(db),
      executor: clientExecutor(client),
      locks: inProcessLocks(db),
      exclusively: (fn) => fn(),
      close: async () => {
        try {
          await notifications.close();
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * PostgreSQL's settings inside PGlite. shared_buffers: PostgreSQL's default of 128 MB is memory the WebAssembly heap
 * keeps for good (it never shrinks); a demo-sized catalogue works in an eighth of it (the 400 MB the embedded server may hold after the demo, bench/embedded-memory.ts).
 */
const PGLITE_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** Opens PGlite; a data directory that does not exist yet (or memory) starts from the template when there is one. */
async function createPglite(dir: string | undefined, templateFile: string | undefined): Promise<PGlite> {
  const fresh = dir === undefined || !existsSync(path.join(dir, 'PG_VERSION'));
  const template = fresh && templateFile !== undefined ? readPgliteTemplate(templateFile) : undefined;
  if (dir === undefined) {
    // In memory (tests): the template is loaded as it is (the heap it grows goes with the instance); a damaged one is skipped.
    if (template) {
      try {
        return await PGlite.create({ extensions: { pg_trgm }, startParams: PGLITE_PARAMS, loadDataDir: template });
      } catch {}
    }
    return PGlite.create({ extensions: { pg_trgm }, startParams: PGLITE_PARAMS });
  }
  // A 0700 folder before PostgreSQL starts in it: the files it makes are then 0600 (lib/private-files.ts).
  mkdirPrivate(dir);
  if (template) {
    try {
      // Unpacking grows that heap by about 50 MB for good: the PGlite that unpacked is closed, the directory reopened.
      await (await PGlite.create({ dataDir: dir, extensions: { pg_trgm }, loadDataDir: template, startParams: PGLITE_PARAMS })).close();
      makePrivate(dir); // the unpacked files are 0666; the caller's walk reports what it cannot change
      return await PGlite.create({ dataDir: dir, extensions: { pg_trgm }, startParams: PGLITE_PARAMS });
    } catch {
      rmSync(dir, { recursive: true, force: true }); // a damaged template: fall back to a plain initdb
      mkdirPrivate(dir);
    }
  }
  return PGlite.create({ dataDir: dir, extensions: { pg_trgm }, startParams: PGLITE_PARAMS });
}

/** The advisory lock `exclusively` takes: what nodes starting together serialize on (migrations, the queue's schema). */
const START_LOCK = [0x50494d42, 1] as const; // 'PIMB'

async function exclusivelyOnPostgres<T>(pool: pg.Pool, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  const client = new pg.Client(pool.options);
  client.on('error', () => {}); // a lost connection drops the lock with it; `fn`'s own queries report the outage
  await client.connect();
  try {
    const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, $2) as got', [...START_LOCK]);
    if (!rows[0]?.got) {
      onWait?.();
      await client.query('select pg_advisory_lock($1, $2)', [...START_LOCK]);
    }
    return await fn();
  } finally {
    // Ending the session releases its locks; no unlock round trip is needed.
    await client.end().catch(() => {});
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
