// What one event of the sync stream (GET /api/sync/events) changes in what the console holds: a product's mapping
// (the Shopify panel, the mappings page's details), a page of mappings, and the product list's states. Pure:
// console/test/live-model.test.ts checks them. `syncing` is not a mapping status of the spec: it is shown while the
// shop is being written, and the mapping says `pending` or `synced` again when read.

/** One product in one integration: its sync state now (GET /api/sync/states, and each event of the stream). */
export interface SyncState {
  integration_id: number;
  product_id: number;
  state: 'pending' | 'syncing' | 'synced' | 'error';
  error?: string;
  synced_at?: string;
}

/** The fields of a mapping an event speaks of (GET /api/products/mapping/{id}, a row of GET /api/products/mappings). */
interface MappingFields {
  pim_product_id: number;
  sync_status: string;
  sync_error: string | null;
  last_synced_at: string | null;
}

/** The event read from the stream's data line; null when it is not one (another version's, say). */
export function parseSyncEvent(data: string): SyncState | null {
  try {
    const e = JSON.parse(data) as Partial<SyncState>;
    if (!Number.isInteger(e.integration_id) || !Number.isInteger(e.product_id)) return null;
    if (!['pending', 'syncing', 'synced', 'error'].includes(e.state as string)) return null;
    return e as SyncState;
  } catch {
    return null;
  }
}

/** A mapping as the event leaves it (the same object when the event is about another product). */
export function patchMapping<M extends MappingFields>(mapping: M, event: SyncState): M {
  if (mapping.pim_product_id !== event.product_id) return mapping;
  return {
    ...mapping,
    sync_status: event.state,
    // An error keeps its reason until a write clears it; pending and syncing say nothing new of it.
    sync_error: event.state === 'error' ? (event.error ?? mapping.sync_error) : event.state === 'synced' ? null : mapping.sync_error,
    last_synced_at: event.synced_at ?? mapping.last_synced_at,
  };
}

/** A page of mappings as the event leaves it (the same object when no row is the event's product). */
export function patchMappingsPage<P extends { mappings: MappingFields[] }>(page: P, event: SyncState): P {
  if (!page.mappings.some((m) => m.pim_product_id === event.product_id)) return page;
  return { ...page, mappings: page.mappings.map((m) => patchMapping(m, event)) };
}

/** The product list's states with the event in: replaced, or added when the product has just entered that shop. */
export function patchStates(states: SyncState[], event: SyncState, productIds: readonly number[]): SyncState[] {
  if (!productIds.includes(event.product_id)) return states;
  const same = (s: SyncState) => s.integration_id === event.integration_id && s.product_id === event.product_id;
  const next = { ...event, error: event.state === 'error' ? event.error : undefined };
  if (!next.synced_at) {
    const before = states.find(same)?.synced_at;
    if (before) next.synced_at = before;
  }
  return states.some(same) ? states.map((s) => (same(s) ? next : s)) : [...states, next];
}

/** Whether the event ends a write: what else the write changed (ids, counts, logs, the last sync) is read again. */
export const endsWrite = (event: SyncState) => event.state === 'synced' || event.state === 'error';
