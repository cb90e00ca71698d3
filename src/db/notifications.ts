// PostgreSQL's LISTEN/NOTIFY, on both drivers: how one process tells the others that something changed (a mapping's
// sync state, a catalogue write), without a broker. A NOTIFY sent inside a transaction is delivered when it commits, and
// never if it rolls back, so a listener hears only what is there to read. PostgreSQL: one client of its own per
// process (outside the pool), reconnected with its LISTENs when the connection drops; PGlite: the instance's own
// notifications (one process opens it, so that is every sender).
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';

/** A Drizzle database or transaction (client.ts's Db, named here so that this file does not import client.ts). */
type Db = PgDatabase<PgQueryResultHKT>;

/** PostgreSQL's cap on a payload is 8000 bytes; senders keep theirs well under it. */
export const NOTIFY_PAYLOAD_MAX = 7_900;

export type NotificationHandler = (payload: string) => void;

export interface Notifications {
  /**
   * Calls `handler` with each payload sent on `channel` from now on, by any process; the function returned stops it.
   * `onGap` is called when the listening connection came back after a drop: what was sent meanwhile was not heard.
   */
  listen(channel: string, handler: NotificationHandler, onGap?: () => void): Promise<() => Promise<void>>;
  /** Stops every listener (the database closes). */
  close(): Promise<void>;
}

/** Sends `payload` on `channel` in `db`'s transaction (delivered at its commit), or at once outside one. */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Several payloads on one channel in one statement. */
export async function notifyMany(db: Db, channel: string, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  if (payloads.length === 1) return notify(db, channel, payloads[0]);
  await db.execute(sql`select pg_notify(${channel}, p) from unnest(${`{${payloads.map(arrayElement).join(',')}}`}::text[]) as p`);
}

/** A text array literal's element, quoted. */
function arrayElement(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A channel name as PostgreSQL folds an unquoted identifier: lower case letters, digits and underscores only. */
function checkChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
}

class Fanout {
  readonly handlers = new Map<string, Set<NotificationHandler>>();

  add(channel: string, handler: NotificationHandler): boolean {
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return first;
  }

  /** True when the channel has no handler left. */
  remove(channel: string, handler: NotificationHandler): boolean {
    const set = this.handlers.get(channel);
    if (!set) return false;
    set.delete(handler);
    if (set.size > 0) return false;
    this.handlers.delete(channel);
    return true;
  }

  deliver(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch {
        // A listener's own failure is its own; the others still hear the payload.
      }
    }
  }
}

export function pgliteNotifications(client: PGlite): Notifications {
  const fanout = new Fanout();
  const stops = new Map<string, () => Promise<void>>();
  return {
    async listen(channel, handler) {
      checkChannel(channel);
      if (fanout.add(channel, handler)) stops.set(channel, await client.listen(channel, (payload) => fanout.deliver(channel, payload)));
      return async () => {
        if (!fanout.remove(channel, handler)) return;
        const stop = stops.get(channel);
        stops.delete(channel);
        await stop?.().catch(() => {});
      };
    },
    async close() {
      fanout.handlers.clear();
      const all = [...stops.values()];
      stops.clear();
      await Promise.all(all.map((stop) => stop().catch(() => {})));
    },
  };
}

/** How long a lost listening connection waits before it reconnects (doubling up to the last). */
const RECONNECT_MS = [100, 500, 1_000, 2_000, 5_000];

export function postgresNotifications(options: pg.ClientConfig): Notifications {
  const fanout = new Fanout();
  const gaps = new Set<() => void>();
  let dropped = false;
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | null = null;

  const quote = (channel: string) => `"${channel}"`;

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client(options);
      c.on('notification', (n) => fanout.deliver(n.channel, n.payload ?? ''));
      // A lost connection: a new one takes the LISTENs over after a pause (what was sent meanwhile is missed: the
      // listeners read the state again when they can, see the callers).
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      await c.connect();
      for (const channel of fanout.handlers.keys()) await c.query(`LISTEN ${quote(channel)}`);
      attempt = 0;
      client = c;
      if (dropped) {
        dropped = false;
        for (const gap of gaps) gap();
      }
      return c;
    })().finally(() => (connecting = null));
    return connecting;
  };

  const lost = (c: pg.Client) => {
    if (client !== c && client !== null) return;
    client = null;
    dropped = true;
    c.end().catch(() => {});
    if (closed || fanout.handlers.size === 0 || retry) return;
    const wait = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)];
    retry = setTimeout(() => {
      retry = null;
      connect().catch(() => lost(c));
    }, wait);
    retry.unref();
  };

  return {
    async listen(channel, handler, onGap) {
      checkChannel(channel);
      if (closed) throw new Error('the database is closed');
      const first = fanout.add(channel, handler);
      if (onGap) gaps.add(onGap);
      try {
        const c = await connect();
        if (first) await c.query(`LISTEN ${quote(channel)}`);
      } catch (err) {
        fanout.remove(channel, handler);
        throw err;
      }
      return async () => {
        if (onGap) gaps.delete(onGap);
        if (!fanout.remove(channel, handler)) return;
        await client?.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      fanout.handlers.clear();
      const c = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
