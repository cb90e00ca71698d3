// /bridge/:integrationId: one shop's health (GET /api/status, refreshed every 10 s): the score and what costs it points,
// PIM and shop connectivity, mapping and queue counts; the sync logs of the last 48 hours (GET /api/sync/logs) as a
// chart and the latest of them as a table, with their errors.
import { Link, useSearchParams } from 'react-router';
import { Empty, ErrorBanner, Loading, Notice } from '../../components/status';
import { type BridgeStatus, type IntegrationSummary, REFRESH_MS, useBridgeStatus, useSyncLogs } from './api';
import { AccessFacts, ReauthorizeBanner } from './bridge-access';
import { SyncChart } from './bridge-chart';
import { bucketSyncs, formatWhen, HEALTH_WORDS, mappingStatusWord, operationName, parseFactor, syncStatusWord, tone } from './bridge-data';
import { BridgeFrame } from './bridge-shell';
import type { StoreAccess } from './connect-model';
import './bridge-pages.css';

type Status = BridgeStatus;

export default function BridgeOverviewPage() {
  return <BridgeFrame section="Overview">{(integration) => <Overview integration={integration} />}</BridgeFrame>;
}

function Overview({ integration }: { integration: IntegrationSummary }) {
  const status = useBridgeStatus(integration.id);
  const [params] = useSearchParams();
  // After an install (/shopify/callback) or a connect from the bridge page.
  const justConnected = params.get('installed') === '1' || params.get('connected') === '1';
  const connected = justConnected && (
    <Notice>
      <span>
        Your store is connected. Pimbridge can now send it your products: push them from <Link to={`/bridge/${integration.id}/mappings`}>Mappings</Link> or
        start a <Link to={`/bridge/${integration.id}/sync`}>full sync</Link>.
      </span>
    </Notice>
  );
  if (status.isPending)
    return (
      <>
        {connected}
        <Loading label="Checking the shop and the PIM…" />
      </>
    );
  if (status.isError && !status.data)
    return (
      <>
        {connected}
        <ErrorBanner error={status.error} onRetry={() => status.refetch()} />
      </>
    );
  const s = status.data!;
  const access = s.storefront_access ?? integration.access;
  return (
    <>
      {connected}
      <ReauthorizeBanner access={access} domain={integration.shop_domain} />
      {/* A failed refresh keeps the last answer on screen, and says so. */}
      {status.isError && <ErrorBanner error={status.error} onRetry={() => status.refetch()} />}
      <p className="bridge-refresh" aria-live="off">
        Updated {new Date(status.dataUpdatedAt).toLocaleTimeString()}; refreshes every {REFRESH_MS / 1000} seconds.
      </p>
      <div className="bridge-cards">
        <Health s={s} />
        <Connectivity s={s} access={access} />
        <Counts s={s} integrationId={integration.id} />
      </div>
      <RecentSyncs integrationId={integration.id} />
    </>
  );
}

function Health({ s }: { s: Status }) {
  const h = s.health_score;
  const factors = h.factors.map(parseFactor);
  return (
    <section className="card" aria-labelledby="health-h">
      <h2 id="health-h">Health</h2>
      <p className="bridge-score">
        <span className="number">{h.score}</span>
        <span>out of 100</span>
        <span className={`badge ${tone(h.status)}`}>{HEALTH_WORDS[h.status] ?? h.status}</span>
      </p>
      {factors.length === 0 ? (
        <p className="hint">Nothing is costing points: every check passed.</p>
      ) : (
        <>
          <p className="hint">What costs points:</p>
          <ul className="bridge-factors">
            {factors.map((f) => (
              <li key={f.text}>
                {f.text}
                {f.penalty !== null && (
                  <>
                    {' '}
                    — <strong>{f.penalty === 1 ? '1 point' : `${f.penalty} points`}</strong>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Check({ label, check, note }: { label: string; check: Status['pim_status']; note?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {check.status === 'connected' ? <span className="badge ok">Connected</span> : <span className="badge error">Unreachable</span>}
        {note ? <div className="hint">{note}</div> : check.error && <div className="bridge-error-text">{check.error}</div>}
        {check.shop_name && (
          <div className="hint">
            {check.shop_name}
            {check.plan ? ` · ${check.plan} plan` : ''}
          </div>
        )}
      </dd>
    </>
  );
}

function Connectivity({ s, access }: { s: Status; access: StoreAccess | null }) {
  return (
    <section className="card" aria-labelledby="conn-h">
      <h2 id="conn-h">Connections</h2>
      <dl className="bridge-facts">
        <Check label="PIM" check={s.pim_status} />
        {/* A store that needs reauthorization says why in the banner above the cards. */}
        <Check
          label="Shop"
          check={s.storefront_status}
          note={access?.status === 'reauthorization_required' && s.storefront_status.status !== 'connected' ? 'Needs reauthorization: see above.' : undefined}
        />
        {access && <AccessFacts access={access} />}
        <dt>PIM address</dt>
        <dd>{s.pim_base_url}</dd>
        <dt>Last sync</dt>
        <dd>{formatWhen(s.last_sync_at)}</dd>
        <dt>Connected since</dt>
        <dd>{formatWhen(s.created_at, 'unknown')}</dd>
        <dt>API tokens</dt>
        <dd>{s.active_tokens} active</dd>
      </dl>
    </section>
  );
}

function Counts({ s, integrationId }: { s: Status; integrationId: number }) {
  const q = s.queue_stats;
  const mappingStatuses = Object.keys(s.product_mapping_stats);
  return (
    <section className="card" aria-labelledby="counts-h">
      <h2 id="counts-h">Products and queue</h2>
      <h3 className="hint">Product mappings</h3>
      <ul className="bridge-counts">
        {mappingStatuses.map((key) => (
          <li key={key}>
            <Link to={`/bridge/${integrationId}/mappings?status=${encodeURIComponent(key)}`}>
              <span className={`n${key === 'error' && s.product_mapping_stats[key] > 0 ? ' bad' : ''}`}>{s.product_mapping_stats[key].toLocaleString()}</span>
              {mappingStatusWord(key)}
            </Link>
          </li>
        ))}
      </ul>
      <h3 className="hint">Background jobs</h3>
      <ul className="bridge-counts">
        <li>
          <span className="n">{q.pending_messages.toLocaleString()}</span> Waiting
        </li>
        <li>
          <span className="n">{q.processing_messages.toLocaleString()}</span> Running
        </li>
        <li>
          <span className={`n${q.failed_messages > 0 ? ' bad' : ''}`}>{q.failed_messages.toLocaleString()}</span> Failed
        </li>
      </ul>
      {/* The status answer's own note names the queue's jobs, for developers; a merchant reads this instead. */}
      <p className="hint">
        The bridge's work for this store: products to send, full syncs and the checks for changes. Waiting includes what will be tried again; Failed counts what
        failed for good in the last 24 hours.
      </p>
    </section>
  );
}

/** Rows of the table under the chart: the latest syncs, each with its error. */
const TABLE_ROWS = 20;

function RecentSyncs({ integrationId }: { integrationId: number }) {
  const history = useSyncLogs(integrationId);
  if (history.isPending) return <Loading label="Reading the sync logs…" />;
  if (history.isError && !history.data) return <ErrorBanner error={history.error} onRetry={() => history.refetch()} />;
  const all = history.data!.sync_logs;
  const logs = all.slice(0, TABLE_ROWS);
  const series = bucketSyncs(all);
  return (
    <section aria-labelledby="syncs-h">
      <h2 id="syncs-h">Syncs in the last 48 hours</h2>
      {history.isError && <ErrorBanner error={history.error} onRetry={() => history.refetch()} />}
      {all.length === 0 ? (
        <Empty>No sync in the last 48 hours. Push products from the Mappings page, or start a full sync.</Empty>
      ) : (
        <>
          <SyncChart series={series} />
          {/* Focusable: on a phone a long error makes the table scroll sideways, and a keyboard must reach it too. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region is reached by keyboard (WCAG 2.1.1) */}
          <section className="table-wrap" tabIndex={0} aria-label="Latest syncs">
            <table>
              <caption className="visually-hidden">The latest {logs.length} sync logs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Products</th>
                  <th scope="col" className="bridge-hide-narrow">
                    Duration
                  </th>
                </tr>
              </thead>
              <tbody>
                {logs.map((log) => (
                  <tr key={log.id}>
                    <td>{formatWhen(log.started_at, '—', true)}</td>
                    <td>{operationName(log.operation)}</td>
                    <td>
                      <span className={`badge nowrap ${tone(log.status)}`}>{syncStatusWord(log.status)}</span>
                      {log.error && <div className="hint bridge-log-error">{log.error}</div>}
                    </td>
                    <td>
                      {log.records_processed.toLocaleString()}
                      {log.records_failed > 0 && <span className="bridge-failed-count">, {log.records_failed.toLocaleString()} failed</span>}
                    </td>
                    <td className="bridge-hide-narrow">{log.duration}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  );
}
