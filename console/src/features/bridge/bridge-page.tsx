// /bridge: "Connect a Shopify store" (its three ways), then the Shopify shops connected to this organization's PIM
// account (GET /api/integrations), each with how it is connected and linking to its overview.
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { useIntegrations } from './api';
import { AccessSummary } from './bridge-access';
import { ConnectStore } from './bridge-connect';
import { formatWhen } from './bridge-data';
import './bridge-pages.css';

export default function BridgePage() {
  const integrations = useIntegrations();
  const origin = window.location.origin;

  return (
    <Page title="Shopify bridge">
      <p className="hint">The Shopify shops that take their products from this organization's catalogue.</p>
      <ConnectStore origin={origin} />
      <h2 id="shops-h">Connected shops</h2>
      {integrations.isPending && <Loading label="Loading the integrations…" />}
      <ErrorBanner error={integrations.error} onRetry={() => integrations.refetch()} />
      {integrations.data && integrations.data.length === 0 && <Empty>No shop is connected yet: connect your Shopify store above.</Empty>}
      {integrations.data && integrations.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Connected shops, with how each is connected</caption>
            <thead>
              <tr>
                <th scope="col">Shop</th>
                <th scope="col">Connection</th>
                <th scope="col">Last sync</th>
                <th scope="col" className="bridge-hide-narrow">
                  Connected since
                </th>
              </tr>
            </thead>
            <tbody>
              {integrations.data.map((i) => (
                <tr key={i.id}>
                  <td>
                    <Link to={`/bridge/${i.id}`}>{i.shop_domain}</Link>
                  </td>
                  <td>
                    {i.is_active ? <span className="badge ok">Active</span> : <span className="badge error">Disconnected</span>}
                    <AccessSummary access={i.access} domain={i.shop_domain} />
                  </td>
                  <td>{formatWhen(i.last_sync_at, 'never', true)}</td>
                  <td className="bridge-hide-narrow">{formatWhen(i.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
