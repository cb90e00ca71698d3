// What an event of the sync stream changes in the console's caches (features/bridge/live-model.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endsWrite, parseSyncEvent, patchMapping, patchMappingsPage, patchStates, type SyncState } from '../src/features/bridge/live-model.ts';

const mapping = {
  id: 1,
  pim_product_id: 7,
  sync_status: 'synced',
  sync_error: null as string | null,
  last_synced_at: '2026-11-28 10:00:00',
  storefront_product_id: 99,
};
const ev = (state: SyncState['state'], extra: Partial<SyncState> = {}): SyncState => ({ integration_id: 3, product_id: 7, state, ...extra });

test('a stream line is an event only when it is one', () => {
  assert.deepEqual(parseSyncEvent('{"integration_id":3,"product_id":7,"state":"pending"}'), ev('pending'));
  assert.equal(parseSyncEvent('{"integration_id":3,"product_id":7,"state":"weird"}'), null);
  assert.equal(parseSyncEvent('not json'), null);
  assert.equal(parseSyncEvent('{"product_id":7,"state":"synced"}'), null);
});

test('pending, syncing, synced: the mapping follows, with the new last sync; the rest stays', () => {
  const pending = patchMapping(mapping, ev('pending'));
  assert.equal(pending.sync_status, 'pending');
  assert.equal(pending.last_synced_at, '2026-11-28 10:00:00');
  assert.equal(pending.storefront_product_id, 99);
  assert.equal(patchMapping(pending, ev('syncing')).sync_status, 'syncing');
  const synced = patchMapping(pending, ev('synced', { synced_at: '2026-11-28 10:05:00' }));
  assert.deepEqual([synced.sync_status, synced.last_synced_at, synced.sync_error], ['synced', '2026-11-28 10:05:00', null]);
  assert.equal(patchMapping(mapping, { ...ev('error'), product_id: 8 }), mapping, 'another product: the same object');
});

test('an error carries its reason; syncing again keeps it until a write clears it', () => {
  const failed = patchMapping(mapping, ev('error', { error: 'The storefront refused PIM product 7: title' }));
  assert.deepEqual([failed.sync_status, failed.sync_error], ['error', 'The storefront refused PIM product 7: title']);
  assert.equal(patchMapping(failed, ev('syncing')).sync_error, 'The storefront refused PIM product 7: title');
  assert.equal(patchMapping(failed, ev('synced')).sync_error, null);
});

test('a page of mappings changes only where the product is', () => {
  const page = { mappings: [mapping, { ...mapping, id: 2, pim_product_id: 8 }], pagination: { total: 2 } };
  const after = patchMappingsPage(page, ev('syncing'));
  assert.deepEqual(
    after.mappings.map((m) => m.sync_status),
    ['syncing', 'synced'],
  );
  assert.equal(after.pagination, page.pagination);
  assert.equal(patchMappingsPage(page, { ...ev('pending'), product_id: 9 }), page);
});

test("the product list's states: replaced, added when the product enters a shop, ignored when not on the page", () => {
  const states: SyncState[] = [ev('synced', { synced_at: '2026-11-28 10:00:00' })];
  assert.deepEqual(patchStates(states, ev('pending'), [7, 8]), [ev('pending', { synced_at: '2026-11-28 10:00:00', error: undefined })]);
  assert.deepEqual(patchStates(states, { ...ev('pending'), product_id: 8 }, [7, 8]).length, 2);
  assert.equal(patchStates(states, { ...ev('pending'), product_id: 9 }, [7, 8]), states);
  assert.deepEqual(
    patchStates(states, { ...ev('syncing'), integration_id: 4 }, [7]).map((s) => [s.integration_id, s.state]),
    [
      [3, 'synced'],
      [4, 'syncing'],
    ],
  );
});

test('synced and error end a write (what else it changed is read again); pending and syncing do not', () => {
  assert.deepEqual(
    (['pending', 'syncing', 'synced', 'error'] as const).map((s) => endsWrite(ev(s))),
    [false, false, true, true],
  );
});
