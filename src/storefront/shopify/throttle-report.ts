// Throttling, told to operators: per shop and per minute, one info line with the THROTTLED answers and the time spent
// waiting for the shop's cost budget, instead of a line per call (a full sync can wait thousands of times). A minute
// without throttling says nothing. It forwards everything to the metrics it wraps.
import type { ShopifyRecorder } from '../../lib/metrics.js';

interface Minute {
  throttled: number;
  waits: number;
  waitedMs: number;
}

export class ThrottleReport implements ShopifyRecorder {
  private shops = new Map<string, Minute>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly log: { info(obj: object, msg: string): void },
    private readonly next?: ShopifyRecorder,
    intervalMs = 60_000,
  ) {
    this.timer = setInterval(() => this.flush(intervalMs), intervalMs);
    this.timer.unref();
  }

  queryCost(shop: string, points: number): void {
    this.next?.queryCost(shop, points);
  }

  throttleWait(shop: string, ms: number): void {
    const m = this.minute(shop);
    m.waits++;
    m.waitedMs += ms;
    this.next?.throttleWait(shop, ms);
  }

  throttled(shop: string): void {
    this.minute(shop).throttled++;
    this.next?.throttled(shop);
  }

  /** Writes one line per shop that was throttled or waited since the last flush, and starts counting again. */
  flush(intervalMs: number): void {
    const shops = this.shops;
    this.shops = new Map();
    for (const [shop, m] of shops) {
      this.log.info(
        { shop, throttled: m.throttled, waits: m.waits, waitedMs: Math.round(m.waitedMs), intervalSeconds: Math.round(intervalMs / 1000) },
        `${shop}: ${m.throttled} THROTTLED answers and ${m.waits} waits for its cost budget (${(m.waitedMs / 1000).toFixed(1)} s) in the last ${Math.round(intervalMs / 1000)} s`,
      );
    }
  }

  close(): void {
    clearInterval(this.timer);
  }

  private minute(shop: string): Minute {
    let m = this.shops.get(shop);
    if (!m) this.shops.set(shop, (m = { throttled: 0, waits: 0, waitedMs: 0 }));
    return m;
  }
}
