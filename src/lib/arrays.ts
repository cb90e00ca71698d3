// Array helpers for lists of any length. `target.push(...items)` and `Math.max(...values)` pass every element as an
// argument on the stack: past some hundred thousand elements V8 throws `RangeError: Maximum call stack size exceeded`
// (a file's 1.25 M row errors did). These loop instead.

/** Appends `items` to `target` (in place) and returns it. */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty: number): number {
  let max = empty;
  let any = false;
  for (const v of values) {
    if (!any || v > max) max = v;
    any = true;
  }
  return max;
}

/** The smallest of `values`, or `empty` when there are none. */
export function minOf(values: Iterable<number>, empty: number): number {
  let min = empty;
  let any = false;
  for (const v of values) {
    if (!any || v < min) min = v;
    any = true;
  }
  return min;
}
