// The catalogue: one page of products at a time (25 or 50), searched and filtered on the server. Every filter and the
// page live in the URL, so reload, back and a page remembered through sign-in all come back to the same list. With a
// Shopify store connected, a column says where each product stands there, live (product-sync-states.tsx).
import { startTransition, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Field } from '../../components/field';
import { NamedOptions } from '../../components/named-options';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { useIntegrations } from '../bridge/api';
import { useSyncStates } from '../bridge/live';
import { useBrands, useCategories, useChannels } from '../catalogue/api';
import { CompletenessCell, CompletenessHeader } from '../completeness/completeness-cell';
import { useProductList } from './api';
import {
  CHANNELS,
  formatPrice,
  hasFilters,
  type ListFilters,
  listQuery,
  PER_PAGE,
  readFilters,
  STATUS_LABEL,
  STATUSES,
  statusTone,
  writeFilters,
} from './product-model';
import { SyncStatesCell } from './product-sync-states';
import './product-pages.css';

export default function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filters = readFilters(params);
  // Typing never waits for the list: the box has its own state, the URL (and so the request) follows 250 ms later.
  const [text, setText] = useState(filters.q);
  const pushed = useRef(filters.q);
  const update = (change: Partial<ListFilters>, replace = false) => {
    const next = writeFilters({ ...filters, page: 1, ...change });
    startTransition(() => setParams(next, { replace }));
  };

  useEffect(() => {
    // Back/forward or a cleared filter changed the URL's search: the box shows it.
    if (filters.q !== pushed.current) {
      pushed.current = filters.q;
      setText(filters.q);
    }
  }, [filters.q]);

  useEffect(() => {
    if (text === pushed.current) return;
    const timer = setTimeout(() => {
      pushed.current = text;
      update({ q: text }, true);
    }, 250);
    return () => clearTimeout(timer);
  });

  const query = listQuery(filters);
  const list = useProductList(query);
  const brands = useBrands();
  const channels = useChannels();
  const categories = useCategories();

  const data = list.data;
  const stale = list.isPlaceholderData;
  // The stores connected, and where this page's products stand in each (none: no column).
  const integrations = useIntegrations();
  const stores = integrations.data ?? [];
  const pageIds = data?.products.map((p) => p.id) ?? [];
  const states = useSyncStates(pageIds, stores.length > 0);
  const clear = () => {
    pushed.current = '';
    setText('');
    startTransition(() => setParams(writeFilters({ ...filters, q: '', status: '', brand: null, channel: '', category: null, page: 1 })));
  };
  const channelOptions = channels.data ?? CHANNELS.map((value) => ({ value, label: value, description: '' }));

  return (
    <Page
      title="Products"
      actions={
        <Link className="button primary" to="/products/new">
          New product
        </Link>
      }
    >
      <search aria-label="Find products">
        <form
          className="product-filters"
          onSubmit={(e) => {
            e.preventDefault();
            pushed.current = text;
            update({ q: text });
          }}
        >
          <Field label="Search">
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name, SKU or description" maxLength={200} />
          </Field>
          <Field label="Status">
            <select value={filters.status} onChange={(e) => update({ status: e.target.value as ListFilters['status'] })}>
              <option value="">Any status</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Brand" error={brands.error ? 'Brands could not be loaded' : null}>
            <select value={filters.brand ?? ''} onChange={(e) => update({ brand: e.target.value ? Number(e.target.value) : null })}>
              <NamedOptions none="Any brand" items={brands.data} />
            </select>
          </Field>
          <Field label="Channel">
            <select value={filters.channel} onChange={(e) => update({ channel: e.target.value as ListFilters['channel'] })}>
              <option value="">Any channel</option>
              {channelOptions.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Category" error={categories.error ? 'Categories could not be loaded' : null}>
            <select value={filters.category ?? ''} onChange={(e) => update({ category: e.target.value ? Number(e.target.value) : null })}>
              <option value="">Any category</option>
              {categories.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {'\u00a0\u00a0'.repeat(c.level)}
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Per page">
            <select value={filters.perPage} onChange={(e) => update({ perPage: Number(e.target.value) as ListFilters['perPage'] })}>
              {PER_PAGE.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Field>
        </form>
      </search>

      <ErrorBanner error={list.error} onRetry={() => list.refetch()} />

      {!data && list.isPending && <Loading label="Loading products…" />}

      {data && (
        <>
          <p className="product-count" role="status" aria-live="polite">
            {data.pagination.total_items.toLocaleString()} {data.pagination.total_items === 1 ? 'product' : 'products'}
            {stale && list.isFetching && <span className="hint"> · updating…</span>}
          </p>
          {data.products.length === 0 ? (
            <Empty>
              {hasFilters(filters) ? (
                <>
                  <p>No products match.</p>
                  <button type="button" className="button secondary" onClick={clear}>
                    Clear filters
                  </button>
                </>
              ) : (
                <>
                  <p>No products yet.</p>
                  <Link className="button primary" to="/products/new">
                    New product
                  </Link>
                </>
              )}
            </Empty>
          ) : (
            <div className={`table-wrap${stale ? ' product-stale' : ''}`} aria-busy={stale && list.isFetching}>
              <table className="product-table">
                <caption className="visually-hidden">
                  Products, page {data.pagination.current_page} of {Math.max(data.pagination.total_pages, 1)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">Image</span>
                    </th>
                    <th scope="col">Name</th>
                    <th scope="col">SKU</th>
                    <th scope="col" className="num">
                      Price
                    </th>
                    <th scope="col" className="num">
                      Stock
                    </th>
                    <th scope="col">Status</th>
                    {stores.length > 0 && <th scope="col">Shopify</th>}
                    <CompletenessHeader />
                  </tr>
                </thead>
                <tbody>
                  {data.products.map((p) => (
                    <tr key={p.id}>
                      <td className="product-thumb-cell">
                        {p.images[0] ? (
                          <img className="thumb" src={p.images[0]} alt="" loading="lazy" decoding="async" width={40} height={40} />
                        ) : (
                          <span className="thumb" aria-hidden="true" />
                        )}
                      </td>
                      <td>
                        <Link to={`/products/${p.id}`} state={{ list: location.search }} className="product-name">
                          {p.name}
                        </Link>
                        {p.brand && <small className="hint product-sub">{p.brand.name}</small>}
                      </td>
                      <td className="mono">{p.sku}</td>
                      <td className="num">
                        {p.sale_price ? (
                          <>
                            {formatPrice(p.sale_price, p.currency)}{' '}
                            <del className="hint">
                              <span className="visually-hidden">was </span>
                              {formatPrice(p.price, p.currency)}
                            </del>
                          </>
                        ) : (
                          formatPrice(p.price, p.currency)
                        )}
                      </td>
                      <td className="num">{p.stock.toLocaleString()}</td>
                      <td>
                        <span className={`badge ${statusTone(p.status)}`}>{STATUS_LABEL[p.status] ?? p.status}</span>
                      </td>
                      {stores.length > 0 && (
                        <td>
                          <SyncStatesCell productId={p.id} integrations={stores} states={states.data ?? (states.isError ? [] : undefined)} />
                        </td>
                      )}
                      <CompletenessCell productId={p.id} pageIds={pageIds} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {data.pagination.total_pages > 1 && (
            <Pagination
              page={data.pagination.current_page}
              totalPages={data.pagination.total_pages}
              totalItems={data.pagination.total_items}
              onPage={(page) => {
                startTransition(() => setParams(writeFilters({ ...filters, page })));
                document.getElementById('main')?.focus();
              }}
            />
          )}
        </>
      )}
    </Page>
  );
}
