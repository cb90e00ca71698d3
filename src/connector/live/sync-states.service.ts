// GET /api/sync/states: where a page of PIM products stands in each of the account's shops, in the shape of the event
// stream's events (sync-events.ts), so that the console's product list starts from it and follows the stream.
import type { MappingRepository } from '../mappings/mapping.repository.js';
import { ymdHis } from '../timestamps.js';
import type { SyncEvent } from './sync-events.js';

/** Products per request at most (the product list's largest page is 50). */
export const STATES_MAX_PRODUCTS = 100;

export class SyncStatesService {
  constructor(
    private readonly mappings: Pick<MappingRepository, 'liveStates'>,
    /** The ids of the integrations of a PIM account (the session's key hashes), inactive ones included. */
    private readonly integrationsOf: (keyHashes: string[]) => Promise<number[]>,
  ) {}

  /** Every (integration, product) that has a mapping; a product in none of the shops is absent. */
  async states(keyHashes: string[], productIds: number[]): Promise<SyncEvent[]> {
    const ids = [...new Set(productIds)];
    const integrations = await this.integrationsOf(keyHashes);
    const all = await Promise.all(
      integrations.map(async (integrationId) =>
        (await this.mappings.liveStates(integrationId, ids)).map(
          (s): SyncEvent => ({
            integration_id: integrationId,
            product_id: s.pimProductId,
            state: s.state,
            ...(s.error ? { error: s.error } : {}),
            ...(s.lastSyncedAt ? { synced_at: ymdHis(s.lastSyncedAt)! } : {}),
          }),
        ),
      ),
    );
    return all.flat();
  }
}
