// Per-shop record of Shopify's leaky bucket as the last answer gave it (`extensions.cost.throttleStatus`): what the
// metrics report as each shop's available points. The pacing itself is the throttle's (throttle.ts, shared-budget.ts).

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface QueryCost {
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export interface ShopBudgetEntry extends ThrottleStatus {
  /** When the answer carrying this status arrived (ms since the epoch). */
  observedAt: number;
}

export class ShopBudgets {
  private readonly entries = new Map<string, ShopBudgetEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  record(domain: string, status: ThrottleStatus): void {
    this.entries.set(domain, { ...status, observedAt: this.now() });
  }

  /** The last observed status, or undefined before the first answer. */
  get(domain: string): ShopBudgetEntry | undefined {
    return this.entries.get(domain);
  }

  /** The shops observed so far. */
  domains(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Points available now: the last observation plus what restored since, capped at the maximum. */
  available(domain: string): number | undefined {
    const e = this.entries.get(domain);
    if (!e) return undefined;
    return Math.min(e.maximumAvailable, e.currentlyAvailable + ((this.now() - e.observedAt) / 1000) * e.restoreRate);
  }
}

/** `extensions.cost` of an answer, when it has the expected shape. */
export function readQueryCost(extensions: unknown): QueryCost | null {
  const cost = (extensions as { cost?: unknown } | null | undefined)?.cost as Partial<QueryCost> | undefined;
  const t = cost?.throttleStatus;
  if (!t || typeof t.maximumAvailable !== 'number' || typeof t.currentlyAvailable !== 'number' || typeof t.restoreRate !== 'number') return null;
  return {
    requestedQueryCost: typeof cost.requestedQueryCost === 'number' ? cost.requestedQueryCost : null,
    actualQueryCost: typeof cost.actualQueryCost === 'number' ? cost.actualQueryCost : null,
    throttleStatus: { maximumAvailable: t.maximumAvailable, currentlyAvailable: t.currentlyAvailable, restoreRate: t.restoreRate },
  };
}
