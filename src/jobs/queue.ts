// The job queue: pg-boss 10 in schema `pgboss`, on PostgreSQL and on embedded PGlite alike, through the database's
// SqlExecutor (pg-boss opens no connection of its own). Sending uses pg-boss; workers (job-runner.ts) fetch with a
// query of ours that skips jobs whose singleton key is already running, so one shop's queued bulk chunks do not hold
// up every other shop's (pg-boss's own fetch fails the whole batch on that conflict).
import PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';
import { clientExecutor } from '../db/executor.js';
import { JOB, type JobData, type JobName, type JobQueue, type SendOptions, type SqlExecutor } from './job-types.js';
import { JobRunner, PollFailures, type FetchedJob, type JobHandler, type Logger, type RunnerBackend } from './job-runner.js';
import type { JobRecorder } from '../lib/metrics.js';
import { queueDefinitions, type QueueDefinition, type QueueTuning } from './queue-definitions.js';

const SCHEMA = 'pgboss';
/** The pg-boss schema version our SQL below is written against (pg-boss 10.x). */
const PGBOSS_SCHEMA_VERSION = 24;
export const QUEUE_NAMES = Object.values(JOB);
/** The states a queue's depth is reported in (metrics). */
const DEPTH_STATES = ['created', 'retry', 'active'] as const;

export interface QueueOptions extends QueueTuning {
  /**
   * How often a queue is asked for work (default 1 s); an idle queue backs off to maxIdleMs (default 5 s). A send in
   * this process wakes its queue's workers at once, and so does the end of a job that may have queued others.
   */
  pollIntervalMs?: number;
  maxIdleMs?: number;
  /** How often a worker node runs pg-boss maintenance (expiry of dead workers' jobs, archiving); one node per interval. */
  maintenanceIntervalSeconds?: number;
}

export interface QueueCounts {
  pending: number;
  processing: number;
  failed24h: number;
}

/**
 * The executor of a drizzle database or transaction: inside `db.transaction(async (tx) => …)`, `executorOf(tx)`
 * sends jobs in that transaction (they exist only if it commits). On PGlite never send on the plain executor while a
 * transaction is open: PGlite has one session, and the send would wait for the transaction that waits for it.
 */
export function executorOf(dbOrTx: Db): SqlExecutor {
  const client = (dbOrTx as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client || typeof (client as { query?: unknown }).query !== 'function') throw new Error('executorOf: not a drizzle database or transaction');
  return clientExecutor(client as Parameters<typeof clientExecutor>[0]);
}

export class PgBossQueue implements JobQueue, RunnerBackend {
  readonly definitions: Record<JobName, QueueDefinition>;
  private readonly boss: PgBoss;
  private readonly runners = new Map<JobName, JobRunner>();
  private readonly pollFailures: PollFailures;
  private started = false;

  constructor(
    private readonly executor: SqlExecutor,
    private readonly options: QueueOptions,
    private readonly log?: Logger,
    private readonly recorder?: JobRecorder,
  ) {
    this.definitions = queueDefinitions(options);
    this.pollFailures = new PollFailures(log);
    this.boss = new PgBoss({
      db: executor,
      schema: SCHEMA,
      // No cron (we schedule nothing) and no built-in supervisor: worker nodes run maintenance themselves (maintain()),
      // so an API node or a test app has no timer at all.
      schedule: false,
      supervise: false,
      migrate: true,
      // Completed jobs leave the hot table after an hour; failed ones stay two days so "failed in the last 24 h" is
      // counted from the job table alone.
      archiveCompletedAfterSeconds: 3_600,
      archiveFailedAfterSeconds: 2 * 86_400,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (err: unknown) => this.log?.error({ err }, 'job queue error'));
  }

  /** Creates or migrates pg-boss's schema and our queues (idempotent; safe on several nodes at once). */
  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    const version = await this.boss.schemaVersion();
    if (version !== PGBOSS_SCHEMA_VERSION) {
      throw new Error(`pg-boss schema version ${version} is not the ${PGBOSS_SCHEMA_VERSION} this code was written for: pin pg-boss 10`);
    }
    // Only what differs is written: a start on an existing database (or the build's PGlite template) costs one read.
    const existing = new Map((await this.boss.getQueues()).map((q) => [q.name, q]));
    for (const name of QUEUE_NAMES) {
      const d = this.definitions[name];
      const options = {
        name,
        policy: d.policy,
        retryLimit: d.retryLimit,
        retryDelay: d.retryDelay,
        retryBackoff: d.retryBackoff,
        expireInSeconds: d.expireInSeconds,
      };
      const q = existing.get(name);
      if (!q) await this.boss.createQueue(name, options);
      else if (
        q.policy !== d.policy ||
        q.retryLimit !== d.retryLimit ||
        q.retryDelay !== d.retryDelay ||
        q.retryBackoff !== d.retryBackoff ||
        q.expireInSeconds !== d.expireInSeconds
      ) {
        await this.boss.updateQueue(name, options);
      }
    }
    this.started = true;
  }

  async send<N extends JobName>(name: N, data: JobData[N], options: SendOptions = {}): Promise<string | null> {
    const id = await this.boss.send(
      name,
      data as object,
      {
        ...(options.id !== undefined && { id: options.id }),
        ...(options.singletonKey !== undefined && { singletonKey: options.singletonKey }),
        ...(options.singletonSeconds !== undefined && { singletonSeconds: options.singletonSeconds }),
        ...(options.startAfter !== undefined && { startAfter: options.startAfter }),
        ...(options.db && { db: options.db }),
      } as PgBoss.SendOptions,
    );
    // A job sent inside a transaction is not visible yet: the workers find it at their next poll.
    if (id && !options.db) this.runners.get(name)?.wake();
    return id;
  }

  async sendMany<N extends JobName>(
    name: N,
    jobs: { data: JobData[N]; singletonKey?: string; id?: string }[],
    options: { db?: SqlExecutor } = {},
  ): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((j) => ({
        name,
        data: j.data as object,
        ...(j.singletonKey !== undefined && { singletonKey: j.singletonKey }),
        ...(j.id !== undefined && { id: j.id }),
      })),
      options.db ? { db: options.db as PgBoss.Db } : {},
    );
    if (!options.db) this.runners.get(name)?.wake();
  }

  /** Jobs of `name` were committed by a transaction (sent with `db`): this process's workers fetch now, not at their next poll. */
  wake(name: JobName): void {
    this.runners.get(name)?.wake();
  }

  /** Runs `handler` for jobs of `name`, at most `concurrency` at once in this process. */
  work<N extends JobName>(name: N, handler: JobHandler<N>, options: { concurrency: number }): void {
    if (this.runners.has(name)) throw new Error(`a worker for ${name} is running already`);
    const d = this.definitions[name];
    const pollIntervalMs = this.options.pollIntervalMs ?? 1_000;
    const runner = new JobRunner(this, name, handler as JobHandler<JobName>, {
      concurrency: options.concurrency,
      pollIntervalMs,
      maxIdleMs: Math.max(pollIntervalMs, this.options.maxIdleMs ?? 5_000),
      // A poll, a fan-out or a bulk chunk queues jobs in its own transaction, committed by now: wake every queue.
      // (sync.product queues nothing, and there are many: it does not.)
      onJobDone: name === JOB.syncProduct ? undefined : () => this.wakeAll(),
      // Four beats per lease: a beat may be late (a busy event loop) three times before the lease is lost.
      heartbeatMs: Math.max(1_000, (d.expireInSeconds * 1_000) / 4),
      maxRunMs: d.maxRunSeconds * 1_000,
      log: this.log,
      pollFailures: this.pollFailures,
      onOutcome: this.recorder && ((outcome, seconds) => this.recorder!.jobFinished(name, outcome, seconds)),
    });
    this.runners.set(name, runner);
    runner.start();
  }

  private wakeAll(): void {
    for (const r of this.runners.values()) r.wake();
  }

  /** Stops every worker: no new fetches; running jobs get `timeoutMs` to finish, then go back to the queue. */
  async stopWorkers(timeoutMs: number): Promise<void> {
    const runners = [...this.runners.values()];
    this.runners.clear();
    await Promise.all(runners.map((r) => r.stop(timeoutMs)));
  }

  async stop(timeoutMs = 5_000): Promise<void> {
    await this.stopWorkers(timeoutMs);
    if (this.started) await this.boss.stop({ graceful: false, close: false, wait: true });
    this.started = false;
  }

  /** Jobs currently running in this process (all queues). */
  get inFlight(): number {
    let n = 0;
    for (const r of this.runners.values()) n += r.inFlight;
    return n;
  }

  // ---- what the runner and the worker node use (the SQL on pg-boss's tables lives here) ----

  /** Up to `limit` jobs of `name` moved to `active`, skipping keys that are running already (singleton / stately). */
  async fetch(name: JobName, limit: number): Promise<FetchedJob[]> {
    const { rows } = await this.executor.executeSql(FETCH_SQL, [name, limit]);
    return rows.map((r) => ({ id: r.id, name, data: r.data, retryCount: Number(r.retry_count), retryLimit: Number(r.retry_limit) }));
  }

  async complete(name: JobName, id: string): Promise<void> {
    await this.boss.complete(name, id);
  }

  /** A failed try: pg-boss queues the retry (with its back-off) or, after the last try, marks the job failed. */
  async fail(name: JobName, id: string, err: unknown): Promise<void> {
    await this.boss.fail(name, id, { message: err instanceof Error ? err.message : String(err) });
  }

  /**
   * Renews the lease of running jobs, so only jobs whose worker is gone are taken over (reclaimExpired). Returns the
   * ids still held: a job missing from it was taken over (this process stalled past its lease) and must stop.
   */
  async heartbeat(name: JobName, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.executor.executeSql(
      `UPDATE ${SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active' RETURNING id`,
      [name, ids],
    );
    return new Set(rows.map((r) => String(r.id)));
  }

  /**
   * Takes over the jobs whose worker stopped renewing their lease (a killed or frozen process): back to the queue at
   * once, the interrupted run counted as a try. Any worker node may run it, as often as it likes (one statement).
   */
  async reclaimExpired(): Promise<number> {
    const { rows } = await this.executor.executeSql(RECLAIM_SQL, [QUEUE_NAMES]);
    return rows.reduce((n, r) => n + Number(r.count), 0);
  }

  /**
   * Puts `active` jobs back as retryable at once: given ids (a stop that timed out), or all of them (PGlite start: the
   * process that ran them is gone, as only one process can open the data directory). A stately job whose key already
   * has a retry waiting is cancelled instead: that retry does the same work. `countAsTry`: the next fetch counts this
   * run as a try (after a crash, so a job that kills its process cannot loop forever); a graceful stop hands the job
   * back without spending a try.
   */
  async releaseActive(name?: JobName, ids?: string[], countAsTry = true): Promise<number> {
    const { rows } = await this.executor.executeSql(RELEASE_SQL, [name ?? null, ids ?? null, countAsTry]);
    return rows.reduce((n, r) => n + Number(r.count), 0);
  }

  /** pg-boss maintenance (expire jobs of dead workers, archive, drop), by at most one node per interval. */
  async maintain(intervalSeconds: number): Promise<boolean> {
    const { rows } = await this.executor.executeSql(
      `UPDATE ${SCHEMA}.version SET maintained_on = now()
       WHERE EXTRACT(EPOCH FROM (now() - COALESCE(maintained_on, now() - interval '1 week'))) > $1 RETURNING true`,
      [Math.max(1, intervalSeconds - 1)],
    );
    if (rows.length === 0) return false;
    await this.boss.maintain();
    return true;
  }

  /** Our jobs for one integration (or all): pending = created + waiting for a retry, processing = running under a live lease, failed in 24 h. */
  async counts(integrationId: number | null): Promise<QueueCounts> {
    // A job whose lease ran out is not being processed by anyone: it is waiting to be taken over (pending).
    const { rows } = await this.executor.executeSql(
      `SELECT count(*) FILTER (WHERE state IN ('created', 'retry') OR (state = 'active' AND started_on + expire_in <= now()))::int AS pending,
              count(*) FILTER (WHERE state = 'active' AND started_on + expire_in > now())::int AS processing,
              count(*) FILTER (WHERE state = 'failed' AND completed_on > now() - interval '24 hours')::int AS failed
       FROM ${SCHEMA}.job
       WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active', 'failed')
         AND ($2::text IS NULL OR data->>'integrationId' = $2::text)`,
      [QUEUE_NAMES, integrationId === null ? null : String(integrationId)],
    );
    const r = rows[0] ?? {};
    return { pending: Number(r.pending ?? 0), processing: Number(r.processing ?? 0), failed24h: Number(r.failed ?? 0) };
  }

  /** Waiting and running jobs per queue and state, all nodes' (metrics; zeros included, so every series exists). */
  async depth(): Promise<{ queue: string; state: string; count: number }[]> {
    const { rows } = await this.executor.executeSql(
      `SELECT name, state::text AS state, count(*)::int AS n FROM ${SCHEMA}.job
       WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active') GROUP BY 1, 2`,
      [QUEUE_NAMES],
    );
    const found = new Map(rows.map((r) => [`${r.name} ${r.state}`, Number(r.n)]));
    return QUEUE_NAMES.flatMap((queue) => DEPTH_STATES.map((state) => ({ queue, state, count: found.get(`${queue} ${state}`) ?? 0 })));
  }
}

// pg-boss's fetchNextJob, plus: a job whose singleton key is active (singleton/stately) is skipped rather than
// making the whole UPDATE fail on the unique index. Two nodes racing for one key still meet that index: the loser's
// fetch fails and its runner simply polls again.
const FETCH_SQL = `
  WITH next AS (
    SELECT j.id, j.singleton_key, j.policy
    FROM ${SCHEMA}.job j
    WHERE j.name = $1
      AND j.state < 'active'
      -- <=: PGlite's clock ticks in milliseconds, so a job fetched in the millisecond it was sent is due too.
      AND j.start_after <= now()
      AND (j.policy NOT IN ('singleton', 'stately') OR NOT EXISTS (
        SELECT 1 FROM ${SCHEMA}.job a
        WHERE a.name = $1 AND a.state = 'active' AND a.policy = j.policy
          AND COALESCE(a.singleton_key, '') = COALESCE(j.singleton_key, '')))
    ORDER BY j.priority DESC, j.created_on, j.id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), grouped AS (
    SELECT n.id, n.policy,
      row_number() OVER (PARTITION BY CASE WHEN n.policy IN ('singleton', 'stately') THEN COALESCE(n.singleton_key, '') ELSE n.id::text END) AS rn
    FROM next n
  )
  UPDATE ${SCHEMA}.job j SET
    state = 'active',
    started_on = now(),
    retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
  FROM grouped g
  WHERE j.name = $1 AND j.id = g.id AND g.rn = 1
  RETURNING j.id, j.data, j.retry_count, j.retry_limit`;

/** Hands `stuck` jobs back (their SELECT, then `countAsTry` as SQL), cancelling a stately one whose key has a retry waiting. */
const handBack = (stuck: string, countAsTry: string) => `
  WITH stuck AS (${stuck}), released AS (
    UPDATE ${SCHEMA}.job j SET state = 'retry', start_after = now(), started_on = CASE WHEN ${countAsTry} THEN j.started_on END
    FROM stuck s
    WHERE j.name = s.name AND j.id = s.id
      AND NOT (s.policy = 'stately' AND EXISTS (
        SELECT 1 FROM ${SCHEMA}.job r WHERE r.name = s.name AND r.state = 'retry' AND COALESCE(r.singleton_key, '') = COALESCE(s.singleton_key, '')))
    RETURNING j.id
  ), superseded AS (
    UPDATE ${SCHEMA}.job j SET state = 'cancelled', completed_on = now(), output = '{"message": "interrupted; a retry of the same key was queued already"}'::jsonb
    FROM stuck s
    WHERE j.name = s.name AND j.id = s.id AND s.id NOT IN (SELECT id FROM released)
    RETURNING j.id
  )
  SELECT (SELECT count(*) FROM released) + (SELECT count(*) FROM superseded) AS count`;

const RELEASE_SQL = handBack(
  `SELECT j.name, j.id, j.policy, j.singleton_key FROM ${SCHEMA}.job j
   WHERE j.state = 'active' AND ($1::text IS NULL OR j.name = $1) AND ($2::uuid[] IS NULL OR j.id = ANY($2::uuid[]))`,
  '$3::boolean',
);

// FOR UPDATE SKIP LOCKED: a heartbeat renewing the lease right now wins, and two nodes reclaiming at once share the work.
const RECLAIM_SQL = handBack(
  `SELECT j.name, j.id, j.policy, j.singleton_key FROM ${SCHEMA}.job j
   WHERE j.name = ANY($1::text[]) AND j.state = 'active' AND j.started_on + j.expire_in <= now()
   FOR UPDATE SKIP LOCKED`,
  'true',
);
