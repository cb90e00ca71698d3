// The catalogue as a workbench: one page of products at a time (25 or 50), searched, filtered and sorted on the
// server. Every filter, the sort and the page live in the URL, so reload, back and a page remembered through sign-in
// all come back to the same list. Rows are selected across pages (or every product that matches) for a bulk action
// with Undo (product-bulk-bar.tsx) or the bulk-edit grid (product-grid.tsx); views save filters, columns and sort
// (product-views.tsx). With a Shopify store connected, a column says where each product stands there, live.
import { startTransition, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { UnsavedChangesScope } from '../../components/unsaved-changes';
import { useIntegrations } from '../bridge/api';
import { useSyncStates } from '../bridge/live';
import { useProductList } from './api';
import { BulkBar, type Selection } from './product-bulk-bar';
import { DEFAULT_COLUMNS, OPTIONAL_COLUMNS } from './product-columns';
import { ProductFilters } from './product-filters';
import { ProductGrid } from './product-grid';
import { hasFilters, type ListFilters, listQuery, readFilters, writeFilters } from './product-model';
import { ProductTable } from './product-table';
import { type SavedView, viewFilters, ViewsMenu } from './product-views';
import { useGridProducts } from './workbench-api';
import './product-pages.css';

const NONE: Selection = { all: false, ids: new Set() };

export default function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filters = readFilters(params);
  // Typing never waits for the list: the box has its own state, the URL (and so the request) follows 250 ms later.
  const [text, setText] = useState(filters.q);
  const pushed = useRef(filters.q);
  const [selection, setSelection] = useState<Selection>(NONE);
  const [columns, setColumns] = useState<string[]>(DEFAULT_COLUMNS);
  const [gridIds, setGridIds] = useState<number[] | null>(null);
  const update = (change: Partial<ListFilters>, replace = false) => {
    const next = writeFilters({ ...filters, page: 1, ...change });
    startTransition(() => setParams(next, { replace }));
  };
  const filterKey = JSON.stringify(viewFilters(filters));

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

  // Other filters, other products: "every product that matches" no longer means the same ones.
  useEffect(() => setSelection((s) => (s.all ? NONE : s)), [filterKey]);

  const list = useProductList(listQuery(filters));
  const data = list.data;
  const stale = list.isPlaceholderData;
  const integrations = useIntegrations();
  const stores = integrations.data ?? [];
  const pageIds = data?.products.map((p) => p.id) ?? [];
  const states = useSyncStates(pageIds, stores.length > 0);
  const grid = useGridProducts(gridIds);
  const clear = () => {
    pushed.current = '';
    setText('');
    startTransition(() => setParams(writeFilters({ ...filters, q: '', status: '', brand: null, channel: '', category: null, page: 1 })));
  };
  const select = (ids: number[], on: boolean) =>
    setSelection((s) => {
      const next = new Set(s.ids);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return { all: false, ids: next };
    });
  const applyView = (view: SavedView) => {
    const f = view.filters;
    setColumns(view.columns);
    startTransition(() =>
      setParams(
        writeFilters({
          ...filters,
          q: f.search ?? '',
          status: f.status ?? '',
          brand: f.brand ?? null,
          channel: f.channel ?? '',
          category: f.category ?? null,
          sort: view.sort ?? '',
          page: 1,
        }),
      ),
    );
  };
  const total = data?.pagination.total_items ?? 0;
  const selectedCount = selection.all ? total : selection.ids.size;

  if (gridIds !== null) {
    return (
      <Page title="Edit products">
        <UnsavedChangesScope>
          <ErrorBanner error={grid.error} onRetry={() => grid.refetch()} />
          {grid.isPending && <Loading label="Loading products…" />}
          {grid.data && <ProductGrid products={grid.data} onClose={() => setGridIds(null)} />}
        </UnsavedChangesScope>
      </Page>
    );
  }

  return (
    <Page
      title="Products"
      actions={
        <Link className="button primary" to="/products/new">
          New product
        </Link>
      }
    >
      <ProductFilters
        filters={filters}
        text={text}
        onText={setText}
        onSubmit={() => {
          pushed.current = text;
          update({ q: text });
        }}
        update={update}
      />
      <div className="workbench-tools">
        <ViewsMenu filters={filters} columns={columns} onApply={applyView} />
        <details className="column-picker">
          <summary className="column-picker-summary">Columns</summary>
          <fieldset>
            <legend className="visually-hidden">Columns shown</legend>
            {OPTIONAL_COLUMNS.map((c) => (
              <label key={c.id}>
                <input
                  type="checkbox"
                  checked={columns.includes(c.id)}
                  onChange={(e) =>
                    setColumns((cols) =>
                      e.target.checked ? DEFAULT_COLUMNS.filter((id) => id === c.id || cols.includes(id)) : cols.filter((id) => id !== c.id),
                    )
                  }
                />{' '}
                {c.label}
              </label>
            ))}
          </fieldset>
        </details>
      </div>

      <ErrorBanner error={list.error} onRetry={() => list.refetch()} />

      {!data && list.isPending && <Loading label="Loading products…" />}

      {data && (
        <>
          <div className="product-count-row">
            <p className="product-count" role="status" aria-live="polite">
              {total.toLocaleString()} {total === 1 ? 'product' : 'products'}
              {stale && list.isFetching && <span className="hint"> · updating…</span>}
            </p>
            {total > 0 && !selection.all && (
              <button type="button" className="button link" onClick={() => setSelection({ all: true, ids: new Set() })}>
                Select all {total.toLocaleString()} matching
              </button>
            )}
            {data.products.length > 0 && (
              <button
                type="button"
                className="button secondary"
                onClick={() => setGridIds(!selection.all && selection.ids.size > 0 ? [...selection.ids].slice(0, 100) : data.products.map((p) => p.id))}
              >
                {!selection.all && selection.ids.size > 0 ? `Edit ${Math.min(selection.ids.size, 100)} selected in a grid` : 'Edit this page in a grid'}
              </button>
            )}
          </div>
          {selectedCount > 0 && (
            <BulkBar selection={selection} total={total} filter={viewFilters(filters)} stores={stores} onClear={() => setSelection(NONE)} />
          )}
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
              <ProductTable
                products={data.products}
                caption={`Products, page ${data.pagination.current_page} of ${Math.max(data.pagination.total_pages, 1)}`}
                columns={columns}
                sort={filters.sort}
                onSort={(sort) => update({ sort })}
                selection={selection}
                onSelect={select}
                ctx={{ listSearch: location.search, stores, states: states.data ?? (states.isError ? [] : undefined), pageIds }}
              />
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
