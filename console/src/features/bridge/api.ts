// What the bridge pages read of the connector, each under its key of keys.ts: the organization's integrations (GET
// /api/integrations, no X-Integration-Id), and of one integration (X-Integration-Id) its status, sync logs, mappings,
// one product's mapping (shared with the product editor's Shopify panel), a full sync's progress, the newest drift
// report and the collections. What changes the shop (a push, a finished sync) reads the integration again
// (bridgeChanged). The pushes and dry runs themselves are bridge-push.tsx's and bridge-preview.tsx's.
import { keepPreviousData, type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, bridge } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import type { MappingStatus } from './bridge-data';
import { bridgeKeys, isFullSyncKey } from './keys';
import type { SyncState } from './live-model';

export type IntegrationSummary = paths['/api/integrations']['get']['responses'][200]['content']['application/json']['data'][number];

/** The organization's integrations: one query, shared by the bridge pages and the product editor's Shopify panel. */
export function useIntegrations() {
  return useQuery({
    queryKey: bridgeKeys.integrations(),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/integrations', { signal })).data,
  });
}

/** After what changes an integration's shop (a push, a full sync that ended): all it reads (a running full sync's progress polls by itself), and its last sync in the list. */
export function bridgeChanged(queryClient: QueryClient, integrationId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: bridgeKeys.integration(integrationId), predicate: (q) => !isFullSyncKey(q.queryKey) }),
    queryClient.invalidateQueries({ queryKey: bridgeKeys.integrations() }),
    queryClient.invalidateQueries({ queryKey: bridgeKeys.states() }),
  ]);
}

/** How often the overview reads GET /api/status again. */
export const REFRESH_MS = 10_000;

/** GET /api/status of one integration: health, connectivity, counts, the last ten sync logs. */
export function useBridgeStatus(integrationId: number, refetchInterval: number | false = REFRESH_MS) {
  return useQuery({
    queryKey: bridgeKeys.status(integrationId),
    queryFn: async () => unwrap(await api.GET('/api/status', { headers: bridge(integrationId) })).data,
    refetchInterval,
  });
}

export type BridgeStatus = NonNullable<ReturnType<typeof useBridgeStatus>['data']>;

/** The sync logs of the last 48 hours (at most 1000), read again with the status. */
export const useSyncLogs = (integrationId: number) =>
  useQuery({
    queryKey: bridgeKeys.syncLogs(integrationId),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/sync/logs', { params: { query: { hours: 48, limit: 1000 } }, headers: bridge(integrationId), signal })).data,
    refetchInterval: REFRESH_MS,
  });

/** `limit` mappings from `offset` (GET /api/products/mappings), of one status or all. */
export async function readMappings(integrationId: number, status: MappingStatus | null, offset: number, limit: number) {
  const answer = await api.GET('/api/products/mappings', {
    headers: bridge(integrationId),
    params: { query: { limit, offset, ...(status ? { status } : {}) } },
  });
  return unwrap(answer).data;
}

/** One page of the mappings; the page shown stays while the next loads. */
export const useMappingsPage = (integrationId: number, status: MappingStatus | null, page: number, pageSize: number) =>
  useQuery({
    queryKey: bridgeKeys.mappingsPage(integrationId, status, page),
    queryFn: () => readMappings(integrationId, status, (page - 1) * pageSize, pageSize),
    placeholderData: keepPreviousData,
  });

/** Where these products stand in each of the organization's shops (GET /api/sync/states), kept current by the stream. */
export const syncStatesQuery = (productIds: readonly number[]) =>
  queryOptions({
    queryKey: bridgeKeys.statesOf(productIds),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/sync/states', { params: { query: { product_ids: productIds.join(',') } }, signal })).data.states as SyncState[],
  });

/** The shop's side of one product (GET /api/products/mapping/{pimProductId}); null when it has not been pushed there. */
export function useMapping(integrationId: number, pimProductId: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: bridgeKeys.mapping(integrationId, pimProductId),
    queryFn: async ({ signal }) => {
      // Whether the product is in this store at all, asked first: a product not pushed yet would be a 404, which the
      // browser logs as an error on every visit of the product. One read of its states serves every store's panel (read
      // again when older than a second: a push that just ended has made the product that store's).
      const states = await queryClient.fetchQuery({ ...syncStatesQuery([pimProductId]), staleTime: 1_000 });
      if (!states.some((s) => s.integration_id === integrationId)) return null;
      const answer = await api.GET('/api/products/mapping/{pimProductId}', {
        params: { path: { pimProductId } },
        headers: bridge(integrationId),
        signal,
      });
      // Gone since (a disconnect, a product deleted in the shop): as if never pushed.
      if (answer.response.status === 404) return null;
      return unwrap(answer).data;
    },
  });
}

/** What a read of the connector answers in `data` (generated from the OpenAPI document, so it cannot drift). */
type Answer<P extends '/api/sync/full/{id}' | '/api/drift'> = NonNullable<paths[P]['get']['responses'][200]['content']['application/json']['data']>;
export type FullSync = Answer<'/api/sync/full/{id}'>;

export const isSyncOpen = (s: FullSync | undefined) => s?.status === 'queued' || s?.status === 'running';

/** One full sync's progress (GET /api/sync/full/{id}), read every `pollMs` while it runs. */
export const useFullSync = (integrationId: number, syncId: string | null, pollMs: number) =>
  useQuery({
    queryKey: bridgeKeys.fullSync(integrationId, syncId),
    enabled: syncId !== null,
    queryFn: async () => unwrap(await api.GET('/api/sync/full/{id}', { headers: bridge(integrationId), params: { path: { id: syncId! } } })).data,
    refetchInterval: (query) => (isSyncOpen(query.state.data) ? pollMs : false),
    staleTime: 0,
  });

export type DriftReport = Answer<'/api/drift'>;
export type DriftCounts = NonNullable<DriftReport['counts']>;
export type DriftItem = DriftReport['items'][number];
export type DriftKind = DriftItem['kind'];

export const isDriftOpen = (r: { state: string } | null | undefined) => r?.state === 'queued' || r?.state === 'running';

/** One page of the newest drift report (null when the shop has none yet), read every `pollMs` while it runs. */
export const useDriftReport = (integrationId: number, kind: DriftKind | null, page: number, pageSize: number, pollMs: number) =>
  useQuery({
    queryKey: bridgeKeys.driftPage(integrationId, kind, page),
    queryFn: async () => {
      const answer = await api.GET('/api/drift', {
        headers: bridge(integrationId),
        params: { query: { limit: pageSize, offset: (page - 1) * pageSize, ...(kind ? { kind } : {}) } },
      });
      return unwrap(answer).data;
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (isDriftOpen(query.state.data) ? pollMs : false),
    staleTime: 0,
  });

/** The shop's custom collections the bridge made for PIM categories. */
export const useCollections = (integrationId: number) =>
  useQuery({
    queryKey: bridgeKeys.collections(integrationId),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/collections', { headers: bridge(integrationId), signal })).data,
  });
