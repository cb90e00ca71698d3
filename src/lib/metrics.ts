// Prometheus metrics (prom-client). One Metrics per app (tests build many apps in one process); the layers above record
// into it through the narrow recorder interfaces below. State that can be read when scraped (queue depth, pool use,
// shop budgets) is read then, through `sources`, instead of being counted on hot paths. Process metrics describe the
// process, not an app: they live in one registry per process.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type JobOutcome = 'completed' | 'retry' | 'failed';
export type PushOutcome = 'success' | 'partial' | 'error';
export type SyncSource = 'push' | 'job' | 'bulk';

export interface JobRecorder {
  jobFinished(queue: string, outcome: JobOutcome, seconds: number): void;
}

export interface SyncRecorder {
  pushFinished(integrationId: number, outcome: PushOutcome): void;
  productsSynced(integrationId: number, source: SyncSource, synced: number, failed: number): void;
}

export interface ShopifyRecorder {
  /** Points an answer says it cost (`extensions.cost.actualQueryCost`). */
  queryCost(shop: string, points: number): void;
  throttleWait(shop: string, ms: number): void;
  /** A THROTTLED answer (inside a 200, or a 429). */
  throttled(shop: string): void;
}

export interface MetricSources {
  queueDepth?: () => Promise<{ queue: string; state: string; count: number }[]>;
  shopBudgets?: () => Iterable<{ shop: string; available: number }>;
}

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The route label of requests no route matched: one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600];

let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The Shopify calls' counters, per shop: cost spent, throttle waits and their time, THROTTLED answers. */
function shopifyCounters(registers: Registry[]) {
  return {
    cost: new Counter({
      name: 'pimbridge_shopify_query_cost_total',
      help: 'Shopify cost points spent (actualQueryCost), by shop',
      labelNames: ['shop'],
      registers,
    }),
    waits: new Counter({
      name: 'pimbridge_shopify_throttle_waits_total',
      help: "Calls that waited for the shop's cost budget to restore",
      labelNames: ['shop'],
      registers,
    }),
    waitSeconds: new Counter({
      name: 'pimbridge_shopify_throttle_wait_seconds_total',
      help: "Time spent waiting for the shop's cost budget",
      labelNames: ['shop'],
      registers,
    }),
    throttledAnswers: new Counter({
      name: 'pimbridge_shopify_throttled_total',
      help: 'THROTTLED answers (GraphQL THROTTLED or HTTP 429), by shop',
      labelNames: ['shop'],
      registers,
    }),
  };
}

export class Metrics implements JobRecorder, SyncRecorder, ShopifyRecorder {
  readonly registry = new Registry();
  /** Filled by whoever owns the state (server/app.ts). */
  readonly sources: MetricSources = {};
  readonly contentType = this.registry.contentType;
  private readonly http: Histogram<'method' | 'route' | 'status_code'>;
  /** Children by "method status route": the per-request cost is one Map lookup and one observe. */
  private readonly httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  private readonly jobs: Counter<'queue' | 'outcome'>;
  private readonly jobSeconds: Histogram<'queue'>;
  private readonly pushes: Counter<'integration_id' | 'outcome'>;
  private readonly products: Counter<'integration_id' | 'source' | 'outcome'>;
  private readonly cost: Counter<'shop'>;
  private readonly waits: Counter<'shop'>;
  private readonly waitSeconds: Counter<'shop'>;
  private readonly throttledAnswers: Counter<'shop'>;

  constructor() {
    const registers = [this.registry];
    const sources = this.sources;
    this.http = new Histogram({
      name: 'pimbridge_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, and their latency',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.jobs = new Counter({
      name: 'pimbridge_jobs_total',
      help: 'Job tries run by this node, by queue and outcome (retry: failed, tried again later; failed: the last try failed)',
      labelNames: ['queue', 'outcome'],
      registers,
    });
    this.jobSeconds = new Histogram({
      name: 'pimbridge_job_duration_seconds',
      help: 'Run time of the job tries of this node',
      labelNames: ['queue'],
      buckets: JOB_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'pimbridge_queue_jobs',
      help: 'Jobs in the queue (shared by all nodes), by queue and state (created: waiting, retry: waiting for a retry, active: running)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        // A database that does not answer leaves the series out; the rest of the scrape still works.
        const rows = await sources.queueDepth?.().catch(() => []);
        for (const r of rows ?? []) this.set({ queue: r.queue, state: r.state }, r.count);
      },
    });
    this.pushes = new Counter({
      name: 'pimbridge_pushes_total',
      help: 'POST /api/products/push requests by integration and outcome',
      labelNames: ['integration_id', 'outcome'],
      registers,
    });
    this.products = new Counter({
      name: 'pimbridge_sync_products_total',
      help: "Products synced or failed, by integration and source (push, job: sync.product, bulk: a full sync's bulk upsert)",
      labelNames: ['integration_id', 'source', 'outcome'],
      registers,
    });
    ({ cost: this.cost, waits: this.waits, waitSeconds: this.waitSeconds, throttledAnswers: this.throttledAnswers } = shopifyCounters(registers));
    new Gauge({
      name: 'pimbridge_shopify_cost_available',
      help: "Cost points available in the shop's bucket now, as last observed plus what restored since",
      labelNames: ['shop'],
      registers,
      collect() {
        this.reset();
        for (const b of sources.shopBudgets?.() ?? []) this.set({ shop: b.shop }, b.available);
      },
    });
  }

  /** PostgreSQL's pool, read at each scrape. Not called for PGlite: one in-process session, no pool to report. */
  watchPool(read: () => PoolUse): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, value: (p: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(value(read()));
        },
      });
    gauge('pimbridge_db_pool_connections', "Open connections of this node's PostgreSQL pool", (p) => p.total);
    gauge('pimbridge_db_pool_idle', 'Idle connections of the pool', (p) => p.idle);
    gauge('pimbridge_db_pool_waiting', 'Queries waiting for a free connection', (p) => p.waiting);
    gauge('pimbridge_db_pool_max', "The pool's size limit", (p) => p.max);
  }

  /** `route` is the route's pattern (never the raw URL, so label values stay few); undefined: no route matched. */
  observeHttp(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route ?? ''}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.http.labels({ method, route: route ?? UNMATCHED_ROUTE, status_code: String(statusCode) });
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  jobFinished(queue: string, outcome: JobOutcome, seconds: number): void {
    this.jobs.inc({ queue, outcome });
    this.jobSeconds.observe({ queue }, seconds);
  }

  pushFinished(integrationId: number, outcome: PushOutcome): void {
    this.pushes.inc({ integration_id: String(integrationId), outcome });
  }

  productsSynced(integrationId: number, source: SyncSource, synced: number, failed: number): void {
    const integration_id = String(integrationId);
    if (synced > 0) this.products.inc({ integration_id, source, outcome: 'synced' }, synced);
    if (failed > 0) this.products.inc({ integration_id, source, outcome: 'failed' }, failed);
  }

  queryCost(shop: string, points: number): void {
    if (points > 0) this.cost.inc({ shop }, points);
  }

  throttleWait(shop: string, ms: number): void {
    this.waits.inc({ shop });
    this.waitSeconds.inc({ shop }, ms / 1000);
  }

  throttled(shop: string): void {
    this.throttledAnswers.inc({ shop });
  }

  /** The exposition text: this app's metrics, then the process's. */
  async render(): Promise<string> {
    const [own, proc] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own.trimEnd()}\n\n${proc}`;
  }
}
