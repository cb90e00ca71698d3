// What a connector client reads back, through the connector API as the docs describe it (docs/connector-api.md): an
// integration's mappings, sync logs and status. Tests assert through these rather than the tables behind them; what no
// route shows (a mapping's storefront_state, a shop's integration) through the repository that owns it. Every API read
// takes a point of the per-address limit (AUTH_RATE_LIMIT): a suite that polls them raises it.
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/client.js';
import { IntegrationRepository, type IntegrationRow } from '../../src/connector/integrations/integration.repository.js';
import { MappingRepository, type MappingRow } from '../../src/connector/mappings/mapping.repository.js';
import type { KnownStorefrontProduct } from '../../src/storefront/port/known-product.js';
import type { ConnectorHarness } from './connector.js';

type Calls = Pick<ConnectorHarness, 'call'>;

/** A mapping as GET /api/products/mappings lists it; GET /api/products/mapping/{id} adds `metadata`. */
export interface MappingView {
  id: number;
  pim_product_id: number;
  storefront_product_id: number | null;
  storefront_variant_id: number | null;
  sync_status: 'pending' | 'synced' | 'error';
  sync_error: string | null;
  last_synced_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MappingDetail extends MappingView {
  metadata: {
    storefront_handle: string | null;
    storefront_title: string | null;
    variant_count: number;
    image_count: number;
    last_push_method: string | null;
    warnings?: string[];
  };
}

/** A sync log as GET /api/sync/logs answers it. */
export interface SyncLogView {
  id: number;
  operation: string;
  status: 'running' | 'success' | 'partial' | 'error';
  records_processed: number;
  records_failed: number;
  duration: string;
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
}

/** GET /api/products/mapping/{pimProductId}: the mapping with its metadata, or null when it has none (404 MAPPING_NOT_FOUND). */
export async function mappingOf(h: Calls, token: string, pimProductId: number): Promise<MappingDetail | null> {
  const res = await h.call('GET', `/api/products/mapping/${pimProductId}`, token);
  if (res.statusCode === 404 && res.json().code === 'MAPPING_NOT_FOUND') return null;
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** Every mapping of the token's integration, by mapping id (GET /api/products/mappings, pages of 100), optionally of one status. */
export async function mappingsOf(h: Calls, token: string, status?: MappingView['sync_status']): Promise<MappingView[]> {
  const out: MappingView[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await h.call('GET', `/api/products/mappings?limit=100&offset=${offset}${status ? `&status=${status}` : ''}`, token);
    assert.equal(res.statusCode, 200, res.body);
    const { mappings, pagination } = res.json().data;
    out.push(...mappings);
    if (!pagination.has_more) return out;
  }
}

/** The token's integration's sync logs of the last 48 hours, newest first (GET /api/sync/logs). */
export async function syncLogsOf(h: Calls, token: string): Promise<SyncLogView[]> {
  const res = await h.call('GET', '/api/sync/logs?limit=1000', token);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.sync_logs;
}

/** One sync log by id (GET /api/sync/logs); fails when the integration has none with that id. */
export async function syncLogOf(h: Calls, token: string, id: number): Promise<SyncLogView> {
  const log = (await syncLogsOf(h, token)).find((l) => l.id === id);
  assert.ok(log, `sync log ${id} is listed`);
  return log;
}

/** GET /api/status/{integrationId}: the public status, from stored state only (no live check). */
export async function publicStatusOf(h: Calls, integrationId: number): Promise<any> {
  const res = await h.call('GET', `/api/status/${integrationId}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/**
 * A mapping as the bridge keeps it, through MappingRepository.find: its `storefront_state` (the storefront ids and
 * written fields sent back on the next push) and all of its `metadata` (e.g. `deleted_in_shop`), which no route shows.
 * Null when there is no mapping.
 */
export async function mappingRowOf(db: Db, integrationId: number, pimProductId: number): Promise<MappingRow | null> {
  return new MappingRepository(db).find(integrationId, pimProductId);
}

/** The mapping's `storefront_state` (mappingRowOf); null when there is no mapping. */
export async function storefrontStateOf(db: Db, integrationId: number, pimProductId: number): Promise<KnownStorefrontProduct | null> {
  const row = await mappingRowOf(db, integrationId, pimProductId);
  return row ? ((row.storefrontState ?? {}) as KnownStorefrontProduct) : null;
}

/**
 * The shop's integration, active or not, through IntegrationRepository (no route lists a shop's integrations to an
 * admin: the connector's routes answer for the caller's own). Null when the shop has none, or no such shop.
 */
export async function integrationOfShop(db: Db, domain: string): Promise<IntegrationRow | null> {
  const integrations = new IntegrationRepository(db);
  const shop = await integrations.findShopByDomain(domain);
  return shop ? integrations.findByShop(shop.id) : null;
}
