// The storefront calls a bench recorded (the proxy of test/helpers/bridge-processes.ts), summed by operation and per
// product, and written as RESULTS.md's "calls (points)" cells: shared by the push and the dry-run benches.
import type { StorefrontCall } from '../test/helpers/bridge-processes.js';

export interface CallSummary {
  operation: string;
  count: number;
  throttled: number;
  actual: number;
}

/** Calls and the sandbox's actual points per product, with the calls by operation. */
export interface CallCost {
  calls: number;
  points: number;
  byOperation: CallSummary[];
}

export function byOperation(calls: StorefrontCall[]): CallSummary[] {
  const by = new Map<string, StorefrontCall[]>();
  // A call whose body is no GraphQL document: the GET of a bulk operation's result file.
  for (const c of calls) {
    const op = c.operation === '?' ? 'result file (GET)' : c.operation;
    by.set(op, [...(by.get(op) ?? []), c]);
  }
  return [...by].map(([operation, cs]) => ({
    operation,
    count: cs.length,
    throttled: cs.filter((c) => c.throttled).length,
    actual: cs.reduce((a, c) => a + (c.actualCost ?? 0), 0),
  }));
}

export function costPerProduct(calls: StorefrontCall[], products: number): CallCost {
  return {
    calls: calls.length / products,
    points: calls.reduce((a, c) => a + (c.actualCost ?? 0), 0) / products,
    byOperation: byOperation(calls),
  };
}

/** e.g. `ProductSetSync ×50 (1,100 points), PublishablePublish ×50 (500 points)`. */
export const operationsText = (xs: CallSummary[]) =>
  xs
    .map((x) => `${x.operation} ×${x.count} (${Math.round(x.actual).toLocaleString('en-US')} points${x.throttled ? `, ${x.throttled} THROTTLED` : ''})`)
    .join(', ');
