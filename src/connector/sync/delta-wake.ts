// The delta sync at once instead of at the next tick: when this server's own PIM says an organization's catalogue
// changed (a NOTIFY after each write it answered, pim/changes), a worker node sends a sync.poll of each active
// integration of that organization's PIM account now. The poll itself is what it always is (it reads the PIM over
// HTTP from the watermark, so nothing is skipped and nothing new is trusted from the hint); the hint only moves it
// earlier. Changes are gathered for DELAY_MS, so a burst of writes (a product saved with its variants) makes one poll.
// Integrations whose PIM is another server get no hint: their changes wait for the tick (SYNC_POLL_SECONDS).
import { JOB, type JobQueue } from '../../jobs/job-types.js';

/** A change's organization, told by the PIM of this server (the app injects the PIM module's feed). */
export interface CatalogueChangeFeed {
  subscribe(handler: (organizationId: number) => void): Promise<() => Promise<void>>;
}

export interface DeltaWakeDeps {
  changes: CatalogueChangeFeed;
  /** SHA-256 of every key of the organization (the integrations of its PIM account use one of them). */
  keyHashesOf(organizationId: number): Promise<string[]>;
  integrationsOf(keyHashes: string[]): Promise<{ id: number; is_active: boolean }[]>;
  queue: Pick<JobQueue, 'send'>;
  log?: { warn(obj: object, msg: string): void };
}

const DELAY_MS = 150;

export class DeltaWake {
  private stop: (() => Promise<void>) | null = null;
  private readonly waiting = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: DeltaWakeDeps,
    private readonly delayMs = DELAY_MS,
  ) {}

  async start(): Promise<void> {
    if (this.stop) return;
    this.stop = await this.deps.changes.subscribe((organizationId) => {
      this.waiting.add(organizationId);
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.flushing = this.flushing.then(() => this.flush());
      }, this.delayMs);
    });
  }

  async close(): Promise<void> {
    const stop = this.stop;
    this.stop = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.clear();
    await stop?.();
    await this.flushing;
  }

  /** Sends the polls of the organizations gathered (the queue keeps one queued per integration: repeats are dropped). */
  private async flush(): Promise<void> {
    const organizations = [...this.waiting];
    this.waiting.clear();
    for (const organizationId of organizations) {
      try {
        const integrations = await this.deps.integrationsOf(await this.deps.keyHashesOf(organizationId));
        for (const i of integrations) if (i.is_active) await this.deps.queue.send(JOB.syncPoll, { integrationId: i.id }, { singletonKey: String(i.id) });
      } catch (err) {
        // The tick polls anyway.
        this.deps.log?.warn({ err, organizationId }, 'the delta sync could not be started early');
      }
    }
  }
}
