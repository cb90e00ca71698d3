// One queue's workers in this process: a single fetch loop that keeps up to `concurrency` jobs running, renews their
// lease while they run, and completes or fails each one on its own (a slow job never holds up the others' results).
import type { JobData, JobName } from './job-types.js';

export interface Logger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

/**
 * A node's failing polls, told once: the first failure of any of its queues at `warn`, then nothing until every queue
 * polls again, which is told at `info` (a lost database would otherwise say so for every queue at every poll).
 */
export class PollFailures {
  private readonly failing = new Set<JobName>();
  constructor(private readonly log?: Logger) {}

  failed(queue: JobName, err: unknown): void {
    if (this.failing.size === 0)
      this.log?.warn({ err, queue }, 'job queue polls fail (two nodes racing for one job, or the database is away): told once until they work again');
    this.failing.add(queue);
  }

  worked(queue: JobName): void {
    if (this.failing.delete(queue) && this.failing.size === 0) this.log?.info?.({ queue }, 'job queue polls work again');
  }
}

export interface JobContext<N extends JobName> {
  id: string;
  name: N;
  data: JobData[N];
  /** Tries before this one (0 on the first). */
  retryCount: number;
  retryLimit: number;
  /** True when a failure now is final: the handler writes the error where users see it (the mapping), then throws. */
  finalAttempt: boolean;
  /** Aborted when the job runs past its queue's maxRunSeconds or the process stops before it finished. */
  signal: AbortSignal;
}

/** Returns → the job completes. Throws → pg-boss retries it with back-off, or marks it failed after the last try. */
export type JobHandler<N extends JobName> = (job: JobContext<N>) => Promise<void>;

export interface RunnerOptions {
  concurrency: number;
  /** Poll interval after work was found; each empty poll doubles it, up to maxIdleMs; a wake resets it. */
  pollIntervalMs: number;
  maxIdleMs: number;
  /** Called after each job's outcome is recorded (its transaction committed): lets jobs it queued start at once. */
  onJobDone?: () => void;
  heartbeatMs: number;
  maxRunMs: number;
  log?: Logger;
  /** Where this node's failing polls are told once (shared by its queues' runners). */
  pollFailures?: PollFailures;
  /** Each try's recorded outcome and run time (metrics); not called for a job handed back by a stop. */
  onOutcome?: (outcome: 'completed' | 'retry' | 'failed', seconds: number) => void;
}

/** The abort reason when the process stops before a job finished: the job goes back to the queue, it did not fail. */
export class WorkerStopping extends Error {
  override name = 'WorkerStopping';
  constructor() {
    super('the worker is stopping');
  }
}

/** The abort reason when another worker took the job over (its lease ran out here): that worker runs it now. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor() {
    super('the job was taken over by another worker');
  }
}

/** A fetched job, as the runner needs it. */
export interface FetchedJob {
  id: string;
  name: JobName;
  data: unknown;
  retryCount: number;
  retryLimit: number;
}

/** What the runner asks of its queue (PgBossQueue in queue.ts). */
export interface RunnerBackend {
  fetch(name: JobName, limit: number): Promise<FetchedJob[]>;
  complete(name: JobName, id: string): Promise<void>;
  fail(name: JobName, id: string, err: unknown): Promise<void>;
  /** Renews the leases of `ids`; answers those still held. */
  heartbeat(name: JobName, ids: string[]): Promise<Set<string>>;
  releaseActive(name: JobName, ids: string[], countAsTry: boolean): Promise<number>;
}

export class JobRunner {
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  /** Jobs handed back to the queue by a stop that timed out: their late outcome is not written. */
  private readonly released = new Set<string>();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private idleMs: number;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly backend: RunnerBackend,
    private readonly name: JobName,
    private readonly handler: JobHandler<JobName>,
    private readonly options: RunnerOptions,
  ) {
    this.idleMs = options.pollIntervalMs;
  }

  get inFlight(): number {
    return this.running.size;
  }

  start(): void {
    this.loop = this.run();
    this.heartbeat = setInterval(() => void this.renewLeases(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Renews the running jobs' leases. A job whose lease another node took over meanwhile (this process stalled past it)
   * is being run again over there: this run stops and records nothing.
   */
  private async renewLeases(): Promise<void> {
    const ids = [...this.running.keys()].filter((id) => !this.released.has(id));
    if (ids.length === 0) return;
    let held: Set<string>;
    try {
      held = await this.backend.heartbeat(this.name, ids);
    } catch (err) {
      this.options.log?.warn({ err, queue: this.name }, 'job heartbeat failed');
      return;
    }
    for (const id of ids) {
      const run = this.running.get(id);
      if (held.has(id) || !run) continue;
      this.released.add(id);
      this.options.log?.warn({ queue: this.name, jobId: id }, 'this job was taken over by another worker after its lease ran out: stopping it here');
      run.abort.abort(new LeaseLost());
    }
  }

  /** Fetch now instead of at the next poll (a job was sent, or a slot freed). */
  wake(): void {
    this.idleMs = this.options.pollIntervalMs;
    if (this.wakeUp) this.wakeUp();
    else this.woken = true; // mid-fetch: the next idle() returns at once
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    if (this.heartbeat) clearInterval(this.heartbeat);
    const all = Promise.all([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
    clearTimeout(timer);
    if (!timedOut) return;
    const ids = [...this.running.keys()];
    for (const id of ids) this.released.add(id);
    for (const r of this.running.values()) r.abort.abort(new WorkerStopping());
    await this.backend
      .releaseActive(this.name, ids, false)
      .catch((err) => this.options.log?.error({ err, queue: this.name }, 'could not release running jobs'));
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const free = this.options.concurrency - this.running.size;
      let fetched = 0;
      this.woken = false;
      if (free > 0) {
        try {
          const jobs = await this.backend.fetch(this.name, free);
          this.options.pollFailures?.worked(this.name);
          fetched = jobs.length;
          for (const job of jobs) this.execute(job);
        } catch (err) {
          // Two nodes racing for one singleton key (unique index), or the database is away: the next poll sorts it out.
          if (this.options.pollFailures) this.options.pollFailures.failed(this.name, err);
          else this.options.log?.warn({ err, queue: this.name }, 'job fetch failed');
        }
      }
      if (this.stopping) break;
      // An idle queue is polled less and less often (1 s, 2 s, 4 s … up to maxIdleMs): an idle node costs little.
      if (fetched > 0) this.idleMs = this.options.pollIntervalMs;
      else if (free > 0) this.idleMs = Math.min(this.idleMs * 2, this.options.maxIdleMs);
      // All slots taken, or the queue was drained: wait for a freed slot, a local send or the poll interval.
      if (free <= 0 || fetched < free) await this.idle(this.idleMs);
    }
  }

  /** Waits `ms`, or until woken (a local send, a freed slot, a stop). */
  private idle(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private execute(job: FetchedJob): void {
    const abort = new AbortController();
    const ctx: JobContext<JobName> = {
      id: job.id,
      name: this.name,
      data: job.data as JobData[JobName],
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      finalAttempt: job.retryCount >= job.retryLimit,
      signal: abort.signal,
    };
    const limit = setTimeout(() => abort.abort(new Error(`the job ran longer than ${Math.round(this.options.maxRunMs / 1000)} s`)), this.options.maxRunMs);
    const aborted = new Promise<never>((_, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }));
    aborted.catch(() => {});
    const started = performance.now();
    const done = (async () => {
      let error: unknown = null;
      try {
        await Promise.race([this.handler(ctx), aborted]);
      } catch (err) {
        error = err ?? new Error('job failed');
      } finally {
        clearTimeout(limit);
      }
      if (this.released.has(job.id)) return;
      try {
        if (error === null) {
          await this.backend.complete(this.name, job.id);
          this.options.log?.debug?.({ queue: this.name, jobId: job.id, pid: process.pid }, 'job completed');
        } else await this.backend.fail(this.name, job.id, error);
        this.options.onOutcome?.(error === null ? 'completed' : ctx.finalAttempt ? 'failed' : 'retry', (performance.now() - started) / 1000);
      } catch (err) {
        // The database is away: the job stays active and expiry (or the next PGlite start) hands it out again.
        this.options.log?.error({ err, queue: this.name, jobId: job.id }, 'could not record a job outcome');
      }
      // Every failed try is told, not only the last: an operator sees retries pile up before anything fails for good.
      if (error !== null) {
        const fields = { ...jobSubject(job.data), err: error, queue: this.name, jobId: job.id, attempt: job.retryCount + 1, attempts: job.retryLimit + 1 };
        this.options.log?.warn(
          fields,
          ctx.finalAttempt
            ? `job failed on its last try (${fields.attempt} of ${fields.attempts})`
            : `job try ${fields.attempt} of ${fields.attempts} failed; it will be retried`,
        );
      }
    })().finally(() => {
      this.running.delete(job.id);
      this.released.delete(job.id);
      this.wake();
      this.options.onJobDone?.();
    });
    this.running.set(job.id, { done, abort });
  }
}

/** What a job is about, for its log lines: the integration (the shop), the product, the full sync, as its data says. */
function jobSubject(data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null) return {};
  const subject: Record<string, unknown> = {};
  for (const key of ['integrationId', 'pimProductId', 'fullSyncId', 'batchId', 'importId', 'adoptionId', 'reportId']) {
    const value = (data as Record<string, unknown>)[key];
    if (value !== undefined) subject[key] = value;
  }
  return subject;
}
