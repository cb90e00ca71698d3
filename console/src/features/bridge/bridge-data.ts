// The bridge pages' pure helpers: the connector's timestamps, sync logs bucketed into a time series for the chart,
// the health score's factors in plain words, push batches. No React, no fetch: console/test/bridge-data.test.ts runs them.

/** The connector's `YYYY-MM-DD HH:MM:SS` (UTC) as a Date; null for null or anything else. */
export function parseUtc(value: string | null | undefined): Date | null {
  if (!value) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** A connector timestamp in the merchant's own time zone (`short`: without this year's year), or `fallback` when there is none. */
export function formatWhen(value: string | null | undefined, fallback = 'never', short = false): string {
  const date = parseUtc(value);
  if (!date) return fallback;
  if (short && date.getFullYear() === new Date().getFullYear()) {
    return date.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
  }
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export interface SyncLogLike {
  status: string;
  started_at: string | null;
  completed_at: string | null;
}

export type BucketUnit = 'hour' | 'day' | 'week';

export interface Bucket {
  start: Date;
  /** Syncs that ended `success`. */
  succeeded: number;
  /** Syncs that ended `error` or `partial` (some or all of their products failed). */
  failed: number;
  /** Syncs still `running` (or of a status the console does not know). */
  other: number;
}

export interface SyncSeries {
  unit: BucketUnit;
  buckets: Bucket[];
  /** Logs older than the first bucket (the chart keeps at most MAX_BUCKETS) or without any timestamp. */
  left_out: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const MAX_BUCKETS = 48;
/** The chart shows at least this many buckets, ending now, so a single sync still reads as a point in time. */
const MIN_BUCKETS = 6;

function floorTo(date: Date, unit: BucketUnit): Date {
  const d = new Date(date.getTime());
  d.setMinutes(0, 0, 0);
  if (unit === 'hour') return d;
  d.setHours(0);
  if (unit === 'day') return d;
  // Weeks start on Monday.
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d;
}

function next(date: Date, unit: BucketUnit): Date {
  const d = new Date(date.getTime());
  if (unit === 'hour') d.setHours(d.getHours() + 1);
  else d.setDate(d.getDate() + (unit === 'day' ? 1 : 7));
  return d;
}

function previous(date: Date, unit: BucketUnit): Date {
  const d = new Date(date.getTime());
  if (unit === 'hour') d.setHours(d.getHours() - 1);
  else d.setDate(d.getDate() - (unit === 'day' ? 1 : 7));
  return d;
}

const outcome = (status: string): keyof Omit<Bucket, 'start'> =>
  status === 'success' ? 'succeeded' : status === 'error' || status === 'partial' ? 'failed' : 'other';

/**
 * Sync logs as successes and failures per hour (when they span two days or less), per day (two months or less) or per
 * week, from the oldest log's period to the current one, local time. At most MAX_BUCKETS: the oldest periods beyond
 * are left out (and counted in `left_out`).
 */
export function bucketSyncs(logs: SyncLogLike[], now: Date = new Date()): SyncSeries {
  const dated = logs.map((log) => ({ log, at: parseUtc(log.started_at) ?? parseUtc(log.completed_at) }));
  const times = dated.flatMap((d) => (d.at ? [d.at.getTime()] : []));
  const end = Math.max(now.getTime(), ...times);
  const oldest = times.length > 0 ? Math.min(...times) : end;
  const span = end - oldest;
  const unit: BucketUnit = span <= 2 * DAY ? 'hour' : span <= 62 * DAY ? 'day' : 'week';

  const buckets: Bucket[] = [];
  const last = floorTo(new Date(end), unit);
  let start = floorTo(new Date(oldest), unit);
  // Pad the start back so that there are at least MIN_BUCKETS periods.
  let count = 0;
  for (let s = start; s <= last; s = next(s, unit)) count++;
  for (; count < MIN_BUCKETS; count++) start = previous(start, unit);
  for (let s = start; s <= last; s = next(s, unit)) buckets.push({ start: s, succeeded: 0, failed: 0, other: 0 });
  const kept = buckets.slice(-MAX_BUCKETS);
  let leftOut = 0;
  for (const { log, at } of dated) {
    const t = at?.getTime();
    let index = -1;
    if (t !== undefined) {
      for (let i = kept.length - 1; i >= 0; i--) {
        if (kept[i].start.getTime() <= t) {
          index = i;
          break;
        }
      }
    }
    if (index < 0) leftOut++;
    else kept[index][outcome(log.status)]++;
  }
  return { unit, buckets: kept, left_out: leftOut };
}

/** A bucket's period for the chart's axis and its summary (`14:00`, `25 Nov`, `week of 24 Nov`). */
export function bucketLabel(start: Date, unit: BucketUnit, long = false): string {
  if (unit === 'hour') {
    const time = start.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    return long ? `${start.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}` : time;
  }
  const day = start.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
  return unit === 'week' && long ? `week of ${day}` : day;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The sentence that stands for the chart (its aria-label). */
export function seriesSummary(series: SyncSeries): string {
  const { buckets, unit } = series;
  const sum = (key: 'succeeded' | 'failed' | 'other') => buckets.reduce((n, b) => n + b[key], 0);
  const succeeded = sum('succeeded');
  const failed = sum('failed');
  const other = sum('other');
  const total = succeeded + failed + other;
  const per = unit === 'hour' ? 'hour' : unit === 'day' ? 'day' : 'week';
  const from = buckets.length > 0 ? bucketLabel(buckets[0].start, unit, true) : '';
  const to = buckets.length > 0 ? bucketLabel(buckets[buckets.length - 1].start, unit, true) : '';
  if (total === 0) return `Recent syncs per ${per}, ${from} to ${to}: none.`;
  const parts = [`${succeeded} succeeded`, `${failed} with failures`];
  if (other > 0) parts.push(`${other} still running`);
  let busiest = buckets[0];
  for (const b of buckets) if (b.succeeded + b.failed + b.other > busiest.succeeded + busiest.failed + busiest.other) busiest = b;
  const peak = busiest.succeeded + busiest.failed + busiest.other;
  return (
    `Recent syncs per ${per}, ${from} to ${to}: ${plural(total, 'sync')}, ${parts.join(', ')}. ` +
    `Busiest ${per}: ${bucketLabel(busiest.start, unit, true)} with ${plural(peak, 'sync')}.` +
    (series.left_out > 0 ? ` ${plural(series.left_out, 'older sync')} not shown.` : '')
  );
}

export interface Factor {
  /** What costs points, as the server words it. */
  text: string;
  /** Points taken off the score of 100; null when the server named none. */
  penalty: number | null;
}

/** `1 failed sync in the last 24 hours (-5)` → { text: '1 failed sync in the last 24 hours', penalty: 5 }. */
export function parseFactor(factor: string): Factor {
  const match = /^(.*?)\s*\(\s*[-−]\s*(\d+)\s*\)\s*$/.exec(factor);
  return match ? { text: match[1], penalty: Number(match[2]) } : { text: factor, penalty: null };
}

export const HEALTH_WORDS: Record<string, string> = {
  excellent: 'Excellent',
  good: 'Good',
  fair: 'Fair',
  poor: 'Poor',
};

/** The badge class of a health status, sync log status or mapping status. */
export function tone(status: string): 'ok' | 'warn' | 'error' | '' {
  if (['excellent', 'good', 'success', 'synced', 'connected', 'completed', 'active'].includes(status)) return 'ok';
  if (['fair', 'partial', 'pending', 'syncing', 'running', 'queued'].includes(status)) return 'warn';
  if (['poor', 'error', 'failed', 'inactive'].includes(status)) return 'error';
  return '';
}

const OPERATIONS: Record<string, string> = {
  'products.push': 'Push',
  'products.full_sync': 'Full sync',
  'products.delta_sync': 'Delta sync',
  'products.push.dry_run': 'Preview',
};

export const operationName = (operation: string) => OPERATIONS[operation] ?? operation;

const SYNC_STATUS_WORDS: Record<string, string> = {
  success: 'Succeeded',
  partial: 'Some failed',
  error: 'Failed',
  running: 'Running',
};

export const syncStatusWord = (status: string) => SYNC_STATUS_WORDS[status] ?? status;

const MAPPING_STATUS_WORDS: Record<string, string> = { synced: 'Synced', pending: 'Pending', syncing: 'Syncing', error: 'Error' };

export const mappingStatusWord = (status: string) => MAPPING_STATUS_WORDS[status] ?? status;

/** The mapping filters the server knows (GET /api/products/mappings `status`). */
export const MAPPING_STATUSES = ['synced', 'pending', 'error'] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];
export const isMappingStatus = (value: string | null): value is MappingStatus => MAPPING_STATUSES.includes(value as MappingStatus);

/** The most products one POST /api/products/push takes (more is BATCH_SIZE_EXCEEDED). */
export const PUSH_BATCH = 50;
/** The largest page of GET /api/products/mappings. */
export const MAPPINGS_PAGE_MAX = 100;

export function chunk<T>(items: T[], size: number): T[][] {
  if (size < 1) throw new Error('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface MappingsPage {
  mappings: Array<{ pim_product_id: number }>;
  pagination: { total: number; has_more: boolean };
}

/**
 * Every PIM product id of a listing, reading it page by page (`fetchPage(offset, limit)`), without duplicates. Stops
 * when the server says there is no more, or after as many pages as its first total allows (a list that grows while it
 * is read cannot keep this going for ever).
 */
export async function collectProductIds(fetchPage: (offset: number, limit: number) => Promise<MappingsPage>, limit = MAPPINGS_PAGE_MAX): Promise<number[]> {
  const ids = new Set<number>();
  let offset = 0;
  let pages = 0;
  let maxPages = 1;
  for (;;) {
    const page = await fetchPage(offset, limit);
    if (pages === 0) maxPages = Math.ceil(page.pagination.total / limit) + 1;
    pages++;
    for (const m of page.mappings) ids.add(m.pim_product_id);
    if (!page.pagination.has_more || page.mappings.length === 0 || pages >= maxPages) break;
    offset += page.mappings.length;
  }
  return [...ids];
}

/** `currency: the product's prices are in USD…` → { field: 'currency', text: 'the product's prices are in USD…' }. */
export function splitValidation(error: string): { field: string | null; text: string } {
  const match = /^([\w.[\]-]+(?: \d+)?):\s+(.*)$/s.exec(error);
  return match ? { field: match[1], text: match[2] } : { field: null, text: error };
}

/** How far a full sync is, in words: `42 of 120 products done, 3 failed`. */
export function progressText(sync: { total: number; synced: number; failed: number; status: string }): string {
  const done = sync.synced + sync.failed;
  if (sync.status === 'queued' && sync.total === 0) return 'Waiting to start…';
  return `${done.toLocaleString()} of ${sync.total.toLocaleString()} products done, ${sync.failed.toLocaleString()} failed`;
}
