// The reference lists the product pages choose from (brands, suppliers, VAT rates, channels, categories, attributes,
// warehouses, integrations), each read once and shared by both pages through the query cache; a product's variants
// (the editor's details and its Variants section share them); the organization's catalogue defaults.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { flattenTree } from '../products/product-model';

const long = { staleTime: 60_000 };

export const useBrands = () =>
  useQuery({ queryKey: ['product-refs', 'brands'], queryFn: async ({ signal }) => unwrap(await api.GET('/api/brands', { signal })).data.brands, ...long });

export const useSuppliers = () =>
  useQuery({
    queryKey: ['product-refs', 'suppliers'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/suppliers', { signal })).data.suppliers,
    ...long,
  });

export const useVatRates = () =>
  useQuery({
    queryKey: ['product-refs', 'vat-rates'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/vat-rates', { signal })).data.vat_rates,
    ...long,
  });

export const useChannels = () =>
  useQuery({
    queryKey: ['product-refs', 'channels'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/channels', { signal })).data.channels,
    ...long,
  });

export const useCategories = () =>
  useQuery({
    queryKey: ['product-refs', 'categories'],
    queryFn: async ({ signal }) => flattenTree(unwrap(await api.GET('/api/categories/tree', { signal })).data.categories),
    ...long,
  });

export const useAttributeDefinitions = () =>
  useQuery({
    queryKey: ['product-refs', 'attributes'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/product-attributes', { signal })).data.attributes,
    ...long,
  });

export const useWarehouses = () =>
  useQuery({
    queryKey: ['product-refs', 'warehouses'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/warehouses', { signal })).data.warehouses,
    ...long,
  });

/** A product's variants (the Variants section updates this query's data in place). */
export const variantsKey = (productId: number) => ['product', productId, 'variants'];
export const useVariants = (productId: number | null) =>
  useQuery({
    queryKey: variantsKey(productId ?? 0),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/products/{id}/variants', { params: { path: { id: productId! } }, signal })).data.variants,
    enabled: productId !== null,
  });

/** The signed-in organization and its catalogue defaults (GET /api/organization). */
export const organizationKey = ['organization'];
export const useOrganization = () =>
  useQuery({ queryKey: organizationKey, queryFn: async ({ signal }) => unwrap(await api.GET('/api/organization', { signal })).data, ...long });
