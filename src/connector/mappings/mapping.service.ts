// Product mappings as the spec exposes them: a page of the caller's integration's mappings (without metadata), and one
// mapping by PIM product id (with metadata). Timestamps `Y-m-d H:i:s`.
import { ConnectorError } from '../connector.errors.js';
import { ymdHis } from '../timestamps.js';
import type { MappingRepository, MappingRow, MappingStatus } from './mapping.repository.js';

export interface MappingView {
  id: number;
  pim_product_id: number;
  storefront_product_id: number | null;
  storefront_variant_id: number | null;
  sync_status: MappingStatus;
  sync_error: string | null;
  last_synced_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The largest PIM product id (int4). */
const MAX_ID = 2_147_483_647;

export class MappingService {
  constructor(private readonly mappings: MappingRepository) {}

  async list(integrationId: number, query: { limit: number; offset: number; status?: MappingStatus }) {
    const { rows, total } = await this.mappings.page(integrationId, query.status, query.limit, query.offset);
    return {
      mappings: rows.map(view),
      pagination: { total, limit: query.limit, offset: query.offset, has_more: query.offset + rows.length < total },
    };
  }

  /** `pimProductId` is the raw path segment: anything but a PIM id is as unknown as a missing mapping. */
  async get(integrationId: number, pimProductId: string) {
    const id = /^[1-9][0-9]{0,9}$/.test(pimProductId) ? Number(pimProductId) : NaN;
    const row = Number.isSafeInteger(id) && id <= MAX_ID ? await this.mappings.find(integrationId, id) : null;
    if (!row) throw new ConnectorError('MAPPING_NOT_FOUND', `No mapping for PIM product ${pimProductId.slice(0, 64)}`);
    const m = (row.metadata ?? {}) as Record<string, unknown>;
    return {
      ...view(row),
      metadata: {
        storefront_handle: typeof m.storefront_handle === 'string' ? m.storefront_handle : null,
        storefront_title: typeof m.storefront_title === 'string' ? m.storefront_title : null,
        variant_count: typeof m.variant_count === 'number' ? m.variant_count : 0,
        image_count: typeof m.image_count === 'number' ? m.image_count : 0,
        last_push_method: typeof m.last_push_method === 'string' ? m.last_push_method : null,
        ...(Array.isArray(m.warnings) && m.warnings.length > 0 ? { warnings: m.warnings.filter((w): w is string => typeof w === 'string') } : {}),
      },
    };
  }
}

function view(row: MappingRow): MappingView {
  return {
    id: row.id,
    pim_product_id: row.pimProductId,
    storefront_product_id: row.storefrontProductId === null ? null : Number(row.storefrontProductId),
    storefront_variant_id: row.storefrontVariantId === null ? null : Number(row.storefrontVariantId),
    // Only the repository writes it: pending, synced or error.
    sync_status: row.syncStatus as MappingStatus,
    sync_error: row.syncError,
    last_synced_at: ymdHis(row.lastSyncedAt),
    created_at: ymdHis(row.createdAt)!,
    updated_at: ymdHis(row.updatedAt)!,
  };
}
