// The sandbox's per-store cost budget: Shopify's leaky bucket. A call is charged its requested cost before it runs
// (refused as THROTTLED when the bucket lacks it) and refunded the difference to its actual cost after. State is kept in
// memory per process: a restart refills every bucket, as a quiet minute would.

export interface BucketLimits {
  maximumAvailable: number;
  restoreRate: number;
}

/** Buckets seen in real answers, by the plan's public display name (anything else: Standard). */
const PLAN_LIMITS: Record<string, BucketLimits> = {
  Advanced: { maximumAvailable: 4000, restoreRate: 200 },
  Plus: { maximumAvailable: 20000, restoreRate: 1000 },
  'Shopify Plus': { maximumAvailable: 20000, restoreRate: 1000 },
  Enterprise: { maximumAvailable: 40000, restoreRate: 2000 },
};
const STANDARD: BucketLimits = { maximumAvailable: 2000, restoreRate: 100 };

export function planLimits(planName: string): BucketLimits {
  return PLAN_LIMITS[planName] ?? STANDARD;
}

export interface ThrottleSnapshot extends BucketLimits {
  currentlyAvailable: number;
}

interface Bucket {
  limits: BucketLimits;
  level: number;
  at: number;
}

export class LeakyBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  private bucket(key: string, limits: BucketLimits): Bucket {
    let b = this.buckets.get(key);
    const t = this.now();
    if (!b) {
      b = { limits, level: limits.maximumAvailable, at: t };
      this.buckets.set(key, b);
    } else {
      b.limits = limits;
      b.level = Math.min(limits.maximumAvailable, b.level + (Math.max(0, t - b.at) / 1000) * limits.restoreRate);
      b.at = t;
    }
    return b;
  }

  /** Takes `cost` points if the bucket holds them; returns whether it did and the status after. */
  take(key: string, limits: BucketLimits, cost: number): { ok: boolean; status: ThrottleSnapshot } {
    const b = this.bucket(key, limits);
    const ok = b.level >= cost;
    if (ok) b.level -= cost;
    return { ok, status: snapshot(b) };
  }

  /** Gives back `points` (requested − actual), capped at the maximum. */
  refund(key: string, limits: BucketLimits, points: number): ThrottleSnapshot {
    const b = this.bucket(key, limits);
    b.level = Math.min(limits.maximumAvailable, b.level + Math.max(0, points));
    return snapshot(b);
  }

  status(key: string, limits: BucketLimits): ThrottleSnapshot {
    return snapshot(this.bucket(key, limits));
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }
}

function snapshot(b: Bucket): ThrottleSnapshot {
  // Shopify reports whole points (it shows e.g. 1990.0 as a float; an integer keeps clients simple).
  return { maximumAvailable: b.limits.maximumAvailable, currentlyAvailable: Math.floor(b.level), restoreRate: b.limits.restoreRate };
}
