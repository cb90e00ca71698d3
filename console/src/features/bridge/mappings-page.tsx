// /bridge/:integrationId/mappings: which PIM product is which shop product, and whether its last push worked
// (GET /api/products/mappings, filtered by ?status=, paged by ?page=). Each product can be pushed again; every
// mapping in error can be pushed again at once (read page by page, pushed PUSH_BATCH at a time, after a confirmation).
// Before a push, a preview (the push's dry run) shows what it would change: per product, or for every mapping in error.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, bridge } from '../../api/client';
import { messageOf, unwrap } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Field } from '../../components/field';
import { Pagination } from '../../components/pagination';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import {
  collectProductIds,
  formatWhen,
  isMappingStatus,
  MAPPING_STATUSES,
  MAPPINGS_PAGE_MAX,
  type MappingStatus,
  mappingStatusWord,
  PUSH_BATCH,
  tone,
} from './bridge-data';
import { type PreviewOutcome, PreviewOutcomeView, previewAll } from './bridge-preview';
import { type PushOutcome, PushOutcomeView, pushAll } from './bridge-push';
import { BridgeFrame, type IntegrationSummary, integrationsKey } from './bridge-shell';
import './bridge-pages.css';

const PAGE_SIZE = 20;

export default function BridgeMappingsPage() {
  return <BridgeFrame section="Mappings">{(integration) => <Mappings integration={integration} />}</BridgeFrame>;
}

async function readMappings(integrationId: number, status: MappingStatus | null, offset: number, limit: number) {
  const answer = await api.GET('/api/products/mappings', {
    headers: bridge(integrationId),
    params: { query: { limit, offset, ...(status ? { status } : {}) } },
  });
  return unwrap(answer).data;
}

function Mappings({ integration }: { integration: IntegrationSummary }) {
  const id = integration.id;
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status = isMappingStatus(rawStatus) ? rawStatus : null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();

  const mappings = useQuery({
    queryKey: ['bridge', id, 'mappings', status, page],
    queryFn: () => readMappings(id, status, (page - 1) * PAGE_SIZE, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  // The mappings carry ids only: the names come from the PIM, one call for the page.
  const pageIds = mappings.data?.mappings.map((m) => m.pim_product_id) ?? [];
  const names = useQuery({
    queryKey: ['bridge', 'product-names', pageIds],
    enabled: pageIds.length > 0,
    queryFn: async () => {
      const answer = unwrap(await api.GET('/api/products', { params: { query: { ids: pageIds.join(','), limit: 100, page: 1 } } }));
      return new Map(answer.data.products.map((p) => [p.id, { name: p.name, sku: p.sku }]));
    },
  });

  const [pushing, setPushing] = useState<number | 'collect' | 'all' | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<PushOutcome | null>(null);
  const [previewing, setPreviewing] = useState<number | 'failed' | null>(null);
  const [preview, setPreview] = useState<PreviewOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  const setQuery = (next: { status?: string | null; page?: number }) => {
    const p = new URLSearchParams(params);
    if ('status' in next) {
      if (next.status) p.set('status', next.status);
      else p.delete('status');
      p.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page > 1) p.set('page', String(next.page));
      else p.delete('page');
    }
    setParams(p);
  };

  // What a push changes: this integration's mappings and status, and its last sync in the list.
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['bridge', id] }), queryClient.invalidateQueries({ queryKey: integrationsKey })]);

  const pushOne = async (pimProductId: number) => {
    setPushing(pimProductId);
    setFailure(null);
    setOutcome(null);
    try {
      setOutcome(await pushAll(id, [pimProductId], `PIM product ${pimProductId}`));
    } finally {
      setPushing(null);
      await refresh();
    }
  };

  const previewOne = async (pimProductId: number) => {
    setPreviewing(pimProductId);
    setFailure(null);
    setPreview(null);
    try {
      setPreview(await previewAll(id, [pimProductId], `PIM product ${pimProductId}`));
    } finally {
      setPreviewing(null);
    }
  };

  const previewFailed = async () => {
    setFailure(null);
    setPreview(null);
    setPreviewing('failed');
    setProgress('Finding the products in error…');
    try {
      const ids = await collectProductIds((offset, limit) => readMappings(id, 'error', offset, limit), MAPPINGS_PAGE_MAX);
      const what = ids.length === 1 ? 'the 1 failed product' : `all ${ids.length} failed products`;
      setPreview(
        await previewAll(id, ids, what, (done, total) =>
          setProgress(total > 1 ? `Previewing batch ${done + 1} of ${total}…` : `Previewing ${ids.length} product${ids.length === 1 ? '' : 's'}…`),
        ),
      );
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setPreviewing(null);
      setProgress(null);
    }
  };

  const pushFailed = async () => {
    setFailure(null);
    setOutcome(null);
    setPushing('collect');
    setProgress('Finding the products in error…');
    try {
      const ids = await collectProductIds((offset, limit) => readMappings(id, 'error', offset, limit), MAPPINGS_PAGE_MAX);
      if (ids.length === 0) {
        setOutcome({ what: 'the failed products', messages: [], results: [], error: null, not_sent: 0 });
        return;
      }
      const batches = Math.ceil(ids.length / PUSH_BATCH);
      setProgress(null);
      const products = ids.length === 1 ? 'the 1 product' : `all ${ids.length} products`;
      const ok = await confirm(
        `Push ${products} in error to ${integration.shop_domain} again${batches > 1 ? ` (in ${batches} batches of at most ${PUSH_BATCH})` : ''}?`,
      );
      if (!ok) return;
      setPushing('all');
      const result = await pushAll(id, ids, ids.length === 1 ? 'the 1 failed product' : `all ${ids.length} failed products`, (done, total) =>
        setProgress(total > 1 ? `Pushing batch ${done + 1} of ${total}…` : `Pushing ${ids.length} product${ids.length === 1 ? '' : 's'}…`),
      );
      setOutcome(result);
      await refresh();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setPushing(null);
      setProgress(null);
    }
  };

  const data = mappings.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.pagination.total / PAGE_SIZE)) : 1;

  return (
    <>
      {dialog}
      <div className="bridge-toolbar">
        <Field label="Status">
          <select value={status ?? ''} onChange={(e) => setQuery({ status: e.target.value || null })}>
            <option value="">All</option>
            {MAPPING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {mappingStatusWord(s)}
              </option>
            ))}
          </select>
        </Field>
        <div className="actions">
          {progress && (
            <span role="status" className="hint">
              {progress}
            </span>
          )}
          <button type="button" className="button secondary" disabled={pushing !== null || previewing !== null} onClick={previewFailed}>
            {previewing === 'failed' ? 'Previewing…' : 'Preview failed'}
          </button>
          <button type="button" className="button primary" disabled={pushing !== null} onClick={pushFailed}>
            {pushing === 'all' ? 'Pushing…' : 'Push all failed'}
          </button>
        </div>
      </div>
      {failure && (
        <div role="alert" className="banner error">
          {failure}
        </div>
      )}
      {outcome && <PushOutcomeView outcome={outcome} onDismiss={() => setOutcome(null)} />}
      {preview && <PreviewOutcomeView outcome={preview} onDismiss={() => setPreview(null)} />}
      {mappings.isPending && <Loading label="Loading the mappings…" />}
      <ErrorBanner error={mappings.error} onRetry={() => mappings.refetch()} />
      {data && data.mappings.length === 0 && (
        <Empty>
          {data.pagination.total > 0 ? (
            <>
              Page {page} is past the last page ({totalPages}).{' '}
              <button type="button" className="button secondary small" onClick={() => setQuery({ page: 1 })}>
                Go to page 1
              </button>
            </>
          ) : status ? (
            <>
              No mapping is {mappingStatusWord(status).toLowerCase()}.{' '}
              <button type="button" className="button secondary small" onClick={() => setQuery({ status: null })}>
                Show all
              </button>
            </>
          ) : (
            'No product has been pushed to this shop yet. Start a full sync, or push products from the PIM.'
          )}
        </Empty>
      )}
      {data && data.mappings.length > 0 && (
        <>
          {names.isError && (
            <p role="alert" className="banner error">
              The product names could not be read from the PIM: {messageOf(names.error)}
            </p>
          )}
          <div className="table-wrap">
            <table aria-busy={mappings.isFetching}>
              <caption className="visually-hidden">
                Product mappings{status ? `, ${mappingStatusWord(status).toLowerCase()} only` : ''}, page {page} of {totalPages}
              </caption>
              <thead>
                <tr>
                  <th scope="col">PIM product</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="bridge-hide-narrow">
                    Shop product
                  </th>
                  <th scope="col" className="bridge-hide-narrow">
                    Last synced
                  </th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.mappings.map((m) => (
                  <Fragment key={m.id}>
                    <tr>
                      <td>
                        <Link to={`/products/${m.pim_product_id}`}>{names.data?.get(m.pim_product_id)?.name || `Product ${m.pim_product_id}`}</Link>
                        <div className="hint">
                          #{m.pim_product_id}
                          {names.data?.get(m.pim_product_id)?.sku ? ` · ${names.data.get(m.pim_product_id)!.sku}` : ''}
                          {names.data && !names.data.has(m.pim_product_id) ? ' · no longer in the PIM' : ''}
                        </div>
                      </td>
                      <td>
                        <span className={`badge ${tone(m.sync_status)}`}>{mappingStatusWord(m.sync_status)}</span>
                        {m.sync_error && <div className="bridge-error-text">{m.sync_error}</div>}
                      </td>
                      <td className="bridge-hide-narrow">{m.storefront_product_id ?? '—'}</td>
                      <td className="bridge-hide-narrow">{formatWhen(m.last_synced_at, 'never', true)}</td>
                      <td>
                        <div className="actions bridge-row-actions">
                          <button type="button" className="button secondary small" disabled={pushing !== null} onClick={() => pushOne(m.pim_product_id)}>
                            {pushing === m.pim_product_id ? 'Pushing…' : 'Push again'}
                            <span className="visually-hidden"> product {m.pim_product_id}</span>
                          </button>
                          <button type="button" className="button secondary small" disabled={previewing !== null} onClick={() => previewOne(m.pim_product_id)}>
                            {previewing === m.pim_product_id ? 'Previewing…' : 'Preview'}
                            <span className="visually-hidden"> a push of product {m.pim_product_id}</span>
                          </button>
                          <button
                            type="button"
                            className="button secondary small"
                            aria-expanded={open === m.pim_product_id}
                            aria-controls={`mapping-${m.id}`}
                            onClick={() => setOpen(open === m.pim_product_id ? null : m.pim_product_id)}
                          >
                            Details<span className="visually-hidden"> of product {m.pim_product_id}</span>
                          </button>
                        </div>
                      </td>
                    </tr>
                    {open === m.pim_product_id && (
                      <tr className="bridge-details" id={`mapping-${m.id}`}>
                        <td colSpan={5}>
                          <MappingDetails integrationId={id} pimProductId={m.pim_product_id} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} totalPages={totalPages} totalItems={data.pagination.total} onPage={(p) => setQuery({ page: p })} />
        </>
      )}
    </>
  );
}

/** GET /api/products/mapping/{pimProductId}: the shop's side of one product. */
function MappingDetails({ integrationId, pimProductId }: { integrationId: number; pimProductId: number }) {
  const mapping = useQuery({
    queryKey: ['bridge', integrationId, 'mapping', pimProductId],
    queryFn: async () =>
      unwrap(await api.GET('/api/products/mapping/{pimProductId}', { headers: bridge(integrationId), params: { path: { pimProductId } } })).data,
  });
  if (mapping.isPending) return <Loading label="Loading the shop's side…" />;
  if (mapping.isError) return <ErrorBanner error={mapping.error} onRetry={() => mapping.refetch()} />;
  const m = mapping.data;
  return (
    <dl className="bridge-facts">
      <dt>Title on the shop</dt>
      <dd>{m.metadata.storefront_title ?? '—'}</dd>
      <dt>Handle</dt>
      <dd>{m.metadata.storefront_handle ? <code>{m.metadata.storefront_handle}</code> : '—'}</dd>
      <dt>Shop product</dt>
      <dd>
        {m.storefront_product_id ?? '—'}
        {m.storefront_variant_id ? ` (first variant ${m.storefront_variant_id})` : ''}
      </dd>
      <dt>Variants, images</dt>
      <dd>
        {m.metadata.variant_count} variant{m.metadata.variant_count === 1 ? '' : 's'}, {m.metadata.image_count} image{m.metadata.image_count === 1 ? '' : 's'}
      </dd>
      <dt>Last push</dt>
      <dd>
        {m.metadata.last_push_method ? `${m.metadata.last_push_method}, ` : ''}
        {formatWhen(m.last_synced_at)}
      </dd>
      <dt>Mapped since</dt>
      <dd>{formatWhen(m.created_at)}</dd>
    </dl>
  );
}
