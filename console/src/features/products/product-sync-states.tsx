// The product list's Shopify column: where each product of the page stands in each connected store (GET
// /api/sync/states, one call for the page), kept current by the server's stream of sync states (features/bridge/live.ts):
// pending, syncing, synced or error, as it happens. A product in none of the stores shows a dash.
import { mappingStatusWord, tone } from '../bridge/bridge-data';
import type { IntegrationSummary } from '../bridge/api';
import type { SyncState } from '../bridge/live-model';

export function SyncStatesCell({
  productId,
  integrations,
  states,
}: {
  productId: number;
  integrations: IntegrationSummary[];
  states: SyncState[] | undefined;
}) {
  if (!states) return <span className="hint">…</span>;
  const mine = integrations.flatMap((integration) => {
    const s = states.find((x) => x.integration_id === integration.id && x.product_id === productId);
    return s ? [{ integration, s }] : [];
  });
  if (mine.length === 0)
    return (
      <span className="hint">
        —<span className="visually-hidden"> not in a store</span>
      </span>
    );
  const many = integrations.length > 1;
  return (
    <span className="product-sync-states">
      {mine.map(({ integration, s }) => (
        <span
          key={integration.id}
          className={`badge ${tone(s.state)}`}
          data-state={s.state}
          title={s.state === 'error' && s.error ? `${integration.shop_domain}: ${s.error}` : integration.shop_domain}
        >
          {many && <span className="product-sync-shop">{integration.shop_domain.replace(/\.myshopify\.com$/, '')}: </span>}
          {mappingStatusWord(s.state)}
          {!many && <span className="visually-hidden"> in {integration.shop_domain}</span>}
        </span>
      ))}
    </span>
  );
}
