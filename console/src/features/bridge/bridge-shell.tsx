// The frame of one integration's pages (/bridge/:integrationId…): its shop as the heading, the way back to the list,
// the sub-navigation. The integration is looked up in GET /api/integrations first: a connector call for an integration
// that is disconnected or not this organization's answers 401, which the API client reads as the session's end, so
// such an integration's pages explain themselves instead of calling.
import type { ReactNode } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import { Page } from '../../components/page';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { type IntegrationSummary, useIntegrations } from './api';
import { formatWhen } from './bridge-data';
import './bridge-pages.css';

/** The `:integrationId` of the address, when it is a plausible id. */
export function useIntegrationId(): number | null {
  const { integrationId } = useParams();
  return integrationId && /^[1-9]\d{0,9}$/.test(integrationId) ? Number(integrationId) : null;
}

const SECTIONS = [
  ['', 'Overview'],
  ['/mappings', 'Mappings'],
  ['/sync', 'Full sync'],
  ['/drift', 'Drift'],
  ['/collections', 'Collections'],
] as const;

/**
 * One integration's page: `title` follows the shop's domain; `children` is given the integration once it is known to
 * be this organization's and active.
 */
export function BridgeFrame({
  section,
  actions,
  children,
}: {
  section: string;
  actions?: ReactNode;
  children: (integration: IntegrationSummary) => ReactNode;
}) {
  const id = useIntegrationId();
  const integrations = useIntegrations();
  const integration = integrations.data?.find((i) => i.id === id);
  const title = integration ? `${section} · ${integration.shop_domain}` : section;

  let body: ReactNode;
  if (integrations.isPending) body = <Loading label="Loading the integration…" />;
  else if (integrations.isError) body = <ErrorBanner error={integrations.error} onRetry={() => integrations.refetch()} />;
  else if (!integration)
    body = (
      <Empty>
        <p>There is no integration {id === null ? 'at this address' : `#${id}`} in this organization.</p>
        <p>
          <Link to="/bridge">See the organization's integrations</Link>
        </p>
      </Empty>
    );
  else if (!integration.is_active)
    body = (
      <div className="banner info bridge-disconnected">
        <p>
          <strong>{integration.shop_domain} is disconnected.</strong> Its access was revoked (last sync {formatWhen(integration.last_sync_at)}), so its status,
          mappings and syncs cannot be read. To use it again, connect the store once more under "Connect a Shopify store" on the{' '}
          <Link to="/bridge">Shopify bridge</Link> page.
        </p>
      </div>
    );
  else body = children(integration);

  return (
    <Page title={title} actions={integration?.is_active ? actions : undefined}>
      <p className="bridge-crumbs">
        <Link to="/bridge">All integrations</Link>
        {integration && (
          <>
            {' '}
            / <span>{integration.shop_domain}</span>
          </>
        )}
      </p>
      {integration?.is_active && (
        <nav className="bridge-tabs" aria-label="Integration">
          <ul>
            {SECTIONS.map(([path, label]) => (
              <li key={path}>
                <NavLink to={`/bridge/${integration.id}${path}`} end>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {body}
    </Page>
  );
}

/**
 * A bridge job's start: what it does, its button (confirmed by the page), and the answer to the start in a live region
 * (a notice) or an alert (the server's refusal). The full sync, the drift report and the collections' check share it.
 */
export function StartJobCard(props: {
  id: string;
  title: string;
  children: ReactNode;
  onStart: () => void;
  starting: boolean;
  running: boolean;
  /** `starting`: the button while the request is out (default "Starting…"). */
  labels: { start: string; running: string; starting?: string };
  notice: string | null;
  error: string | null;
}) {
  return (
    <>
      <section aria-labelledby={props.id} className="card bridge-section">
        <h2 id={props.id}>{props.title}</h2>
        <p>{props.children}</p>
        <div className="actions">
          <button type="button" className="button primary" onClick={props.onStart} disabled={props.starting || props.running}>
            {props.starting ? (props.labels.starting ?? 'Starting…') : props.running ? props.labels.running : props.labels.start}
          </button>
        </div>
      </section>
      <div aria-live="polite" className="bridge-live">
        {props.notice && (
          <p role="status" className="banner info">
            {props.notice}
          </p>
        )}
      </div>
      {props.error && (
        <p role="alert" className="banner error">
          {props.error}
        </p>
      )}
    </>
  );
}
