// The query keys of the Shopify bridge: the organization's integrations, and everything read of one integration under
// `integration(id)`, so that a push or a finished sync can invalidate all of it at once. The mapping of one product is
// one key, whichever page shows it (the mappings page's details, the product editor's Shopify panel). Pure:
// console/test/query-keys.test.ts checks them.

export const bridgeKeys = {
  all: ['bridge'] as const,
  /** GET /api/integrations (no X-Integration-Id). */
  integrations: () => [...bridgeKeys.all, 'integrations'] as const,
  /** Everything read of one integration (X-Integration-Id). */
  integration: (integrationId: number) => [...bridgeKeys.all, integrationId] as const,
  /** GET /api/status: health, connectivity, counts, the last sync logs. */
  status: (integrationId: number) => [...bridgeKeys.integration(integrationId), 'status'] as const,
  /** GET /api/sync/logs of the last 48 hours. */
  syncLogs: (integrationId: number) => [...bridgeKeys.integration(integrationId), 'sync-logs'] as const,
  /** Every page of GET /api/products/mappings. */
  mappings: (integrationId: number) => [...bridgeKeys.integration(integrationId), 'mappings'] as const,
  mappingsPage: (integrationId: number, status: string | null, page: number) => [...bridgeKeys.mappings(integrationId), status, page] as const,
  /** GET /api/products/mapping/{pimProductId}: the shop's side of one product. */
  mapping: (integrationId: number, pimProductId: number) => [...bridgeKeys.integration(integrationId), 'mapping', pimProductId] as const,
  /** GET /api/sync/full/{id}: one full sync's progress (polled; not read again when the integration's data is). */
  fullSync: (integrationId: number, syncId: string | null) => [...bridgeKeys.integration(integrationId), 'full-sync', syncId] as const,
  /** Every page of the newest drift report (GET /api/drift). */
  drift: (integrationId: number) => [...bridgeKeys.integration(integrationId), 'drift'] as const,
  driftPage: (integrationId: number, kind: string | null, page: number) => [...bridgeKeys.drift(integrationId), kind, page] as const,
  /** GET /api/collections: the shop's collections of PIM categories. */
  collections: (integrationId: number) => [...bridgeKeys.integration(integrationId), 'collections'] as const,
  /** Every read of GET /api/sync/states (all integrations at once, no X-Integration-Id). */
  states: () => [...bridgeKeys.all, 'states'] as const,
  /** GET /api/sync/states of some products (a page of the product list), in every shop. */
  statesOf: (productIds: readonly number[]) => [...bridgeKeys.states(), productIds.join(',')] as const,
};

/** Whether a key is a full sync's progress (left out when an integration's data is read again: it polls by itself). */
export const isFullSyncKey = (key: readonly unknown[]) => key[2] === 'full-sync';
