// /bridge/:integrationId/sync: a full sync of the whole catalogue to the shop. Starting one (POST /api/sync/full, after
// a confirmation) gives its id; its progress is read every second while it runs (GET /api/sync/full/{id}). The server
// has no "current or last full sync" route, so the id of the last one started here is kept in this browser; the sync
// logs of GET /api/status give the last finished one's outcome otherwise.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, bridge } from '../../api/client';
import { ApiError, messageOf, toApiError } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { ErrorBanner, Loading } from '../../components/status';
import { bridgeChanged, type FullSync, type IntegrationSummary, isSyncOpen as isOpen, useBridgeStatus, useFullSync } from './api';
import { formatWhen, progressText, syncStatusWord, tone } from './bridge-data';
import { BridgeFrame, StartJobCard } from './bridge-shell';
import { bridgeKeys } from './keys';
import './bridge-pages.css';

const POLL_MS = 1_000;

const storageKey = (integrationId: number) => `pimbridge.bridge.full-sync.${integrationId}`;

function remembered(integrationId: number): string | null {
  try {
    return window.localStorage.getItem(storageKey(integrationId));
  } catch {
    return null; // storage disabled: the page still works, it only forgets the sync on reload
  }
}

function remember(integrationId: number, syncId: string | null) {
  try {
    if (syncId) window.localStorage.setItem(storageKey(integrationId), syncId);
    else window.localStorage.removeItem(storageKey(integrationId));
  } catch {
    // storage disabled: see remembered()
  }
}

export default function BridgeSyncPage() {
  return <BridgeFrame section="Full sync">{(integration) => <FullSyncPanel integration={integration} />}</BridgeFrame>;
}

function FullSyncPanel({ integration }: { integration: IntegrationSummary }) {
  const id = integration.id;
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [syncId, setSyncId] = useState<string | null>(() => remembered(id));
  const sync = useFullSync(id, syncId, POLL_MS);
  const status = useBridgeStatus(id, false);

  // When the sync ends, what it changed is read again (health, logs, mappings).
  const wasOpen = useRef(false);
  useEffect(() => {
    const open = isOpen(sync.data);
    if (wasOpen.current && !open) void bridgeChanged(queryClient, id);
    wasOpen.current = open;
  }, [sync.data, id, queryClient]);

  // A sync the server no longer knows (another database, cleaned up) is forgotten.
  const gone = sync.error instanceof ApiError && sync.error.status === 404;
  useEffect(() => {
    if (gone) remember(id, null);
  }, [gone, id]);

  const follow = (s: FullSync) => {
    remember(id, s.id);
    queryClient.setQueryData(bridgeKeys.fullSync(id, s.id), s);
    setSyncId(s.id);
  };

  // POST /api/sync/full: the sync started, or the one already running (409 SYNC_IN_PROGRESS), which is followed instead.
  const begin = useMutation({
    mutationFn: async (): Promise<{ sync: FullSync; already: boolean }> => {
      const answer = await api.POST('/api/sync/full', { headers: bridge(id) });
      if (answer.response.status === 409 && answer.error && 'code' in answer.error && answer.error.code === 'SYNC_IN_PROGRESS') {
        const running = 'data' in answer.error ? (answer.error.data as FullSync | undefined) : undefined;
        if (running) return { sync: running, already: true };
        throw new Error(answer.error.message);
      }
      if (!answer.response.ok || !answer.data) throw toApiError(answer.error, answer.response);
      return { sync: answer.data.data as FullSync, already: false };
    },
    onSuccess: ({ sync }) => follow(sync),
  });
  const started = begin.data;
  const notice = started ? (started.already ? `A full sync was already ${started.sync.status}: its progress is shown below.` : 'Full sync started.') : null;

  const start = async () => {
    begin.reset();
    const ok = await confirm(
      `Sync every product of the catalogue to ${integration.shop_domain}? Products are created or updated on the shop; this can take a while for a large catalogue.`,
    );
    if (ok) begin.mutate();
  };

  const current = sync.data;
  const running = isOpen(current);
  const lastLog = status.data?.recent_syncs.find((s) => s.operation === 'products.full_sync');

  return (
    <>
      {dialog}
      <StartJobCard
        id="start-h"
        title="Sync the whole catalogue"
        onStart={start}
        starting={begin.isPending}
        running={running}
        labels={{ start: 'Start full sync', running: 'Full sync running…' }}
        notice={notice}
        error={begin.error ? messageOf(begin.error) : null}
      >
        A full sync sends every product of this organization's catalogue to {integration.shop_domain}: new products are created, the others updated. Day-to-day
        changes reach the shop by themselves; a full sync is for a first connection or after a large change.
      </StartJobCard>

      {syncId && (
        <section aria-labelledby="progress-h">
          <h2 id="progress-h">{running || !current ? 'Progress' : 'Last full sync started here'}</h2>
          {sync.isPending && <Loading label="Reading the sync's progress…" />}
          {gone ? (
            <p className="banner info">The last full sync started from this browser is no longer known to the server ({messageOf(sync.error)}).</p>
          ) : (
            <ErrorBanner error={sync.error} onRetry={() => sync.refetch()} />
          )}
          {current && <SyncProgress sync={current} integrationId={id} />}
        </section>
      )}

      <section aria-labelledby="last-h">
        <h2 id="last-h">Last full sync in the sync logs</h2>
        {status.isPending && <Loading label="Reading the sync logs…" />}
        <ErrorBanner error={status.error} onRetry={() => status.refetch()} />
        {status.data &&
          (lastLog ? (
            <dl className="bridge-facts card bridge-section">
              <dt>Outcome</dt>
              <dd>
                <span className={`badge ${tone(lastLog.status)}`}>{syncStatusWord(lastLog.status)}</span>
              </dd>
              <dt>Started</dt>
              <dd>{formatWhen(lastLog.started_at, '—')}</dd>
              <dt>Finished</dt>
              <dd>{formatWhen(lastLog.completed_at, 'not yet')}</dd>
              <dt>Products</dt>
              <dd>
                {lastLog.records_processed.toLocaleString()} processed, {lastLog.records_failed.toLocaleString()} failed
              </dd>
              <dt>Duration</dt>
              <dd>{lastLog.duration}</dd>
            </dl>
          ) : (
            <p className="hint">No full sync among the last {status.data.recent_syncs.length} sync logs.</p>
          ))}
      </section>
    </>
  );
}

function SyncProgress({ sync, integrationId }: { sync: FullSync; integrationId: number }) {
  const open = isOpen(sync);
  const text = progressText(sync);
  const percent = Math.max(0, Math.min(100, sync.progress));
  return (
    <div className="card bridge-section">
      <p className="bridge-sync-state">
        <span className={`badge ${tone(sync.status)}`}>
          {sync.status === 'completed' ? 'Completed' : sync.status === 'failed' ? 'Failed' : sync.status === 'running' ? 'Running' : 'Queued'}
        </span>{' '}
        {sync.mode && <span className="hint">{sync.mode === 'bulk' ? 'in bulk operations' : 'product by product'}</span>}
      </p>
      <div
        className="progress"
        role="progressbar"
        aria-label="Full sync progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%: ${text}`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="bridge-progress-text">
        {percent}% · {text}
        {open && sync.queued > 0 && ` · ${sync.queued.toLocaleString()} waiting`}
      </p>
      {sync.error && (
        <p role="alert" className="banner error">
          {sync.error}
        </p>
      )}
      <dl className="bridge-facts">
        <dt>Requested</dt>
        <dd>{formatWhen(sync.created_at, '—')}</dd>
        <dt>Started</dt>
        <dd>{formatWhen(sync.started_at, 'not yet')}</dd>
        <dt>Finished</dt>
        <dd>{formatWhen(sync.finished_at, open ? 'not yet' : '—')}</dd>
      </dl>
      {!open && sync.failed > 0 && (
        <p>
          <Link to={`/bridge/${integrationId}/mappings?status=error`}>
            {sync.failed === 1 ? 'See the product that failed' : `See the ${sync.failed.toLocaleString()} products that failed`}
          </Link>
        </p>
      )}
    </div>
  );
}
