// A product's sync state as it changes, told to every process: the mapping repository sends one NOTIFY per change (in
// the writing transaction, so it is heard at commit), the console's event stream (sync-stream.service.ts) hears them.
// States: `pending` (a change waits to be written: the delta sync queued it, an adoption linked it), `syncing` (a writer
// holds the product's lease and is sending it to the shop), `synced`, `error` (with the reason). `syncing` is not a
// mapping status of the spec: it is the lease (push/product-lease.ts), seen only here and in GET /api/sync/states.
import { NOTIFY_PAYLOAD_MAX } from '../../db/notifications.js';
import { ymdHis } from '../timestamps.js';

export const SYNC_EVENTS_CHANNEL = 'connector_sync_states';

export const LIVE_SYNC_STATES = ['pending', 'syncing', 'synced', 'error'] as const;
export type LiveSyncState = (typeof LIVE_SYNC_STATES)[number];

/** One product's new state in one integration, as the console receives it. */
export interface SyncEvent {
  integration_id: number;
  product_id: number;
  state: LiveSyncState;
  /** The reason, with `error`. */
  error?: string;
  /** The mapping's last_synced_at (`Y-m-d H:i:s`, UTC) when the change wrote it: with `synced`, and an `error` after an upsert. */
  synced_at?: string;
}

/** What crosses the channel: one state for several products of one integration (a delta page, a bulk batch). */
interface Wire {
  i: number;
  s: LiveSyncState;
  p: number[];
  e?: string;
  t?: string;
}

/** The payloads of one change: product ids split so that each payload stays under PostgreSQL's 8000 bytes. */
export function encodeSyncEvents(
  integrationId: number,
  productIds: number[],
  state: LiveSyncState,
  detail: { error?: string | null; at?: Date | null } = {},
): string[] {
  if (productIds.length === 0) return [];
  const base: Omit<Wire, 'p'> = { i: integrationId, s: state };
  // An error text is clipped to 1000 characters: the console shows it whole after reading the mapping again.
  if (detail.error) base.e = detail.error.length > 1_000 ? `${detail.error.slice(0, 999)}…` : detail.error;
  if (detail.at) base.t = ymdHis(detail.at) ?? undefined;
  const room = NOTIFY_PAYLOAD_MAX - Buffer.byteLength(JSON.stringify({ ...base, p: [] })) - 16;
  const perPayload = Math.max(1, Math.floor(room / 11)); // an int4 id and its comma
  const payloads: string[] = [];
  for (let k = 0; k < productIds.length; k += perPayload) payloads.push(JSON.stringify({ ...base, p: productIds.slice(k, k + perPayload) }));
  return payloads;
}

/** The events of one payload; an unreadable payload (another version's, say) is none. */
export function decodeSyncEvents(payload: string): SyncEvent[] {
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(payload) as Partial<Wire>;
  } catch {
    return [];
  }
  if (!Number.isInteger(wire.i) || !Array.isArray(wire.p) || !LIVE_SYNC_STATES.includes(wire.s as LiveSyncState)) return [];
  return wire.p
    .filter((p): p is number => Number.isInteger(p))
    .map((p) => ({
      integration_id: wire.i as number,
      product_id: p,
      state: wire.s as LiveSyncState,
      ...(typeof wire.e === 'string' ? { error: wire.e } : {}),
      ...(typeof wire.t === 'string' ? { synced_at: wire.t } : {}),
    }));
}
