// /bridge: the Shopify shops connected to this organization's PIM account (GET /api/integrations), each linking to its
// overview; without any, how a shop is connected.
import { Link } from 'react-router';
import { formatWhen } from '../components/bridge-data';
import { useIntegrations } from '../components/bridge-shell';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/status';
import './bridge-pages.css';

export default function BridgePage() {
  const integrations = useIntegrations();
  const origin = window.location.origin;

  return (
    <Page title="Shopify bridge">
      <p className="hint">The Shopify shops that take their products from this organization's catalogue.</p>
      {integrations.isPending && <Loading label="Loading the integrations…" />}
      <ErrorBanner error={integrations.error} onRetry={() => integrations.refetch()} />
      {integrations.data && integrations.data.length === 0 && (
        <Empty>
          <div className="bridge-connect">
            <h2>No shop is connected yet</h2>
            <p>A shop is connected from the Pimbridge app installed on it, or by your developer, with one request:</p>
            <ol>
              <li>Install the Pimbridge app on the Shopify shop.</li>
              <li>
                Send <code>POST /api/connect</code> with the shop's domain, this PIM's base URL (<code>{origin}</code>) and an API key and secret of this
                organization. The key is checked on the spot.
              </li>
              <li>The answer carries an API token for the shop's app: keep it. The shop then appears here.</li>
            </ol>
            <pre>
              {`curl -X POST ${origin}/api/connect -H 'Content-Type: application/json' \\
  -d '{"shop_domain": "your-shop.myshopify.com", "pim_base_url": "${origin}",
       "pim_api_key": "pk_…", "pim_api_secret": "sk_…"}'`}
            </pre>
          </div>
        </Empty>
      )}
      {integrations.data && integrations.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Connected shops</caption>
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
                  <td>{i.is_active ? <span className="badge ok">Active</span> : <span className="badge error">Disconnected</span>}</td>
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
