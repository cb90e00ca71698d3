// The products' reads, each under its key of keys.ts: a page of the catalogue, one product and its parts (variants,
// images, stock, a translation), the names of some ids. A change of one product invalidates its own read and every list
// (productChanged); each section of the editor also invalidates the part it changed. The reference data the product
// pages choose from (brands, categories…) is the catalogue's (features/catalogue/api.ts).
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { productKeys } from './keys';
import type { listQuery } from './product-model';

/** One page of the catalogue; the page shown stays while the next loads. */
export const useProductList = (query: ReturnType<typeof listQuery>) =>
  useQuery({
    queryKey: productKeys.list(query),
    queryFn: async ({ signal }) =>
      // `category` is the server's category filter (GET /api/products?category=…).
      unwrap(await api.GET('/api/products', { params: { query }, signal })).data,
    placeholderData: keepPreviousData,
  });

/** One product (nothing while it is a new one, id null). */
export const useProduct = (id: number | null) =>
  useQuery({
    queryKey: productKeys.detail(id ?? 0),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}', { params: { path: { id: id! } }, signal })).data,
    enabled: id !== null,
  });

/** A product's variants (the editor's details and its Variants section share them; Variants updates them in place). */
export const useVariants = (productId: number | null) =>
  useQuery({
    queryKey: productKeys.variants(productId ?? 0),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}/variants', { params: { path: { id: productId! } }, signal })).data.variants,
    enabled: productId !== null,
  });

export const useProductMedia = (productId: number) =>
  useQuery({
    queryKey: productKeys.media(productId),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}/media', { params: { path: { id: productId } }, signal })).data.media,
  });

/** A product's stock: its total, its levels per warehouse (with variants: theirs summed) and each variant's levels. */
export const useProductStock = (productId: number) =>
  useQuery({
    queryKey: productKeys.stock(productId),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}/stock', { params: { path: { id: productId } }, signal })).data,
  });

/** The product read in one language: translated texts where there are some, the product's own where not. */
export const useProductTranslation = (productId: number, locale: string, enabled: boolean) =>
  useQuery({
    queryKey: productKeys.translation(productId, locale),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}', { params: { path: { id: productId }, query: { locale } }, signal })).data,
    enabled,
  });

/** One page of a product's history, newest first (the page shown stays while the next loads). */
export const useProductHistory = (productId: number, page: number) =>
  useQuery({
    queryKey: productKeys.historyPage(productId, page),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/products/{id}/history', { params: { path: { id: productId }, query: { page, limit: HISTORY_PER_PAGE } }, signal })).data,
    placeholderData: keepPreviousData,
  });
export const HISTORY_PER_PAGE = 10;

/** "Restore this version": the product as it is then goes into its read, and its lists and history are read again. */
export function useRestoreVersion(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changeId: number) =>
      unwrap(await api.POST('/api/products/{id}/history/{change_id}/restore', { params: { path: { id: productId, change_id: changeId } } })).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(productKeys.detail(productId), saved);
      productListsChanged(queryClient);
      void queryClient.invalidateQueries({ queryKey: productKeys.history(productId) });
    },
  });
}

/** The names and SKUs of some products by id (one call; at most 100 ids). */
export const useProductNames = (ids: number[]) =>
  useQuery({
    queryKey: productKeys.names(ids),
    enabled: ids.length > 0,
    queryFn: async () => {
      const answer = unwrap(await api.GET('/api/products', { params: { query: { ids: ids.join(','), limit: 100, page: 1 } } }));
      return new Map(answer.data.products.map((p) => [p.id, { name: p.name, sku: p.sku }]));
    },
  });

/** After a change of any product: every list it may be in (pages of the catalogue, names). */
export function productListsChanged(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: productKeys.lists() });
}

/** After a change of one of a product's parts that the product itself carries (stock, images, variants…): it, and every list. */
export function productChanged(queryClient: QueryClient, id: number) {
  void queryClient.invalidateQueries({ queryKey: productKeys.detail(id), exact: true });
  productListsChanged(queryClient);
}

/**
 * A product's stock levels for other sections: per variant (by variant id) its stock_quantity and levels by warehouse,
 * read from the Stock section's query (one request, one key).
 */
export const useVariantStockLevels = (productId: number) =>
  useQuery({
    queryKey: productKeys.stock(productId),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}/stock', { params: { path: { id: productId } }, signal })).data,
    select: (data) =>
      new Map(data.variants.map((v) => [v.variant_id, { stock_quantity: v.stock_quantity, stock_status: v.stock_status, warehouse_stock: v.warehouse_stock }])),
  });
