// A worker node's job side: the handlers of the queues, the delta-sync poll ticker and pg-boss maintenance. Started
// by `serve` for roles worker and all (and explicitly by tests); an API node and a plain test app never start it.
import { JOB, type JobName } from './job-types.js';
import type { JobHandler, Logger } from './job-runner.js';
import type { PgBossQueue } from './queue.js';

export type JobHandlers = { [N in JobName]?: { handler: JobHandler<N>; concurrency?: number } };

/** The delta-sync ticker (connector/sync/delta-poller.ts): sends one sync.poll per active integration per interval. */
export interface Ticker {
  start(): void;
  stop(): void | Promise<void>;
}

export interface WorkerOptions {
  /** sync.product's concurrency (SYNC_CONCURRENCY); queues without their own setting get it too. */
  concurrency: number;
  /** PGlite: jobs left `active` were the dead previous process's (one process per data dir): retry them at once. */
  releaseOrphans: boolean;
  maintenanceIntervalSeconds: number;
  /**
   * How often this node looks for jobs whose lease ran out (a killed worker's) and hands them back (PostgreSQL; a few
   * seconds, so a dead worker's job waits its lease and little more). 0: never (PGlite: one process, orphans released at start).
   */
  reclaimIntervalSeconds: number;
  log?: Logger & { info(obj: object, msg: string): void };
}

export class Workers {
  private maintenance: NodeJS.Timeout | null = null;
  private reclaim: NodeJS.Timeout | null = null;
  private started = false;

  constructor(
    private readonly queue: PgBossQueue,
    /** Filled by services.ts (and whoever adds a queue's handler) before start. */
    readonly handlers: JobHandlers,
    private readonly options: WorkerOptions,
    /** The delta poller, when wired (it ticks only with SYNC_POLL_SECONDS > 0). */
    private readonly ticker: Ticker | null = null,
  ) {}

  get running(): boolean {
    return this.started;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.options.releaseOrphans) {
      const released = await this.queue.releaseActive();
      if (released > 0) this.options.log?.info({ released }, 'jobs interrupted by the last stop were queued again');
    }
    for (const name of Object.values(JOB)) {
      const entry = this.handlers[name] as { handler: JobHandler<typeof name>; concurrency?: number } | undefined;
      if (!entry) {
        this.options.log?.warn({ queue: name }, 'no handler registered for this queue: its jobs wait');
        continue;
      }
      this.queue.work(name, entry.handler, { concurrency: entry.concurrency ?? this.options.concurrency });
    }
    const maintain = () =>
      this.queue.maintain(this.options.maintenanceIntervalSeconds).catch((err) => this.options.log?.error({ err }, 'job queue maintenance failed'));
    this.maintenance = setInterval(maintain, this.options.maintenanceIntervalSeconds * 1_000);
    this.maintenance.unref();
    void maintain();
    if (this.options.reclaimIntervalSeconds > 0) {
      const reclaim = () =>
        this.queue
          .reclaimExpired()
          .then((n) => {
            if (n === 0) return;
            this.options.log?.warn({ jobs: n }, `took over ${n} job(s) whose worker stopped renewing its lease (a worker died or froze)`);
            // They are due now: this node's idle queues fetch at once instead of at their next idle poll.
            for (const name of Object.values(JOB)) this.queue.wake(name);
          })
          .catch((err) => this.options.log?.error({ err }, 'could not take over the jobs of dead workers'));
      this.reclaim = setInterval(reclaim, this.options.reclaimIntervalSeconds * 1_000);
      this.reclaim.unref();
    }
    this.ticker?.start();
  }

  /** Graceful: the ticker stops, no new jobs are fetched, running ones get `timeoutMs`, then go back to the queue. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.started) return;
    this.started = false;
    if (this.maintenance) clearInterval(this.maintenance);
    if (this.reclaim) clearInterval(this.reclaim);
    await this.ticker?.stop();
    await this.queue.stopWorkers(timeoutMs);
  }
}
