// The product in each connected Shopify store: its mapping (sync status, error, last sync, the store's product id) and
// a Push button that sends it now and reads the mapping again. Connector calls name their integration in a header. The
// status follows the server's stream of sync states (pending, syncing, synced or the error) as it changes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, bridge } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import { ErrorBanner, Loading } from '../../components/status';
import { bridgeChanged, type IntegrationSummary, useIntegrations, useMapping } from '../bridge/api';
import { connectorTime, type PushResult, pushSummary } from './product-model';

type Integration = IntegrationSummary;

export function ProductShopify({ productId }: { productId: number }) {
  const ids = useId();
  const integrations = useIntegrations();
  return (
    <section className="card product-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Shopify</h2>
      <ErrorBanner error={integrations.error} onRetry={() => integrations.refetch()} />
      {integrations.isPending && <Loading label="Loading stores…" />}
      {integrations.data?.length === 0 && <p>No Shopify store is connected.</p>}
      {integrations.data?.map((integration) => (
        <StoreMapping key={integration.id} integration={integration} productId={productId} />
      ))}
    </section>
  );
}

// `syncing`: the stream says the shop is being written now (features/bridge/live.ts patches the mapping read here).
const TONE: Record<string, string> = { synced: 'ok', error: 'error', pending: 'warn', syncing: 'warn' };

function StoreMapping({ integration, productId }: { integration: Integration; productId: number }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ ok: boolean; lines: string[] } | null>(null);
  // null: not pushed to this store yet. The same query as the bridge's mappings page shows.
  const mapping = useMapping(integration.id, productId);
  const push = useMutation({
    mutationFn: async () => {
      // The route takes a product object or {products: [...]}; its body is not in the OpenAPI document.
      const answer = await api.POST('/api/products/push', {
        headers: bridge(integration.id),
        body: { products: [{ id: productId }] } as never,
      });
      if (!answer.data) throw toApiError(answer.error, answer.response);
      return answer.data;
    },
    onSuccess: (answer) => {
      const result = answer.data.results.find((r) => r.pim_product_id === productId) as PushResult | undefined;
      setOutcome(pushSummary(result, answer.message));
    },
    onError: (err) => setOutcome({ ok: false, lines: [err instanceof ApiError ? err.message : String(err)] }),
    // The mapping, and what else a push changes of the integration (its mappings, status, last sync).
    onSettled: () => bridgeChanged(queryClient, integration.id),
  });

  const m = mapping.data;
  // A sandbox shop has no admin to open.
  const adminUrl =
    m?.storefront_product_id && integration.platform !== 'sandbox' ? `https://${integration.shop_domain}/admin/products/${m.storefront_product_id}` : null;
  return (
    <div className="product-store">
      <h3>
        {integration.shop_domain}
        {!integration.is_active && <span className="badge warn">Inactive</span>}
      </h3>
      <ErrorBanner error={mapping.error} onRetry={() => mapping.refetch()} />
      {mapping.isPending && <Loading label="Loading the mapping…" />}
      {m === null && <p>Not pushed to this store yet.</p>}
      {m && (
        <dl className="product-facts">
          <dt>Sync status</dt>
          <dd>
            <span className={`badge ${TONE[m.sync_status] ?? ''}`} aria-live="polite">
              {m.sync_status}
            </span>
          </dd>
          {m.sync_error && (
            <>
              <dt>Last error</dt>
              <dd className="field-error">{m.sync_error}</dd>
            </>
          )}
          <dt>Last synced</dt>
          <dd>{connectorTime(m.last_synced_at)}</dd>
          <dt>Store product</dt>
          <dd>
            {m.storefront_product_id ? (
              <>
                <span className="mono">{m.storefront_product_id}</span>
                {m.metadata.storefront_handle && <span className="hint"> · handle {m.metadata.storefront_handle}</span>}
                {adminUrl && (
                  <>
                    {' · '}
                    <a href={adminUrl} target="_blank" rel="noreferrer noopener">
                      Open in the store admin<span className="visually-hidden"> (opens a new tab)</span>
                    </a>
                  </>
                )}
              </>
            ) : (
              'not created yet'
            )}
          </dd>
          <dt>In the store</dt>
          <dd>
            {m.metadata.variant_count} variant{m.metadata.variant_count === 1 ? '' : 's'}, {m.metadata.image_count} image
            {m.metadata.image_count === 1 ? '' : 's'}
          </dd>
        </dl>
      )}
      {outcome && (
        <div role={outcome.ok ? 'status' : 'alert'} className={`banner ${outcome.ok ? 'success' : 'error'} product-outcome`}>
          {outcome.lines.length === 1 ? (
            <span>{outcome.lines[0]}</span>
          ) : (
            <div>
              <p>{outcome.lines[0]}</p>
              <ul>
                {outcome.lines.slice(1).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
      <button type="button" className="button primary" disabled={push.isPending} onClick={() => push.mutate()}>
        {push.isPending ? 'Pushing…' : 'Push to Shopify'}
        <span className="visually-hidden"> ({integration.shop_domain})</span>
      </button>
    </div>
  );
}
