// Locks that say whether a piece of work still has a live owner, for modules that hand work to the background (the
// sandbox's bulk operations): the owner holds a lock for as long as the work runs, and anyone can ask whether it is
// still held. On PostgreSQL they are session advisory locks on a connection of the owner's own (the lock lives as long
// as that connection, so a dead process's locks go with it); on PGlite only this process opens the database, so a lock
// is a key in memory. Modules receive a `Locks` from the app and never run lock SQL or open connections themselves.
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';

/** Two 32-bit keys: a class (what kind of work) and an id (which one). */
export type LockKey = readonly [classId: number, id: number];

/** What a transaction (of either driver) offers the locks: raw SQL. */
interface Executes {
  execute(query: SQL): Promise<unknown>;
}

/** An owner's session: a database handle of its own whose locks outlive the transactions they are taken in. */
export interface LockSession<D> {
  /** Where the owner runs the transaction that takes a lock (PostgreSQL: the session's own connection). */
  readonly db: D;
  /**
   * Takes `key` for this session inside `tx`, a transaction on `db`: taken with the work's row, so nobody ever sees the
   * row without its owner's lock; held after the commit (and even after a rollback) until `close`.
   */
  hold(tx: Executes, key: LockKey): Promise<void>;
  /** Lets go of every lock of the session (`held`: the one it took, released first on PostgreSQL) and ends it. */
  close(held: LockKey | null): Promise<void>;
}

export interface Locks<D> {
  /** A new owner's session. */
  session(): Promise<LockSession<D>>;
  /** Whether no session holds `key` now (asked inside a transaction `tx`, which the check does not outlive). */
  isFree(tx: Executes, key: LockKey): Promise<boolean>;
}

/**
 * PostgreSQL: each session is a `pg.Client` of its own with the pool's settings (not a pooled connection: with many
 * long-running owners each holding one, pooled ones could starve the API of connections); `wrap` makes the database
 * handle the owner runs its transaction on.
 */
export function postgresLocks<D>(pool: pg.Pool, wrap: (client: pg.Client) => D): Locks<D> {
  return {
    async session() {
      const client = new pg.Client(pool.options);
      let broken = false;
      client.on('error', () => (broken = true));
      await client.connect();
      return {
        db: wrap(client),
        hold: async (tx, [classId, id]) => {
          await tx.execute(sql`select pg_advisory_lock(${classId}, ${id}::int)`);
        },
        close: async (held) => {
          try {
            if (held !== null && !broken) await client.query('select pg_advisory_unlock($1, $2::int)', [held[0], held[1]]);
          } catch {
            broken = true;
          }
          await client.end().catch(() => {});
        },
      };
    },
    async isFree(tx, [classId, id]) {
      const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${classId}, ${id}::int) as free`);
      return (result as { rows: { free: boolean }[] }).rows[0]?.free === true;
    },
  };
}

/** PGlite (one process): locks are keys this process holds; a session runs on the shared database `db`. */
export function inProcessLocks<D>(db: D): Locks<D> {
  const held = new Map<string, number>();
  const name = ([classId, id]: LockKey) => `${classId}:${id}`;
  return {
    async session() {
      const mine = new Set<string>();
      return {
        db,
        hold: async (_tx, key) => {
          const k = name(key);
          mine.add(k);
          held.set(k, (held.get(k) ?? 0) + 1);
        },
        close: async () => {
          for (const k of mine) {
            const n = (held.get(k) ?? 1) - 1;
            if (n > 0) held.set(k, n);
            else held.delete(k);
          }
          mine.clear();
        },
      };
    },
    isFree: async (_tx, key) => !held.has(name(key)),
  };
}
