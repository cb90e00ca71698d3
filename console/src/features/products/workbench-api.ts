// The product list's workbench writes and reads: bulk actions and their undo, the grid's batch, the saved views. Every
// product write invalidates every list of products; a bulk push goes through the bridge's push, as the editor's does.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, bridge } from '../../api/client';
import { toApiError, unwrap } from '../../api/errors';
import { bridgeChanged } from '../bridge/api';
import { chunk, PUSH_BATCH } from '../bridge/bridge-data';
import { productListsChanged } from './api';
import type { BatchRow } from './grid-model';
import { productKeys } from './keys';

export type BulkAction = 'set_status' | 'add_channel' | 'remove_channel' | 'add_category' | 'remove_category' | 'set_brand' | 'archive';
export interface BulkFilter {
  search?: string;
  status?: 'draft' | 'active' | 'archived' | 'out_of_stock';
  brand?: number;
  channel?: 'web' | 'mobile' | 'api' | 'marketplace' | 'social' | 'email';
  category?: number;
}
export interface BulkRequest {
  ids?: number[];
  filter?: BulkFilter;
  action: BulkAction;
  value?: string | number | null;
}

export function useBulkChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: BulkRequest) => unwrap(await api.POST('/api/products/bulk', { body })).data,
    onSettled: () => productListsChanged(queryClient),
  });
}

export function useUndoBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => unwrap(await api.POST('/api/products/bulk/{id}/undo', { params: { path: { id } } })).data,
    onSettled: () => productListsChanged(queryClient),
  });
}

export function useBatchSave() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (products: BatchRow[]) => unwrap(await api.PATCH('/api/products/batch', { body: { products } as never })).data,
    onSettled: () => productListsChanged(queryClient),
  });
}

/** The most products "every product that matches" may push from the list; more is a full sync's work. */
export const MAX_LIST_PUSH = 500;

/** The selected products (by id, or every one the filter matches) pushed to one store, PUSH_BATCH at a time; answers how many the store took. */
export function useBulkPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ integrationId, ids, filter }: { integrationId: number; ids?: number[]; filter?: BulkFilter }) => {
      let pushed = 0;
      for (const batch of chunk(ids ?? (await matchingIds(filter ?? {})), PUSH_BATCH)) {
        const answer = await api.POST('/api/products/push', { headers: bridge(integrationId), body: { products: batch.map((id) => ({ id })) } as never });
        if (!answer.data) throw toApiError(answer.error, answer.response);
        pushed += answer.data.data.results.filter((r) => r.status !== 'error').length;
      }
      return pushed;
    },
    onSettled: (_data, _err, { integrationId }) => bridgeChanged(queryClient, integrationId),
  });
}

/** The ids of the products the list's filter matches, read a page of 100 at a time; more than MAX_LIST_PUSH is refused. */
async function matchingIds(filter: BulkFilter): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = unwrap(await api.GET('/api/products', { params: { query: { ...filter, limit: 100, page } } })).data;
    // More may match now than when the bar offered the push: refused whole rather than cut at the limit.
    if (answer.pagination.total_items > MAX_LIST_PUSH) throw new Error(`Over ${MAX_LIST_PUSH} products match now: send them with a full sync of the store.`);
    ids.push(...answer.products.map((p) => p.id));
    if (page >= answer.pagination.total_pages) return ids;
  }
}

export const useViews = () =>
  useQuery({
    queryKey: productKeys.views(),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/product-views', { signal })).data.views,
  });

export interface ViewRequest {
  name: string;
  filters: BulkFilter;
  columns: string[];
  sort: string | null;
}

export function useSaveView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ViewRequest) => unwrap(await api.POST('/api/product-views', { body })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: productKeys.views() }),
  });
}

export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => unwrap(await api.DELETE('/api/product-views/{id}', { params: { path: { id } } })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: productKeys.views() }),
  });
}

/** The products the grid edits, by id (at most 100, one call), as the list reads them. */
export const useGridProducts = (ids: number[] | null) =>
  useQuery({
    queryKey: productKeys.grid(ids ?? []),
    enabled: ids !== null && ids.length > 0,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/products', { params: { query: { ids: (ids ?? []).slice(0, 100).join(','), limit: 100, page: 1 } }, signal })).data.products,
    // The grid keeps what it loaded while it is open: a list refetched after a save must not reset the cells.
    staleTime: Number.POSITIVE_INFINITY,
  });
