// The import's calls: a CSV file uploaded (POST /api/imports, multipart), then its progress (GET /api/imports/{id})
// read every second until it ends. An import that ends has written products, and the brands, suppliers and categories
// its rows named that were missing: their keys are invalidated then (importEnded), so the other pages show them.
// The export is a plain link (files-model.ts's exportUrl).
import { type QueryClient, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { brandKeys, categoryKeys, supplierKeys } from '../catalogue/keys';
import { productKeys } from '../products/keys';
import { isActive } from './files-model';
import { importKeys } from './keys';

export interface ImportRequest {
  file: File;
  format: '' | 'ours' | 'shopify';
  dryRun: boolean;
}

/** Uploads the file; the answer is the import started (its id to follow). */
export function useStartImport() {
  return useMutation({
    mutationFn: async ({ file, format, dryRun }: ImportRequest) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return unwrap(
        await api.POST('/api/imports', {
          params: { query: { dry_run: dryRun, ...(format ? { format } : {}) } },
          body: body as never,
          bodySerializer: (b: unknown) => b as FormData,
        }),
      ).data;
    },
  });
}

/** One import, read every second while it is queued or running. */
export const useImport = (id: string) =>
  useQuery({
    queryKey: importKeys.detail(id),
    queryFn: async () => unwrap(await api.GET('/api/imports/{id}', { params: { path: { id } } })).data,
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data.state) ? false : 1000),
    staleTime: 0,
  });

/** "Import now": the file a finished dry run checked, imported for real (the answer is the new import, to follow). */
export function useImportChecked() {
  return useMutation({
    mutationFn: async (checkedId: string) => unwrap(await api.POST('/api/imports/{id}/import', { params: { path: { id: checkedId } } })).data,
  });
}

/** An ended import's refused rows, 50 at a time (`fetchNextPage` for more). */
export const useImportErrors = (id: string, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: importKeys.errors(id),
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(await api.GET('/api/imports/{id}/errors', { params: { path: { id }, query: { limit: 50, after: pageParam } }, signal })).data,
    getNextPageParam: (last) => last.next_after ?? undefined,
  });

/** After an import (not a dry run) ended: what it may have written. */
export function importEnded(queryClient: QueryClient) {
  for (const queryKey of [productKeys.all, brandKeys.all, supplierKeys.all, categoryKeys.all]) void queryClient.invalidateQueries({ queryKey });
}
