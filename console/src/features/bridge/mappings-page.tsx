// /bridge/:integrationId/mappings: which PIM product is which shop product, and whether its last push worked
// (GET /api/products/mappings, filtered by ?status=, paged by ?page=). Each product can be pushed again; every
// mapping in error can be pushed again at once (read page by page, pushed PUSH_BATCH at a time, after a confirmation).
// Before a push, a preview (the push's dry run) shows what it would change: per product, or for every mapping in error.
// Each row's status follows the server's stream of sync states (pending, syncing, synced or the error: live.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Field } from '../../components/field';
import { Pagination } from '../../components/pagination';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { useProductNames } from '../products/api';
import { bridgeChanged, type IntegrationSummary, readMappings, useMapping, useMappingsPage } from './api';
import { collectProductIds, formatWhen, isMappingStatus, MAPPING_STATUSES, MAPPINGS_PAGE_MAX, mappingStatusWord, PUSH_BATCH, tone } from './bridge-data';
import { PreviewOutcomeView, previewAll } from './bridge-preview';
import { PushOutcomeView, pushAll } from './bridge-push';
import { BridgeFrame } from './bridge-shell';
import './bridge-pages.css';

const PAGE_SIZE = 20;

export default function BridgeMappingsPage() {
  return <BridgeFrame section="Mappings">{(integration) => <Mappings integration={integration} />}</BridgeFrame>;
}

function Mappings({ integration }: { integration: IntegrationSummary }) {
  const id = integration.id;
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status = isMappingStatus(rawStatus) ? rawStatus : null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();

  const mappings = useMappingsPage(id, status, page, PAGE_SIZE);

  // The mappings carry ids only: the names come from the PIM, one call for the page.
  const pageIds = mappings.data?.mappings.map((m) => m.pim_product_id) ?? [];
  const names = useProductNames(pageIds);

  // What the buttons under way say ("Finding the products in error…", "Pushing batch 2 of 3…").
  const [progress, setProgress] = useState<string | null>(null);
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

  /** The ids of every mapping in error, read page by page. */
  const failedIds = () => collectProductIds((offset, limit) => readMappings(id, 'error', offset, limit), MAPPINGS_PAGE_MAX);

  // A push of one product (`target`: its id) or of every one in error ('failed', after a confirmation); its outcome is
  // the mutation's data. What it changes: this integration's mappings and status, and its last sync in the list.
  const push = useMutation({
    mutationFn: ({ target, ids, what }: { target: number | 'failed'; ids: number[]; what: string }) =>
      target === 'failed'
        ? pushAll(id, ids, what, (done, total) =>
            setProgress(total > 1 ? `Pushing batch ${done + 1} of ${total}…` : `Pushing ${ids.length} product${ids.length === 1 ? '' : 's'}…`),
          )
        : pushAll(id, ids, what),
    onSettled: (_outcome, _error, { target, ids }) => {
      if (target === 'failed') setProgress(null);
      if (ids.length > 0) void bridgeChanged(queryClient, id);
    },
  });
  // "Push all failed" first finds them, then asks; nothing is pushed while it does.
  const findFailed = useMutation({ mutationFn: failedIds });

  // A dry run of one product, or of every one in error (found first); nothing is written, nothing to read again.
  const preview = useMutation({
    mutationFn: async (target: number | 'failed') => {
      if (target !== 'failed') return previewAll(id, [target], `PIM product ${target}`);
      setProgress('Finding the products in error…');
      const ids = await failedIds();
      const what = ids.length === 1 ? 'the 1 failed product' : `all ${ids.length} failed products`;
      return previewAll(id, ids, what, (done, total) =>
        setProgress(total > 1 ? `Previewing batch ${done + 1} of ${total}…` : `Previewing ${ids.length} product${ids.length === 1 ? '' : 's'}…`),
      );
    },
    onSettled: (_outcome, _error, target) => {
      if (target === 'failed') setProgress(null);
    },
  });

  const pushFailed = async () => {
    push.reset();
    setProgress('Finding the products in error…');
    const ids = await findFailed.mutateAsync().catch(() => null);
    setProgress(null);
    if (ids === null) return; // findFailed.error says why
    if (ids.length === 0) {
      push.mutate({ target: 'failed', ids, what: 'the failed products' });
      return;
    }
    const batches = Math.ceil(ids.length / PUSH_BATCH);
    const products = ids.length === 1 ? 'the 1 product' : `all ${ids.length} products`;
    const ok = await confirm(
      `Push ${products} in error to ${integration.shop_domain} again${batches > 1 ? ` (in ${batches} batches of at most ${PUSH_BATCH})` : ''}?`,
    );
    if (ok) push.mutate({ target: 'failed', ids, what: ids.length === 1 ? 'the 1 failed product' : `all ${ids.length} failed products` });
  };

  // Under way: the push's or the preview's target; the failure shown is that of the last action started.
  const pushing = push.isPending ? push.variables.target : findFailed.isPending ? 'finding' : null;
  const previewing = preview.isPending ? preview.variables : null;
  const actions: { submittedAt: number; error: unknown }[] = [push, findFailed, preview];
  const latest = actions.reduce((a, b) => (b.submittedAt > a.submittedAt ? b : a));
  const failure = latest.error ? messageOf(latest.error) : null;
  const outcome = push.data;

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
          <button type="button" className="button secondary" disabled={pushing !== null || previewing !== null} onClick={() => preview.mutate('failed')}>
            {previewing === 'failed' ? 'Previewing…' : 'Preview failed'}
          </button>
          <button type="button" className="button primary" disabled={pushing !== null} onClick={pushFailed}>
            {pushing === 'failed' ? 'Pushing…' : 'Push all failed'}
          </button>
        </div>
      </div>
      {failure && (
        <div role="alert" className="banner error">
          {failure}
        </div>
      )}
      {outcome && <PushOutcomeView outcome={outcome} onDismiss={() => push.reset()} />}
      {preview.data && <PreviewOutcomeView outcome={preview.data} onDismiss={() => preview.reset()} />}
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
                          <button
                            type="button"
                            className="button secondary small"
                            disabled={pushing !== null}
                            onClick={() => push.mutate({ target: m.pim_product_id, ids: [m.pim_product_id], what: `PIM product ${m.pim_product_id}` })}
                          >
                            {pushing === m.pim_product_id ? 'Pushing…' : 'Push again'}
                            <span className="visually-hidden"> product {m.pim_product_id}</span>
                          </button>
                          <button
                            type="button"
                            className="button secondary small"
                            disabled={previewing !== null}
                            onClick={() => preview.mutate(m.pim_product_id)}
                          >
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
  const mapping = useMapping(integrationId, pimProductId);
  if (mapping.isPending) return <Loading label="Loading the shop's side…" />;
  if (mapping.isError) return <ErrorBanner error={mapping.error} onRetry={() => mapping.refetch()} />;
  const m = mapping.data;
  // Gone since the list was read (the product was deleted, or its mapping removed).
  if (m === null) return <p className="hint">Not pushed to this store yet.</p>;
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
