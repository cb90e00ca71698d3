// The Shopify adapter as a module: the storefront port's implementation (Admin GraphQL), Shopify's OAuth and token
// grants, and the throttle report, with each shop's cost budget shared by every process of a deployment.
import type { Redis } from 'ioredis';
import type { SqlExecutor } from '../../db/executor.js';
import type { Metrics } from '../../lib/metrics.js';
import { postgresSharedBudget, redisSharedBudget } from './shared-budget.js';
import { ShopifyAdapter } from './shopify.adapter.js';
import { ShopifyOAuth } from './shopify-oauth.js';
import { ThrottleReport } from './throttle-report.js';

export interface ShopifyModuleDeps {
  metrics: Metrics;
  redis: Redis | null;
  /** The database, when it is PostgreSQL (other processes may share it); null on PGlite, which is one process. */
  postgres: SqlExecutor | null;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export type ShopifyModule = ReturnType<typeof createShopify>;

export function createShopify({ metrics, redis, postgres, log }: ShopifyModuleDeps) {
  // Throttling in the log as one line per shop and minute (and, through it, in the metrics).
  const throttleReport = log ? new ThrottleReport(log, metrics) : null;
  // One budget per shop across every process (a deployment's workers pace the shop together): in Redis when there is
  // one, else in PostgreSQL; PGlite is one process, whose own estimate is the whole truth.
  const sharedBudget = redis ? redisSharedBudget(redis) : postgres ? postgresSharedBudget(postgres) : undefined;
  const storefront = new ShopifyAdapter({
    metrics: throttleReport ?? metrics,
    sharedBudget,
    onSharedBudgetFailure: (err) => log?.warn({ err }, "the shops' shared cost budget cannot be reached: each process paces the shops on its own until it can"),
  });
  return {
    /** The connector's StorefrontPort (Shopify Admin GraphQL; the sandbox answers it too). */
    storefront,
    /** Shopify's OAuth: install grants, expiring tokens renewed, client-credentials grants. */
    oauth: new ShopifyOAuth(),
    /** Closed when the app closes (its minute timer). */
    throttleReport,
  };
}
