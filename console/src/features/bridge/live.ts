// The bridge, live: one EventSource for the whole signed-in console (GET /api/sync/events, mounted by the layout),
// whose events update the TanStack Query caches at once (the product's mapping, the mappings pages, the product
// list's states: live-model.ts) and, when a write ended, read again what else it changed (the mapping's ids and counts,
// the integration's status and sync logs, its last sync in the list, the product lists: the change written came from the
// PIM, perhaps from another tab), gathered over a short moment. The browser
// reconnects by itself when the stream ends (the server ends each after 10 minutes, or a node restarts); events may
// have been missed meanwhile, so everything of the bridge shown is read again on each reconnection.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { productListsChanged } from '../products/api';
import { syncStatesQuery } from './api';
import { bridgeKeys } from './keys';
import { endsWrite, parseSyncEvent, patchMapping, patchMappingsPage, patchStates, type SyncState } from './live-model';

/** Writes that end within this long of each other make one round of reads. */
const GATHER_MS = 400;

type Mapping = Parameters<typeof patchMapping>[0];

function apply(queryClient: QueryClient, event: SyncState): void {
  const { integration_id: integrationId, product_id: productId } = event;
  const mapping = bridgeKeys.mapping(integrationId, productId);
  // A read of the mapping under way started before this event: its answer would put the older state back (a refetch on
  // focus, say). It is dropped; the write's end reads the mapping again anyway.
  if (queryClient.getQueryData(mapping)) void queryClient.cancelQueries({ queryKey: mapping, exact: true }, { revert: false });
  queryClient.setQueryData(mapping, (m: Mapping | null | undefined) => (m ? patchMapping(m, event) : m));
  queryClient.setQueriesData({ queryKey: bridgeKeys.mappings(integrationId) }, (page: { mappings: Mapping[] } | undefined) =>
    page ? patchMappingsPage(page, event) : page,
  );
  for (const [key, states] of queryClient.getQueriesData<SyncState[]>({ queryKey: bridgeKeys.states() })) {
    const ids = String(key[2] ?? '')
      .split(',')
      .map(Number);
    if (states) queryClient.setQueryData(key, patchStates(states, event, ids));
  }
}

/** Opens the stream while `enabled` (a session is there), and closes it when the console signs out or unmounts. */
export function useLiveSync(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/sync/events');
    const ended = new Map<number, Set<number>>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let opened = false;
    const readAgain = () => {
      timer = null;
      for (const [integrationId, products] of ended) {
        // The panel's and the details' mapping (the shop's ids, counts), the lists (a status filter), the health and logs.
        for (const productId of products) void queryClient.invalidateQueries({ queryKey: bridgeKeys.mapping(integrationId, productId) });
        void queryClient.invalidateQueries({ queryKey: bridgeKeys.mappings(integrationId) });
        void queryClient.invalidateQueries({ queryKey: bridgeKeys.status(integrationId) });
        void queryClient.invalidateQueries({ queryKey: bridgeKeys.syncLogs(integrationId) });
      }
      ended.clear();
      void queryClient.invalidateQueries({ queryKey: bridgeKeys.integrations() });
      // A write follows a change in the PIM, perhaps made in another tab or by another user: the lists show it.
      void productListsChanged(queryClient);
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const event = parseSyncEvent(message.data);
      if (!event) return;
      apply(queryClient, event);
      if (!endsWrite(event)) return;
      let products = ended.get(event.integration_id);
      if (!products) ended.set(event.integration_id, (products = new Set()));
      products.add(event.product_id);
      timer ??= setTimeout(readAgain, GATHER_MS);
    };
    source.onopen = () => {
      // Reconnected: what happened while the stream was down is read, not heard.
      if (opened) void queryClient.invalidateQueries({ queryKey: bridgeKeys.all });
      opened = true;
    };
    // A dropped stream is the browser's to reconnect (`retry:` of the server); nothing to report meanwhile.
    source.onerror = () => {};
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [enabled, queryClient]);
}

/** Where these products stand in each of the organization's shops, kept current by the stream. */
export function useSyncStates(productIds: readonly number[], enabled = true) {
  return useQuery({ ...syncStatesQuery(productIds), enabled: enabled && productIds.length > 0 });
}
