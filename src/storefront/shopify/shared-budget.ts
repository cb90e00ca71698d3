// One shop's cost budget shared by every process of a deployment, so that M workers together stay inside the shop's
// leaky bucket instead of each pacing itself as if it were alone (two workers on one shop otherwise collide: hundreds
// of THROTTLED answers in a full sync). The state per shop is Shopify's bucket as last seen — size, restore rate, points
// available at a moment — kept in Redis when REDIS_URL is set, else in PostgreSQL (a row per shop); each call charges
// its expected cost there in one atomic step that also says how long to wait, and each answer settles it: the points
// the call did not spend come back, and the estimate falls to what the shop reports when that is lower (another app,
// another deployment, a cost we underestimated). Shopify's rate limits: https://shopify.dev/docs/api/usage/limits
// Clocks are the callers' (ms): the throttle's injected clock, so tests keep their fake time.
import type { Redis } from 'ioredis';
import type { SqlExecutor } from '../../db/executor.js';
import type { ThrottleStatus } from './shop-budget.js';

export type Charge =
  /** No answer of this shop seen yet by anyone: the call goes (its answer teaches the budget). */
  | { kind: 'unknown' }
  /** Charged; wait this long before sending. */
  | { kind: 'charged'; waitMs: number; charged: number }
  /** The wait would end after the deadline: nothing was charged. */
  | { kind: 'refused'; waitMs: number };

export interface SharedBudget {
  /** Restores the shop's budget to `now`, then charges `cost` (at most the bucket) if the wait it implies ends by `deadline`. */
  charge(domain: string, cost: number, now: number, deadline: number): Promise<Charge>;
  /**
   * An answer: `refund` points come back (charged but not spent); with a status, the budget becomes the lower of the
   * estimate and what the shop reports (and the bucket's size and rate are the shop's). A bare 429: `drain`.
   */
  settle(domain: string, now: number, status: ThrottleStatus | null, refund: number): Promise<void>;
  /** A THROTTLED answer without a status: the bucket is empty now. */
  drain(domain: string, now: number): Promise<void>;
}

/** How long an idle shop's budget is kept (Redis expiry): past it the bucket is full again anyway. */
const KEEP_MS = 3_600_000;

// KEYS[1] the shop's hash; ARGV cost, now, deadline, keep. Numbers go back as strings (Lua numbers become integers).
const CHARGE_LUA = `
local s = redis.call('HMGET', KEYS[1], 'max', 'rate', 'avail', 'at')
if not s[1] then return {'unknown'} end
local max, rate, avail, at = tonumber(s[1]), tonumber(s[2]), tonumber(s[3]), tonumber(s[4])
local cost, now, deadline = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local restored = math.min(max, avail + math.max(0, now - at) / 1000 * rate)
local charged = math.min(cost, max)
local wait = 0
if restored < charged then wait = math.ceil((charged - restored) / rate * 1000) end
if now + wait > deadline then return {'refused', tostring(wait)} end
redis.call('HSET', KEYS[1], 'avail', tostring(restored - charged), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {'charged', tostring(wait), tostring(charged)}`;

// ARGV now, refund, keep, then (with a status) max, current, rate.
const SETTLE_LUA = `
local now, refund = tonumber(ARGV[1]), tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'max', 'rate', 'avail', 'at')
local max, rate = tonumber(ARGV[4] or s[1]), tonumber(ARGV[6] or s[2])
if not max or not rate then return 0 end
local avail
if s[1] then
  avail = math.min(max, tonumber(s[3]) + math.max(0, now - tonumber(s[4])) / 1000 * tonumber(s[2]) + refund)
  if ARGV[5] then avail = math.min(avail, tonumber(ARGV[5])) end
  now = math.max(now, tonumber(s[4]))
else
  avail = tonumber(ARGV[5])
end
redis.call('HSET', KEYS[1], 'max', tostring(max), 'rate', tostring(rate), 'avail', tostring(avail), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

const DRAIN_LUA = `
local s = redis.call('HMGET', KEYS[1], 'avail', 'at')
if not s[1] then return 0 end
redis.call('HSET', KEYS[1], 'avail', tostring(math.min(tonumber(s[1]), 0)), 'at', tostring(math.max(tonumber(ARGV[1]), tonumber(s[2]))))
return 1`;

export function redisSharedBudget(redis: Redis, prefix = 'pimbridge:shop-budget:'): SharedBudget {
  const key = (domain: string) => `${prefix}${domain}`;
  return {
    async charge(domain, cost, now, deadline) {
      const r = (await redis.eval(CHARGE_LUA, 1, key(domain), cost, now, deadline, KEEP_MS)) as string[];
      if (r[0] === 'unknown') return { kind: 'unknown' };
      if (r[0] === 'refused') return { kind: 'refused', waitMs: Number(r[1]) };
      return { kind: 'charged', waitMs: Number(r[1]), charged: Number(r[2]) };
    },
    async settle(domain, now, status, refund) {
      const args: (string | number)[] = [now, refund, KEEP_MS];
      if (status) args.push(status.maximumAvailable, status.currentlyAvailable, status.restoreRate);
      await redis.eval(SETTLE_LUA, 1, key(domain), ...args);
    },
    async drain(domain, now) {
      await redis.eval(DRAIN_LUA, 1, key(domain), now);
    },
  };
}

// The same steps as single statements on the shop_budgets table (its row locked by the UPDATE for the step's length).
const RESTORED = 'LEAST(b.maximum, b.available + GREATEST(0, $2::float8 - b.at_ms) / 1000 * b.restore_rate)';

const CHARGE_SQL = `
  WITH cur AS (
    SELECT b.domain, b.at_ms, ${RESTORED} AS restored, LEAST($3::float8, b.maximum) AS charged, b.restore_rate
    FROM shop_budgets b WHERE b.domain = $1 FOR UPDATE
  ), calc AS (
    SELECT cur.*, CASE WHEN restored >= charged THEN 0 ELSE ceil((charged - restored) / restore_rate * 1000) END AS wait_ms FROM cur
  ), upd AS (
    UPDATE shop_budgets b SET available = c.restored - c.charged, at_ms = GREATEST($2::float8, c.at_ms)
    FROM calc c WHERE b.domain = c.domain AND $2::float8 + c.wait_ms <= $4::float8
    RETURNING b.domain
  )
  SELECT c.wait_ms::float8 AS wait_ms, c.charged::float8 AS charged, EXISTS (SELECT 1 FROM upd) AS ok FROM calc c`;

const SETTLE_SQL = `
  INSERT INTO shop_budgets AS b (domain, maximum, restore_rate, available, at_ms)
  VALUES ($1, $4::float8, $6::float8, $5::float8, $2::float8)
  ON CONFLICT (domain) DO UPDATE SET
    maximum = EXCLUDED.maximum,
    restore_rate = EXCLUDED.restore_rate,
    available = LEAST(${RESTORED} + $3::float8, EXCLUDED.available),
    at_ms = GREATEST($2::float8, b.at_ms)`;

const REFUND_SQL = `UPDATE shop_budgets b SET available = LEAST(b.maximum, ${RESTORED} + $3::float8), at_ms = GREATEST($2::float8, b.at_ms) WHERE b.domain = $1`;

const DRAIN_SQL = 'UPDATE shop_budgets SET available = LEAST(available, 0), at_ms = GREATEST($2::float8, at_ms) WHERE domain = $1';

export function postgresSharedBudget(executor: SqlExecutor): SharedBudget {
  return {
    async charge(domain, cost, now, deadline) {
      const { rows } = await executor.executeSql(CHARGE_SQL, [domain, now, cost, deadline]);
      const r = rows[0];
      if (!r) return { kind: 'unknown' };
      if (!r.ok) return { kind: 'refused', waitMs: Number(r.wait_ms) };
      return { kind: 'charged', waitMs: Number(r.wait_ms), charged: Number(r.charged) };
    },
    async settle(domain, now, status, refund) {
      if (status) {
        await executor.executeSql(SETTLE_SQL, [domain, now, refund, status.maximumAvailable, status.currentlyAvailable, status.restoreRate]);
      } else if (refund > 0) {
        await executor.executeSql(REFUND_SQL, [domain, now, refund]);
      }
    },
    async drain(domain, now) {
      await executor.executeSql(DRAIN_SQL, [domain, now]);
    },
  };
}
