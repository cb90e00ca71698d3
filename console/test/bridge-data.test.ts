// The bridge pages' pure helpers: sync logs bucketed for the chart, the health factors, push batches, paging.
process.env.TZ = 'UTC';

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bucketSyncs,
  chunk,
  collectProductIds,
  MAX_BUCKETS,
  type MappingsPage,
  parseFactor,
  parseUtc,
  progressText,
  seriesSummary,
  splitValidation,
} from '../src/features/bridge/bridge-data.ts';

const log = (status: string, started_at: string | null, completed_at: string | null = started_at) => ({ status, started_at, completed_at });

test("the connector's timestamps are UTC", () => {
  assert.equal(parseUtc('2026-11-25 10:18:57')?.toISOString(), '2026-11-25T10:18:57.000Z');
  assert.equal(parseUtc(null), null);
  assert.equal(parseUtc('not a date'), null);
});

test('syncs within two days are counted per hour, from the oldest to now, successes apart from failures', () => {
  const now = new Date('2026-11-25T12:30:00Z');
  const series = bucketSyncs(
    [
      log('success', '2026-11-25 10:18:31'),
      log('partial', '2026-11-25 10:40:00'),
      log('error', '2026-11-25 12:05:00'),
      log('running', '2026-11-25 12:20:00', null),
      log('success', '2026-11-25 03:00:00'),
    ],
    now,
  );
  assert.equal(series.unit, 'hour');
  assert.equal(series.buckets[0].start.toISOString(), '2026-11-25T03:00:00.000Z');
  assert.equal(series.buckets.at(-1)?.start.toISOString(), '2026-11-25T12:00:00.000Z');
  assert.equal(series.buckets.length, 10);
  const at = (iso: string) => series.buckets.find((b) => b.start.toISOString() === iso);
  assert.deepEqual({ ...at('2026-11-25T10:00:00.000Z'), start: undefined }, { start: undefined, succeeded: 1, failed: 1, other: 0 });
  assert.deepEqual({ ...at('2026-11-25T12:00:00.000Z'), start: undefined }, { start: undefined, succeeded: 0, failed: 1, other: 1 });
  assert.equal(series.left_out, 0);
  const summary = seriesSummary(series);
  assert.match(summary, /per hour/);
  assert.match(summary, /5 syncs, 2 succeeded, 2 with failures, 1 still running/);
});

test('a single recent sync still gives a few periods ending now', () => {
  const series = bucketSyncs([log('success', '2026-11-25 12:10:00')], new Date('2026-11-25T12:30:00Z'));
  assert.equal(series.unit, 'hour');
  assert.equal(series.buckets.length, 6);
  assert.equal(series.buckets.at(-1)?.succeeded, 1);
});

test('no logs at all is an empty chart that says so', () => {
  const series = bucketSyncs([], new Date('2026-11-25T12:30:00Z'));
  assert.equal(series.buckets.length, 6);
  assert.match(seriesSummary(series), /none\.$/);
});

test('logs over weeks are counted per day, over months per week, and never more than MAX_BUCKETS periods', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const days = bucketSyncs([log('success', '2026-11-10 08:00:00'), log('error', '2026-11-24 23:59:00')], now);
  assert.equal(days.unit, 'day');
  assert.equal(days.buckets.length, 16);
  assert.equal(days.buckets[0].succeeded, 1);
  assert.equal(days.buckets[14].failed, 1);

  const weeks = bucketSyncs([log('success', '2020-01-01 00:00:00'), log('success', '2026-11-20 00:00:00')], now);
  assert.equal(weeks.unit, 'week');
  assert.equal(weeks.buckets.length, MAX_BUCKETS);
  assert.equal(weeks.buckets[0].start.getUTCDay(), 1, 'weeks start on Monday');
  assert.equal(weeks.left_out, 1);
  assert.match(seriesSummary(weeks), /1 older sync not shown/);
});

test('a health factor is its words and its penalty', () => {
  assert.deepEqual(parseFactor('1 failed sync in the last 24 hours (-5)'), { text: '1 failed sync in the last 24 hours', penalty: 5 });
  assert.deepEqual(parseFactor('Integration is inactive (-50)'), { text: 'Integration is inactive', penalty: 50 });
  assert.deepEqual(parseFactor('Something new'), { text: 'Something new', penalty: null });
});

test('pushes go in batches of at most 50', () => {
  const ids = Array.from({ length: 120 }, (_, i) => i + 1);
  assert.deepEqual(
    chunk(ids, 50).map((b) => b.length),
    [50, 50, 20],
  );
  assert.deepEqual(chunk([], 50), []);
});

test('every failed product is collected, page by page, once', async () => {
  const all = Array.from({ length: 230 }, (_, i) => ({ pim_product_id: (i % 229) + 1 }));
  const calls: number[] = [];
  const ids = await collectProductIds(async (offset, limit): Promise<MappingsPage> => {
    calls.push(offset);
    const mappings = all.slice(offset, offset + limit);
    return { mappings, pagination: { total: all.length, has_more: offset + mappings.length < all.length } };
  });
  assert.deepEqual(calls, [0, 100, 200]);
  assert.equal(ids.length, 229);

  // A server that keeps saying has_more cannot loop for ever.
  let pages = 0;
  await collectProductIds(async () => {
    pages++;
    return { mappings: [{ pim_product_id: pages }], pagination: { total: 150, has_more: true } };
  });
  assert.equal(pages, 3);
});

test('a validation error names its field apart from its words', () => {
  assert.deepEqual(splitValidation("currency: the product's prices are in USD"), { field: 'currency', text: "the product's prices are in USD" });
  assert.deepEqual(splitValidation('variants[0].price: must be positive'), { field: 'variants[0].price', text: 'must be positive' });
  assert.deepEqual(splitValidation('Something went wrong'), { field: null, text: 'Something went wrong' });
});

test("a full sync's progress in words", () => {
  assert.equal(progressText({ status: 'running', total: 120, synced: 39, failed: 3 }), '42 of 120 products done, 3 failed');
  assert.equal(progressText({ status: 'queued', total: 0, synced: 0, failed: 0 }), 'Waiting to start…');
});
