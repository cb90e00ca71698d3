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
  /** Where `key` stands, without taking a point: refused once every point of its window is spent. */
  peek(key: string): Promise<RateDecision>;
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
    async peek(key) {
      const res = await limiter.get(key);
      const remaining = res === null ? opts.points : Math.max(0, opts.points - res.consumedPoints);
      return { allowed: remaining > 0, limit: opts.points, remaining, resetMs: res?.msBeforeNext ?? 0 };
    },
  };
}

/** The outcome of a secret-token check limited per address (`checkTokenLimited`). */
export type TokenCheck = { ok: true } | { ok: false; limited: false } | { ok: false; limited: true; retryAfterSeconds: number };

interface WarnLog {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/**
 * A secret token checked per client address against brute force: only refused attempts take a point of `limiter`'s
 * window, so a right token never spends the budget; once an address has spent it, every attempt from it is refused —
 * the right token too — until its window ends. Each refused attempt is logged at warn with the address (never the
 * token); attempts refused for the limit only at debug, so that a flood of them does not flood the log.
 */
export async function checkTokenLimited(limiter: RateLimiter, ip: string, valid: () => boolean, log: WarnLog, what: string): Promise<TokenCheck> {
  const standing = await limiter.peek(ip);
  if (!standing.allowed) {
    log.debug({ ip }, `${what}: attempt refused, too many wrong tokens from this address`);
    return { ok: false, limited: true, retryAfterSeconds: retryAfterSeconds(standing) };
  }
  if (valid()) return { ok: true };
  const decision = await limiter.consume(ip);
  if (decision.allowed && decision.remaining > 0) {
    log.warn({ ip, remaining: decision.remaining }, `${what}: missing or wrong token`);
    return { ok: false, limited: false };
  }
  log.warn(
    { ip, retryAfterSeconds: retryAfterSeconds(decision) },
    `${what}: missing or wrong token, the last of ${decision.limit} this minute: this address is refused until the window ends`,
  );
  return decision.allowed ? { ok: false, limited: false } : { ok: false, limited: true, retryAfterSeconds: retryAfterSeconds(decision) };
}
