// What a push and a dry run answer per product, and what their sync log and the mapping keep of a failure.
import type { FieldChange } from '../../storefront/port/upsert-result.js';

const LOG_ERROR_MAX = 500;

export type PushResult =
  | { status: 'success'; message: string; pim_product_id: number; storefront_product_id: number; storefront_handle: string; method: 'create' | 'update' }
  | { status: 'error'; message: string; pim_product_id: number | null; storefront_product_id: null; validation_errors: string[] };

/** One product of a dry run: what the push would do, field by field, or the error a push would report. */
export type DryRunResult =
  | {
      status: 'success';
      message: string;
      pim_product_id: number;
      /** The mapped storefront product that would be updated; null when the push would create one. */
      storefront_product_id: number | null;
      storefront_handle: string | null;
      method: 'create' | 'update';
      changes: FieldChange[];
    }
  | Extract<PushResult, { status: 'error' }>;

/** A dry run's error result: the same as a push's. */
export const dryFailure = (id: number | null, message: string, validationErrors: string[]) =>
  failure(id, message, validationErrors) as Extract<PushResult, { status: 'error' }>;

export const failure = (id: number | null, message: string, validationErrors: string[]): PushResult => ({
  status: 'error',
  message,
  pim_product_id: id,
  storefront_product_id: null,
  validation_errors: validationErrors,
});

/** An error message cut to what a mapping or sync log keeps. */
export const clip = (s: string) => (s.length > LOG_ERROR_MAX ? `${s.slice(0, LOG_ERROR_MAX - 1)}…` : s);

/** The sync log's error: the one reason when every failure shares it, else a count and the first reason. */
export function summarise(failed: PushResult[], total: number): string | null {
  if (failed.length === 0) return null;
  const reasons = [...new Set(failed.map((f) => f.message))];
  if (reasons.length === 1 && failed.length === total) return clip(reasons[0]);
  return clip(`${failed.length} of ${total} products failed; first: ${failed[0].message}`);
}
