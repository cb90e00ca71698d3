// Products' completeness, read for a page of the product list in one call (each row's cell reads the same query) or for
// the one product of the editor.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { completenessKeys } from './keys';

export function useCompleteness(productIds: readonly number[]) {
  return useQuery({
    queryKey: completenessKeys.of(productIds),
    enabled: productIds.length > 0,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/products/completeness', { params: { query: { ids: productIds.join(',') } }, signal })).data.products,
  });
}
