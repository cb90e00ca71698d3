// The import and export page: progress as a share, the states that keep polling, the export link's query.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportUrl, formatBytes, isActive, percentDone } from '../src/features/files/files-model.ts';

test('progress is the share of rows done; a finished import is whole', () => {
  assert.equal(percentDone({ state: 'running', rows_total: 200, rows_done: 50 }), 25);
  assert.equal(percentDone({ state: 'queued', rows_total: 0, rows_done: 0 }), 0);
  assert.equal(percentDone({ state: 'completed', rows_total: 0, rows_done: 0 }), 100);
  assert.equal(percentDone({ state: 'failed', rows_total: 10, rows_done: 3 }), 30);
  assert.equal(isActive('queued'), true);
  assert.equal(isActive('running'), true);
  assert.equal(isActive('completed'), false);
  assert.equal(isActive('failed'), false);
});

test('the export link carries the format and only the filters that are set', () => {
  assert.equal(exportUrl('ours'), '/api/exports/products.csv?format=ours');
  assert.equal(
    exportUrl('shopify', { search: ' wool sweater ', status: '', brand: '3', category: '7', channel: 'web' }),
    '/api/exports/products.csv?format=shopify&search=wool+sweater&brand=3&category=7&channel=web',
  );
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(2048), '2.0 KB');
});
