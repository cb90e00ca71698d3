// The delta sync's clock on a worker node: every SYNC_POLL_SECONDS it sends one sync.poll job per active integration.
// The job's singletonKey (the integration) with singletonSeconds = the interval lets the queue keep one poll per
// integration per interval whatever the number of worker nodes ticking: the queue is the lock, no leader election.
// With a wake (delta-wake.ts), a change in this server's own PIM polls its integrations at once, between the ticks.
import { JOB, type JobQueue } from '../../jobs/job-types.js';
import type { DeltaSyncRepository } from './delta-sync.repository.js';
import type { DeltaWake } from './delta-wake.js';

interface Logger {
  error(obj: object, msg: string): void;
}

export class DeltaPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly repo: Pick<DeltaSyncRepository, 'activeIntegrationIds'>,
    private readonly queue: Pick<JobQueue, 'send'>,
    private readonly intervalSeconds: number,
    private readonly log?: Logger,
    private readonly wake?: Pick<DeltaWake, 'start' | 'close'> | null,
  ) {}

  /** Ticks now and then every interval (a tick still running is not overlapped). */
  start(): void {
    // SYNC_POLL_SECONDS=0: no automatic delta sync (push-only installations; full syncs still run).
    if (this.timer || this.intervalSeconds === 0) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.tick()
        .then(
          () => undefined,
          (err: unknown) => this.log?.error({ err }, 'delta-sync tick failed'),
        )
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(tick, this.intervalSeconds * 1_000);
    this.timer.unref();
    tick();
    this.wake?.start().catch((err: unknown) => this.log?.error({ err }, 'the delta sync cannot hear the PIM’s changes: it polls every interval only'));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.wake?.close();
    await this.running;
  }

  /** Sends this interval's sync.poll of every active integration; returns how many were new (not already sent by a node). */
  async tick(): Promise<number> {
    let sent = 0;
    for (const integrationId of await this.repo.activeIntegrationIds()) {
      const id = await this.queue.send(JOB.syncPoll, { integrationId }, { singletonKey: String(integrationId), singletonSeconds: this.intervalSeconds });
      if (id) sent++;
    }
    return sent;
  }
}
