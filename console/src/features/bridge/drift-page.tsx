// /bridge/:integrationId/drift: which products of the shop no longer hold what the bridge last wrote there. Starting a
// report (POST /api/drift; a read, so no confirmation) reads the whole shop in the background; the newest report (GET
// /api/drift) is read every second while it runs, then shows its counts and its items, paged (?page=) and filtered by
// kind (?kind=), each with its fields: the shop's value against the one the bridge wrote.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, bridge } from '../../api/client';
import { ApiError, messageOf, toApiError } from '../../api/errors';
import { Field } from '../../components/field';
import { Pagination } from '../../components/pagination';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { type DriftItem, type DriftKind, type DriftReport, type IntegrationSummary, isDriftOpen as isOpen, useDriftReport } from './api';
import { formatWhen, tone } from './bridge-data';
import { FieldTable } from './bridge-preview';
import { BridgeFrame, StartJobCard } from './bridge-shell';
import { bridgeKeys } from './keys';
import './bridge-pages.css';

const PAGE_SIZE = 20;
const POLL_MS = 1_000;

const KINDS: readonly DriftKind[] = ['changed', 'missing_in_shop', 'orphan_in_shop'];
type Kind = DriftKind;
const isKind = (value: string | null): value is Kind => KINDS.includes(value as Kind);
const KIND_WORDS: Record<Kind, string> = { changed: 'Changed in the shop', missing_in_shop: 'Missing in the shop', orphan_in_shop: 'Only in the shop' };
const KIND_TONES: Record<Kind, 'warn' | 'error'> = { changed: 'warn', missing_in_shop: 'error', orphan_in_shop: 'warn' };

const STATE_WORDS: Record<DriftReport['state'], string> = { queued: 'Queued', running: 'Reading the shop', completed: 'Completed', failed: 'Failed' };

export default function BridgeDriftPage() {
  return <BridgeFrame section="Drift">{(integration) => <Drift integration={integration} />}</BridgeFrame>;
}

function Drift({ integration }: { integration: IntegrationSummary }) {
  const id = integration.id;
  const [params, setParams] = useSearchParams();
  const rawKind = params.get('kind');
  const kind = isKind(rawKind) ? rawKind : null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const queryClient = useQueryClient();
  // The newest report; null when the shop has none yet (the server's 404 NOT_FOUND).
  const report = useDriftReport(id, kind, page, PAGE_SIZE, POLL_MS);

  const setQuery = (next: { kind?: string | null; page?: number }) => {
    const p = new URLSearchParams(params);
    if ('kind' in next) {
      if (next.kind) p.set('kind', next.kind);
      else p.delete('kind');
      p.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page > 1) p.set('page', String(next.page));
      else p.delete('page');
    }
    setParams(p);
  };

  // POST /api/drift: the notice to show (a report already running, 409 SYNC_IN_PROGRESS, is followed instead).
  const begin = useMutation({
    mutationFn: async () => {
      const answer = await api.POST('/api/drift', { headers: bridge(id) });
      if (answer.response.status === 409 && answer.error && 'code' in answer.error && answer.error.code === 'SYNC_IN_PROGRESS')
        return `${answer.error.message}: its progress is shown below.`;
      if (!answer.response.ok || !answer.data) throw toApiError(answer.error, answer.response);
      return 'Drift report started.';
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bridgeKeys.drift(id) }),
  });

  const start = () => {
    begin.reset();
    begin.mutate();
  };

  const r = report.data;
  const running = isOpen(r);
  const totalPages = r ? Math.max(1, Math.ceil(r.pagination.total / PAGE_SIZE)) : 1;

  return (
    <>
      <StartJobCard
        id="drift-start-h"
        title="Find what changed in the shop"
        onStart={start}
        starting={begin.isPending}
        running={running}
        labels={{ start: 'Start a drift report', running: 'Report running…' }}
        notice={begin.data ?? null}
        error={begin.error ? messageOf(begin.error) : null}
      >
        A drift report reads every product of {integration.shop_domain} and compares the fields the bridge owns with what it last wrote there: a title, price or
        status a merchant changed in Shopify, a product deleted in the shop, or one of ours no mapping knows. Nothing is written to the shop.
      </StartJobCard>

      <section aria-labelledby="drift-report-h">
        <h2 id="drift-report-h">{running ? 'Report in progress' : 'Last report'}</h2>
        {report.isPending && <Loading label="Reading the last drift report…" />}
        {report.error instanceof ApiError && report.error.status === 404 ? null : <ErrorBanner error={report.error} onRetry={() => report.refetch()} />}
        {report.isSuccess && r === null && <Empty>No drift report of this shop yet. Start one above.</Empty>}
        {r && <ReportSummary report={r} />}
        {r?.state === 'completed' && r.counts && (
          <>
            <div className="bridge-toolbar">
              <Field label="Kind">
                <select value={kind ?? ''} onChange={(e) => setQuery({ kind: e.target.value || null })}>
                  <option value="">All ({r.counts.changed + r.counts.missing_in_shop + r.counts.orphan_in_shop})</option>
                  {KINDS.map((k) => (
                    <option key={k} value={k}>
                      {KIND_WORDS[k]} ({r.counts![k]})
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            {r.items.length === 0 ? (
              <Empty>
                {r.pagination.total > 0 ? (
                  <>
                    Page {page} is past the last page ({totalPages}).{' '}
                    <button type="button" className="button secondary small" onClick={() => setQuery({ page: 1 })}>
                      Go to page 1
                    </button>
                  </>
                ) : kind ? (
                  `No product is ${KIND_WORDS[kind].toLowerCase()}.`
                ) : (
                  'No drift: every compared product holds what the bridge last wrote.'
                )}
              </Empty>
            ) : (
              <>
                <ul className="bridge-drift-items" aria-busy={report.isFetching}>
                  {r.items.map((item, i) => (
                    <DriftItemView key={`${item.kind}-${item.pim_product_id ?? 'x'}-${item.storefront_product_id ?? 'x'}-${i}`} item={item} />
                  ))}
                </ul>
                <Pagination page={page} totalPages={totalPages} totalItems={r.pagination.total} onPage={(p) => setQuery({ page: p })} />
              </>
            )}
          </>
        )}
      </section>
    </>
  );
}

function ReportSummary({ report: r }: { report: DriftReport }) {
  const open = isOpen(r);
  const c = r.counts;
  return (
    <div className="card bridge-section">
      <p className="bridge-sync-state">
        <span className={`badge ${tone(r.state)}`}>{STATE_WORDS[r.state]}</span>
      </p>
      {open && (
        <Loading
          label={
            r.state === 'queued'
              ? 'Waiting for a worker to start the report…'
              : `Reading the shop's products and comparing them${r.started_at ? ` (started ${formatWhen(r.started_at)})` : ''}…`
          }
        />
      )}
      {r.error && (
        <p role="alert" className="banner error">
          {r.error}
        </p>
      )}
      {c && (
        <ul className="bridge-counts bridge-drift-counts" aria-label="Counts">
          <li>
            <span className={`n${c.changed ? ' bad' : ''}`}>{c.changed.toLocaleString()}</span> changed in the shop
          </li>
          <li>
            <span className={`n${c.missing_in_shop ? ' bad' : ''}`}>{c.missing_in_shop.toLocaleString()}</span> missing in the shop
          </li>
          <li>
            <span className={`n${c.orphan_in_shop ? ' bad' : ''}`}>{c.orphan_in_shop.toLocaleString()}</span> only in the shop
          </li>
          <li>
            <span className="n">{c.compared.toLocaleString()}</span> compared of {c.mapped.toLocaleString()} mapped
          </li>
          <li>
            <span className="n">{c.not_compared.toLocaleString()}</span> not compared
          </li>
          <li>
            <span className="n">{c.shop_products.toLocaleString()}</span> products in the shop
          </li>
        </ul>
      )}
      {c && c.not_compared > 0 && (
        <p className="hint">Not compared: products in the shop with no record of what the bridge wrote (adopted and not pushed since). A push records it.</p>
      )}
      <dl className="bridge-facts">
        <dt>Requested</dt>
        <dd>{formatWhen(r.created_at, '—')}</dd>
        <dt>Started</dt>
        <dd>{formatWhen(r.started_at, 'not yet')}</dd>
        <dt>Finished</dt>
        <dd>{formatWhen(r.finished_at, open ? 'not yet' : '—')}</dd>
      </dl>
    </div>
  );
}

function DriftItemView({ item }: { item: DriftItem }) {
  const label = item.title ?? (item.handle ? item.handle : item.storefront_product_id !== null ? `Shop product ${item.storefront_product_id}` : 'A product');
  return (
    <li className="card">
      <p className="bridge-drift-head">
        <span className={`badge ${KIND_TONES[item.kind]}`}>{KIND_WORDS[item.kind]}</span>{' '}
        {item.pim_product_id !== null ? <Link to={`/products/${item.pim_product_id}`}>PIM product {item.pim_product_id}</Link> : <span>No PIM product</span>}
        <span className="hint">
          {' · '}
          {label}
          {item.handle && item.title ? (
            <>
              {' '}
              (<code>{item.handle}</code>)
            </>
          ) : null}
          {item.storefront_product_id !== null ? ` · shop product ${item.storefront_product_id}` : ''}
        </span>
      </p>
      {item.kind === 'changed' && item.fields.length > 0 && (
        <FieldTable
          caption={`Fields of PIM product ${item.pim_product_id} changed in the shop`}
          rows={item.fields.map((f) => ({ field: f.field, left: f.storefront, right: f.written }))}
          left="In the shop"
          right="Written by the bridge"
        />
      )}
      {item.kind === 'missing_in_shop' && <p className="hint">The shop no longer has this product: the next push of it creates it again.</p>}
      {item.kind === 'orphan_in_shop' && (
        <p className="hint">
          The shop product carries our PIM id, but no mapping names it
          {item.fields.length > 0 ? ': another shop product is mapped to that PIM product (a copy).' : '.'}
        </p>
      )}
    </li>
  );
}
