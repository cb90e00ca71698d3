// Fixed-window request counters per key (client IP), in process or in Redis so that instances share one budget.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** Whole seconds until a refused caller may retry (at least 1): Retry-After and the messages that quote it. */
export const retryAfterSeconds = (decision: RateDecision): number => Math.max(1, Math.ceil(decision.resetMs / 1000));

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
}

export function createRateLimiter(opts: { name: string; points: number; durationSeconds: number; redis: Redis | null }): RateLimiter {
  const base = { keyPrefix: `pimbridge:rl:${opts.name}`, points: opts.points, duration: opts.durationSeconds };
  const limiter: RateLimiterAbstract = opts.redis
    ? // If Redis stops answering, an in-process limiter takes over rather than failing requests.
      new RateLimiterRedis({ ...base, storeClient: opts.redis, insuranceLimiter: new RateLimiterMemory(base) })
    : new RateLimiterMemory(base);
  return {
    async consume(key) {
      try {
        const res = await limiter.consume(key);
        return { allowed: true, limit: opts.points, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        return { allowed: false, limit: opts.points, remaining: 0, resetMs: err.msBeforeNext };
      }
    },
  };
}
