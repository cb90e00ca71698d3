// The signed-in organization's integrations (GET /api/integrations, no X-Integration-Id): one query, one cache entry,
// shared by the bridge pages and the product editor's Shopify panel.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';

export type IntegrationSummary = paths['/api/integrations']['get']['responses'][200]['content']['application/json']['data'][number];

export const integrationsKey = ['bridge', 'integrations'] as const;

export function useIntegrations() {
  return useQuery({
    queryKey: integrationsKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/integrations', { signal })).data,
  });
}
