// Per-shop throttle for Shopify's cost-based leaky bucket, and the retry policy around every adapter call.
// - Before a call with an expected cost it waits `(cost − available) / restoreRate` seconds, `available` being the
//   last `extensions.cost.throttleStatus.currentlyAvailable` plus what restored since, minus the costs reserved by calls
//   of this process that the storefront has not answered yet. The reservation is taken synchronously (no await between
//   reading and charging), so concurrent callers of one shop queue up behind each other instead of all firing at once.
// - A THROTTLED answer (inside a 200 or as a 429) is waited out the same way and retried, never surfaced, until an
//   overall deadline (default 120 s); 5xx, timeouts and network errors are retried with exponential back-off and full
//   jitter (default 4 attempts, base 250 ms, cap 5 s); 401, 403, validation and other answers are not retried.
// - With a SharedBudget (shared-budget.ts: Redis or PostgreSQL) the bucket estimate lives there instead, one for every
//   process of the deployment; while it cannot be reached, the process paces the shop on its own estimate.
// Clock, sleep and randomness are injected so tests run on a fake clock.
import { StorefrontError } from '../port/errors.js';
import type { Charge, SharedBudget } from './shared-budget.js';
import type { ThrottleStatus } from './shop-budget.js';

export interface ThrottleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): the jitter. */
  random(): number;
}

export const systemClock: ThrottleClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

export interface RetryPolicy {
  /** How long a call may keep waiting out throttles (ms). */
  throttleDeadlineMs: number;
  /** Attempts for 5xx / timeouts / network errors, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { throttleDeadlineMs: 120_000, maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 };

interface Bucket {
  maximumAvailable: number;
  restoreRate: number;
  /** Estimated points available at `at` (may go below 0: reserved ahead by waiting callers). */
  available: number;
  at: number;
  /** Costs reserved by calls not yet answered. */
  reserved: number;
}

/**
 * What a call passes back to the throttle: the status of its answer (its own reservation is released first) and the
 * points the answer says it cost, when it says.
 */
export type ObserveStatus = (status: ThrottleStatus, actualCost?: number) => void;

/**
 * Releases a reservation: with the answer's status and actual cost when there was an answer. With a shared budget it
 * returns the settling of it there (never rejected); nobody needs to wait for it but a test.
 */
export type Release = (status?: ThrottleStatus, actualCost?: number) => void | Promise<void>;

export class ShopThrottle {
  private readonly buckets = new Map<string, Bucket>();
  private readonly unknownReserved = new Map<string, number>();
  /** Waits taken so far (throttle and back-off), for tests and the benchmark. */
  readonly stats = { waits: 0, waitedMs: 0 };

  constructor(
    private readonly clock: ThrottleClock = systemClock,
    readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    /** Told of each wait for a shop's cost budget (metrics); back-off after failures is not such a wait. */
    private readonly onThrottleWait?: (domain: string, ms: number) => void,
    /** The deployment's shared estimate of each shop's bucket; without it, this process's own. */
    private readonly shared?: SharedBudget,
    /** Told once per outage when the shared estimate cannot be reached (the process then paces on its own). */
    private readonly onSharedFailure?: (err: unknown) => void,
  ) {}

  private sharedDown = false;

  /** A shared-budget step, or null when it failed (told once per outage): the caller then paces on its own estimate. */
  private async viaShared<T>(step: (shared: SharedBudget) => Promise<T>): Promise<T | null> {
    if (!this.shared) return null;
    try {
      const result = await step(this.shared);
      this.sharedDown = false;
      return result;
    } catch (err) {
      if (!this.sharedDown) this.onSharedFailure?.(err);
      this.sharedDown = true;
      return null;
    }
  }

  /** The estimated points available now (undefined before the shop's first answer). */
  available(domain: string): number | undefined {
    const b = this.buckets.get(domain);
    return b ? this.restored(b) : undefined;
  }

  private restored(b: Bucket): number {
    return Math.min(b.maximumAvailable, b.available + ((this.clock.now() - b.at) / 1000) * b.restoreRate);
  }

  /** Records an answer's throttle status: the storefront's figure minus what this process reserved and is still waiting on. */
  observe(domain: string, status: ThrottleStatus): void {
    if (this.shared) void this.viaShared((s) => s.settle(domain, this.clock.now(), status, 0));
    this.observeLocal(domain, status);
  }

  private observeLocal(domain: string, status: ThrottleStatus): void {
    const reserved = this.buckets.get(domain)?.reserved ?? this.unknownReserved.get(domain) ?? 0;
    this.unknownReserved.delete(domain);
    this.buckets.set(domain, {
      maximumAvailable: status.maximumAvailable,
      restoreRate: status.restoreRate,
      available: status.currentlyAvailable - reserved,
      at: this.clock.now(),
      reserved,
    });
  }

  /**
   * Reserves `cost` points of the shop's bucket, waiting until they are there. Returns the release, which takes an
   * observed status (or nothing, when the answer carried none). Throws StorefrontError('throttled') when the wait
   * would end after `deadline`.
   */
  async acquire(domain: string, cost: number, deadline = Number.POSITIVE_INFINITY): Promise<Release> {
    const shared = await this.viaShared((s) => s.charge(domain, cost, this.clock.now(), deadline));
    if (shared) return this.afterSharedCharge(domain, shared, deadline);
    return this.acquireLocal(domain, cost, deadline);
  }

  /** Waits what the shared charge says; the release settles it there (and keeps this process's figure for metrics). */
  private async afterSharedCharge(domain: string, charge: Charge, deadline: number): Promise<Release> {
    if (charge.kind === 'refused') {
      throw new StorefrontError('throttled', `${domain}: the cost budget would not allow this call before the retry deadline`);
    }
    const charged = charge.kind === 'charged' ? charge.charged : 0;
    if (charge.kind === 'charged' && charge.waitMs > 0) {
      const waitMs = Math.min(charge.waitMs, Math.max(0, deadline - this.clock.now()));
      this.count(waitMs);
      this.onThrottleWait?.(domain, waitMs);
      await this.clock.sleep(waitMs);
    }
    let released = false;
    return async (status, actualCost) => {
      if (released) return;
      released = true;
      if (status) this.observeLocal(domain, status);
      const refund = status && actualCost !== undefined ? Math.max(0, charged - actualCost) : 0;
      if (status || refund > 0) await this.viaShared((s) => s.settle(domain, this.clock.now(), status ?? null, refund));
    };
  }

  private async acquireLocal(domain: string, cost: number, deadline: number): Promise<Release> {
    const b = this.buckets.get(domain);
    let charged: number;
    if (!b) {
      // No answer seen yet: nothing to go by, so the call goes (its answer teaches the bucket).
      charged = cost;
      this.unknownReserved.set(domain, (this.unknownReserved.get(domain) ?? 0) + cost);
    } else {
      charged = Math.min(cost, b.maximumAvailable);
      const available = this.restored(b);
      const waitMs = available >= charged ? 0 : Math.ceil(((charged - available) / b.restoreRate) * 1000);
      if (waitMs > 0 && this.clock.now() + waitMs > deadline) {
        throw new StorefrontError('throttled', `${domain}: the cost budget would not allow this call before the retry deadline`);
      }
      // Charged now, before any await: concurrent callers see the deficit and wait their own turn.
      b.available = available - charged;
      b.at = this.clock.now();
      b.reserved += charged;
      if (waitMs > 0) {
        this.count(waitMs);
        this.onThrottleWait?.(domain, waitMs);
        await this.clock.sleep(waitMs);
      }
    }
    let released = false;
    return (status) => {
      if (released) return;
      released = true;
      const current = this.buckets.get(domain);
      if (current) current.reserved = Math.max(0, current.reserved - charged);
      else this.unknownReserved.set(domain, Math.max(0, (this.unknownReserved.get(domain) ?? 0) - charged));
      if (status) this.observeLocal(domain, status);
    };
  }

  private count(ms: number): void {
    this.stats.waits++;
    this.stats.waitedMs += ms;
  }

  /** Exponential back-off with full jitter after the n-th consecutive failure: random in [0, min(cap, base·2^(n−1))). */
  async backoff(failures: number): Promise<void> {
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (failures - 1));
    const wait = Math.floor(this.clock.random() * ceiling);
    this.count(wait);
    await this.clock.sleep(wait);
  }

  /** A throttled answer without a status (a bare 429): treat the bucket as empty now. */
  private drained(domain: string): boolean {
    if (this.shared) void this.viaShared((s) => s.drain(domain, this.clock.now()));
    const b = this.buckets.get(domain);
    if (!b) return false;
    b.available = Math.min(b.available, 0);
    b.at = this.clock.now();
    return true;
  }

  /**
   * Runs one storefront call under the throttle and the retry policy. `call` gets the function through which it reports
   * its answer's throttle status (which also releases its reservation).
   */
  async run<T>(domain: string, cost: number, call: (observe: ObserveStatus) => Promise<T>, options: { retryUnavailable?: boolean } = {}): Promise<T> {
    const start = this.clock.now();
    const deadline = start + this.policy.throttleDeadlineMs;
    let failures = 0;
    let bareThrottles = 0;
    for (;;) {
      const release = await this.acquire(domain, cost, deadline);
      let observed = false;
      try {
        const result = await call((status, actualCost) => {
          observed = true;
          release(status, actualCost);
        });
        release();
        return result;
      } catch (err) {
        release();
        if (!(err instanceof StorefrontError)) throw err;
        if (err.kind === 'throttled') {
          // The answer's status (if any) is observed: the next acquire waits exactly what the bucket needs.
          if (!observed && !this.drained(domain)) {
            bareThrottles++;
            const wait = Math.min(this.policy.maxDelayMs * 2, 1000 * 2 ** Math.min(bareThrottles - 1, 4));
            if (this.clock.now() + wait > deadline) throw err;
            this.count(wait);
            this.onThrottleWait?.(domain, wait);
            await this.clock.sleep(wait);
          }
          if (this.clock.now() >= deadline) throw err;
          continue;
        }
        if (err.kind === 'unavailable' && options.retryUnavailable !== false) {
          failures++;
          if (failures >= this.policy.maxAttempts) throw err;
          await this.backoff(failures);
          continue;
        }
        throw err;
      }
    }
  }
}
