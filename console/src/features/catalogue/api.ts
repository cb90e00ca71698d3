// The catalogue's reference data as every page reads and changes it: brands, suppliers, VAT rates, channels and
// warehouses (each a list of its own), the category tree and the attribute definitions. One query per resource under its
// key of keys.ts, shared by its own page, the product list's filters, the product editor's selects and the export's
// filters; every change of one invalidates its key (catalogueChanged), so the product editor shows a brand added on the
// Lists page at once. The reference lists' writes are in list-configs.tsx; the categories' and attributes' are here.
import { type QueryClient, type QueryKey, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import { productKeys } from '../products/keys';
import { flattenTree } from '../products/product-model';
import type { AttributeDraft } from './attribute-form-model';
import { attributeBody } from './attribute-form-model';
import { type CategoryNode, moveNode, replaceNode } from './category-tree-model';
import { attributeKeys, brandKeys, categoryKeys, channelKeys, supplierKeys, vatRateKeys, warehouseKeys } from './keys';

/** The data of a GET answer of the PIM (its `data`). */
type Answer<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: infer D } } } } } } ? D : never;
export type Brand = Answer<'/api/brands'>['brands'][number];
export type Supplier = Answer<'/api/suppliers'>['suppliers'][number];
export type VatRate = Answer<'/api/vat-rates'>['vat_rates'][number];
export type Channel = Answer<'/api/channels'>['channels'][number];
export type Warehouse = Answer<'/api/warehouses'>['warehouses'][number];
type AttributesData = Answer<'/api/product-attributes'>;

export const brandsQuery = queryOptions({
  queryKey: brandKeys.all,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/brands', { signal })).data.brands,
});

export const suppliersQuery = queryOptions({
  queryKey: supplierKeys.all,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/suppliers', { signal })).data.suppliers,
});

export const vatRatesQuery = queryOptions({
  queryKey: vatRateKeys.all,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/vat-rates', { signal })).data.vat_rates,
});

export const channelsQuery = queryOptions({
  queryKey: channelKeys.all,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/channels', { signal })).data.channels,
});

export const warehousesQuery = queryOptions({
  queryKey: warehouseKeys.all,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/warehouses', { signal })).data.warehouses,
});

export type CategoryTreeData = { categories: CategoryNode[]; total: number };

export const categoryTreeQuery = queryOptions({
  queryKey: categoryKeys.tree(),
  queryFn: async ({ signal }): Promise<CategoryTreeData> => unwrap(await api.GET('/api/categories/tree', { signal })).data,
});

export const attributesQuery = queryOptions({
  queryKey: attributeKeys.all,
  queryFn: async ({ signal }): Promise<AttributesData> => unwrap(await api.GET('/api/product-attributes', { signal })).data,
});

// What the product pages and the export choose from: read again at most once a minute on arrival (a change made in the
// console invalidates the key at once; this only spares the server a read on every visit).
const long = { staleTime: 60_000 };
/** The product pages' categories: the tree flattened, each with its depth and path. */
const categoryOptions = (tree: CategoryTreeData) => flattenTree(tree.categories);
const definitionsOf = (data: AttributesData) => data.attributes;

export const useBrands = () => useQuery({ ...brandsQuery, ...long });
export const useSuppliers = () => useQuery({ ...suppliersQuery, ...long });
export const useVatRates = () => useQuery({ ...vatRatesQuery, ...long });
export const useChannels = () => useQuery({ ...channelsQuery, ...long });
export const useWarehouses = () => useQuery({ ...warehousesQuery, ...long });
/** The category tree as its own page and the export's filters show it. */
export const useCategoryTree = () => useQuery(categoryTreeQuery);
export const useCategories = () => useQuery({ ...categoryTreeQuery, select: categoryOptions, ...long });
/** The attribute definitions as their own page lists them (with the total). */
export const useAttributes = () => useQuery(attributesQuery);
export const useAttributeDefinitions = () => useQuery({ ...attributesQuery, select: definitionsOf, ...long });

/**
 * After a change of reference data: its key, and every product read (products carry their brand, supplier, VAT rate,
 * categories and stock). Resolves once the queries on screen have been read again.
 */
export function catalogueChanged(queryClient: QueryClient, key: QueryKey) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: productKeys.all })]);
}

// ---------------------------------------------------------------------------------------------------------------
// Categories: create, edit, move (shown at once, rolled back if the server refuses), delete.

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; description: string | null; parent_id: number | null }) =>
      unwrap(await api.POST('/api/categories', { body })).data,
    onSuccess: () => catalogueChanged(queryClient, categoryKeys.all),
  });
}

export function useUpdateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, fields }: { id: number; fields: { name: string; description: string | null } }) =>
      unwrap(await api.PUT('/api/categories/{id}', { params: { path: { id } }, body: fields })).data,
    onSuccess: (saved, { id }) => {
      // The tree shows the server's answer at once; the read again confirms it.
      queryClient.setQueryData<CategoryTreeData>(
        categoryKeys.tree(),
        (old) => old && { ...old, categories: replaceNode(old.categories, id, { name: saved.name, description: saved.description }) },
      );
      void catalogueChanged(queryClient, categoryKeys.all);
    },
  });
}

export function useMoveCategory() {
  const queryClient = useQueryClient();
  const tree = categoryKeys.tree();
  return useMutation({
    mutationFn: async ({ id, parentId }: { id: number; parentId: number | null }) =>
      unwrap(await api.POST('/api/categories/{id}/move', { params: { path: { id } }, body: { parent_id: parentId } })).data,
    onMutate: async ({ id, parentId }) => {
      await queryClient.cancelQueries({ queryKey: tree });
      const before = queryClient.getQueryData<CategoryTreeData>(tree);
      if (before) queryClient.setQueryData<CategoryTreeData>(tree, { ...before, categories: moveNode(before.categories, id, parentId) });
      return { before };
    },
    onError: (_err, _vars, context) => {
      if (context?.before) queryClient.setQueryData(tree, context.before);
    },
    onSettled: () => catalogueChanged(queryClient, categoryKeys.all),
  });
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (node: CategoryNode) => unwrap(await api.DELETE('/api/categories/{id}', { params: { path: { id: node.id } } })).data,
    onSuccess: () => catalogueChanged(queryClient, categoryKeys.all),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Attributes: a new one or a change (the same form), delete.

export function useSaveAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, draft }: { id: number | null; draft: AttributeDraft }) => {
      const body = attributeBody(draft);
      return id !== null
        ? unwrap(await api.PUT('/api/product-attributes/{id}', { params: { path: { id } }, body })).data
        : unwrap(await api.POST('/api/product-attributes', { body })).data;
    },
    onSuccess: () => catalogueChanged(queryClient, attributeKeys.all),
  });
}

export function useDeleteAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (attribute: { id: number }) => unwrap(await api.DELETE('/api/product-attributes/{id}', { params: { path: { id: attribute.id } } })),
    onSuccess: () => catalogueChanged(queryClient, attributeKeys.all),
  });
}
