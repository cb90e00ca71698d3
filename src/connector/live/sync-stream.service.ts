// GET /api/sync/events: the console's one stream of sync states (Server-Sent Events). One LISTEN per process on the
// mapping repository's channel (sync-events.ts), fanned out to the streams open on this node; each stream passes on only
// the events of its organization's integrations (those of its PIM account, as GET /api/integrations lists them), so a
// session never hears another organization. A comment line every HEARTBEAT_MS keeps proxies from closing an idle
// stream and lets the server notice a client that left; a stream ends after MAX_AGE_MS (the browser's EventSource
// reconnects by itself, and the session is checked again); at most MAX_PER_ORGANIZATION streams per organization per
// node; closing the app ends them all first, so that it never waits on an open stream.
import { PassThrough } from 'node:stream';
import type { Notifications } from '../../db/notifications.js';
import type { ConsoleSession } from '../../http/console-session.js';
import { ConnectorError } from '../connector.errors.js';
import { decodeSyncEvents, SYNC_EVENTS_CHANNEL, type SyncEvent } from './sync-events.js';

export interface SyncStreamOptions {
  heartbeatMs: number;
  maxAgeMs: number;
  maxPerOrganization: number;
  /** What a browser waits before reconnecting after the stream ended (the `retry:` field). */
  retryMs: number;
}

export const SYNC_STREAM_DEFAULTS: SyncStreamOptions = { heartbeatMs: 15_000, maxAgeMs: 10 * 60_000, maxPerOrganization: 20, retryMs: 2_000 };

export interface SyncStreamDeps {
  notifications: Pick<Notifications, 'listen'>;
  /** The ids of the integrations of a PIM account (the session's key hashes), inactive ones included. */
  integrationsOf(keyHashes: string[]): Promise<number[]>;
  log?: { warn(obj: object, msg: string): void };
}

/** A stream's integrations are read again at most this often, when an event names one it does not know (a new connection). */
const REFRESH_MIN_MS = 2_000;

class Subscriber {
  readonly body = new PassThrough();
  private heartbeat: NodeJS.Timeout;
  private expiry: NodeJS.Timeout;
  private refreshedAt = Date.now();
  private refreshing: Promise<void> | null = null;
  ended = false;

  constructor(
    readonly session: ConsoleSession,
    private integrations: Set<number>,
    private readonly deps: SyncStreamDeps,
    options: SyncStreamOptions,
    private readonly onEnd: (s: Subscriber) => void,
  ) {
    this.write(`retry: ${options.retryMs}\n: connected\n\n`);
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), options.heartbeatMs);
    this.expiry = setTimeout(() => this.end(), options.maxAgeMs);
    this.heartbeat.unref();
    this.expiry.unref();
    this.body.on('close', () => this.end());
    this.body.on('error', () => this.end());
  }

  deliver(events: SyncEvent[]): void {
    this.send(events.filter((e) => this.integrations.has(e.integration_id)));
    const unknown = events.filter((e) => !this.integrations.has(e.integration_id));
    if (unknown.length === 0) return;
    // An integration connected since the stream opened: read the account's integrations again (not too often), then
    // pass on those of the events just held back that turn out to be the account's (the others were sent above).
    if (this.refreshing || Date.now() - this.refreshedAt < REFRESH_MIN_MS) return;
    this.refreshedAt = Date.now();
    this.refreshing = this.deps
      .integrationsOf(this.session.accountKeyHashes)
      .then((ids) => {
        this.integrations = new Set(ids);
        this.send(unknown.filter((e) => this.integrations.has(e.integration_id)));
      })
      .catch((err: unknown) => this.deps.log?.warn({ err }, 'the event stream could not read its integrations'))
      .finally(() => (this.refreshing = null));
  }

  private send(events: SyncEvent[]): void {
    for (const e of events) this.write(`data: ${JSON.stringify(e)}\n\n`);
  }

  private write(text: string): void {
    if (!this.ended && !this.body.destroyed) this.body.write(text);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.expiry);
    this.body.end();
    this.onEnd(this);
  }
}

export class SyncStreamService {
  private readonly options: SyncStreamOptions;
  private readonly subscribers = new Set<Subscriber>();
  private readonly perOrganization = new Map<number, number>();
  private listening: Promise<(() => Promise<void>) | null> | null = null;
  private closed = false;

  constructor(
    private readonly deps: SyncStreamDeps,
    options: Partial<SyncStreamOptions> = {},
  ) {
    this.options = { ...SYNC_STREAM_DEFAULTS, ...options };
  }

  /** A new stream of the session's events: its body, already carrying the first lines. */
  async open(session: ConsoleSession): Promise<PassThrough> {
    // Shutting down: a stream that ends at once (the browser tries again, elsewhere or later).
    if (this.closed) return new PassThrough().end(`retry: ${this.options.retryMs}\n\n`);
    if ((this.perOrganization.get(session.organizationId) ?? 0) >= this.options.maxPerOrganization) {
      throw new ConnectorError(
        'RATE_LIMITED',
        `At most ${this.options.maxPerOrganization} event streams per organization are open at once: close a console tab`,
        undefined,
        { 'Retry-After': String(Math.ceil(this.options.retryMs / 1000) * 15) },
      );
    }
    await this.listen();
    const integrations = new Set(await this.deps.integrationsOf(session.accountKeyHashes));
    const org = session.organizationId;
    this.perOrganization.set(org, (this.perOrganization.get(org) ?? 0) + 1);
    const subscriber = new Subscriber(session, integrations, this.deps, this.options, (s) => {
      this.subscribers.delete(s);
      const left = (this.perOrganization.get(org) ?? 1) - 1;
      if (left > 0) this.perOrganization.set(org, left);
      else this.perOrganization.delete(org);
    });
    this.subscribers.add(subscriber);
    return subscriber.body;
  }

  /** Streams open on this node (tests, metrics). */
  get size(): number {
    return this.subscribers.size;
  }

  /** Ends every stream and stops listening (the app closes). */
  async close(): Promise<void> {
    this.closed = true;
    const ending = [...this.subscribers].map((s) => {
      const done = new Promise<void>((resolve) => {
        if (s.body.closed) resolve();
        else s.body.once('close', () => resolve());
        setTimeout(resolve, 1_000).unref();
      });
      s.end();
      return done;
    });
    // Each stream's last bytes written out before the server closes its connections.
    await Promise.all(ending);
    const stop = await this.listening?.catch(() => null);
    await stop?.();
  }

  private listen(): Promise<unknown> {
    // One LISTEN per process, from the first stream on; a failure is tried again by the next stream.
    this.listening ??= this.deps.notifications
      .listen(
        SYNC_EVENTS_CHANNEL,
        (payload) => {
          const events = decodeSyncEvents(payload);
          if (events.length === 0) return;
          for (const s of this.subscribers) s.deliver(events);
        },
        // The listening connection dropped and came back: events of those moments were missed. The streams end, the
        // browsers reconnect and read again what they show.
        () => {
          for (const s of [...this.subscribers]) s.end();
        },
      )
      .catch((err: unknown) => {
        this.listening = null;
        throw err;
      });
    return this.listening;
  }
}
