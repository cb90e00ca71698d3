// What a write changed in a product, from its snapshots before and after (history-snapshot.ts): each field old → new,
// a stock level by its warehouse, a variant's fields by the variant, a variant added or removed as a whole. Pure.
import type { Snapshot } from './history-snapshot.js';

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
  /** The variant the field is of (`field: 'variant'`: the variant added or removed as a whole). */
  variant_id?: number;
  variant_sku?: string;
  /** The warehouse code of a stock level (`field: 'stock_level'`). */
  warehouse?: string;
}

type Levels = Record<string, number>;
type Variant = Record<string, unknown> & { sku: string; stock_levels?: Levels };

/** A new product's fields worth listing: the ones with a value. */
const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The changes from `before` (null: the product is new) to `after`; empty when nothing differs. */
export function diffSnapshots(before: Snapshot | null, after: Snapshot): FieldChange[] {
  const { variants: oldVariants = {}, stock_levels: oldLevels = {}, ...oldOwn } = (before ?? {}) as Snapshot;
  const { variants: newVariants = {}, stock_levels: newLevels = {}, ...newOwn } = after;
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(newOwn)) {
    if (before === null ? !isEmpty(value) : !same(oldOwn[field], value)) changes.push({ field, old: oldOwn[field] ?? null, new: value });
  }
  changes.push(...levelChanges(oldLevels as Levels, newLevels as Levels, {}));
  changes.push(...variantChanges(oldVariants as Record<string, Variant>, newVariants as Record<string, Variant>));
  return changes;
}

function variantChanges(before: Record<string, Variant>, after: Record<string, Variant>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const id of union(before, after)) {
    const [old, now] = [before[id], after[id]];
    const ref = { variant_id: Number(id), variant_sku: (now ?? old).sku };
    if (!old || !now) {
      changes.push({ field: 'variant', ...ref, old: old ?? null, new: now ?? null });
      continue;
    }
    const { stock_levels: oldLevels = {}, ...oldFields } = old;
    const { stock_levels: newLevels = {}, ...newFields } = now;
    for (const [field, value] of Object.entries(newFields)) {
      if (!same(oldFields[field], value)) changes.push({ field, ...ref, old: oldFields[field] ?? null, new: value });
    }
    changes.push(...levelChanges(oldLevels, newLevels, ref));
  }
  return changes;
}

function levelChanges(before: Levels, after: Levels, ref: Pick<FieldChange, 'variant_id' | 'variant_sku'>): FieldChange[] {
  return union(before, after)
    .filter((code) => !same(before[code], after[code]))
    .map((code) => ({ field: 'stock_level', ...ref, warehouse: code, old: before[code] ?? null, new: after[code] ?? null }));
}

/** The keys of both objects, in order: the first's, then the second's new ones. */
const union = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])];
