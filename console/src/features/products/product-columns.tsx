// The product list's columns, in order: each its header, the sort key it orders by (if any) and its cell. A column is
// added by adding an entry here (the completeness column, the Shopify states); a saved view names the ones it shows.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { IntegrationSummary } from '../bridge/api';
import type { SyncState } from '../bridge/live-model';
import { CompletenessScore } from '../completeness/completeness-cell';
import { formatPrice, STATUS_LABEL, statusTone } from './product-model';
import { SyncStatesCell } from './product-sync-states';

export interface ListProduct {
  id: number;
  name: string;
  sku: string;
  price: string | null;
  sale_price: string | null;
  currency: string;
  stock: number;
  status: string;
  images: string[];
  brand: { name: string } | null;
}

/** What a cell may need beyond its product. */
export interface CellContext {
  /** The list's URL search, kept when a product is opened (its editor goes back to the same page). */
  listSearch: string;
  stores: IntegrationSummary[];
  states: SyncState[] | undefined;
  /** The page's product ids: the completeness column reads their scores in one call. */
  pageIds: readonly number[];
}

export interface ProductColumn {
  id: string;
  label: string;
  /** The label is for screen readers only (the image column). */
  hiddenLabel?: boolean;
  sort?: string;
  className?: string;
  /** Shown only when this holds (the Shopify column: a store connected). */
  when?: (ctx: CellContext) => boolean;
  cell: (p: ListProduct, ctx: CellContext) => ReactNode;
}

export const PRODUCT_COLUMNS: ProductColumn[] = [
  {
    id: 'image',
    label: 'Image',
    hiddenLabel: true,
    className: 'product-thumb-cell',
    cell: (p) =>
      p.images[0] ? (
        <img className="thumb" src={p.images[0]} alt="" loading="lazy" decoding="async" width={40} height={40} />
      ) : (
        <span className="thumb" aria-hidden="true" />
      ),
  },
  {
    id: 'name',
    label: 'Name',
    sort: 'name',
    cell: (p, ctx) => (
      <>
        <Link to={`/products/${p.id}`} state={{ list: ctx.listSearch }} className="product-name">
          {p.name}
        </Link>
        {p.brand && <small className="hint product-sub">{p.brand.name}</small>}
      </>
    ),
  },
  { id: 'sku', label: 'SKU', sort: 'sku', className: 'mono', cell: (p) => p.sku },
  {
    id: 'price',
    label: 'Price',
    sort: 'price',
    className: 'num',
    cell: (p) =>
      p.sale_price ? (
        <>
          {formatPrice(p.sale_price, p.currency)}{' '}
          <del className="hint">
            <span className="visually-hidden">was </span>
            {formatPrice(p.price, p.currency)}
          </del>
        </>
      ) : (
        formatPrice(p.price, p.currency)
      ),
  },
  { id: 'stock', label: 'Stock', sort: 'stock', className: 'num', cell: (p) => p.stock.toLocaleString() },
  {
    id: 'status',
    label: 'Status',
    sort: 'status',
    cell: (p) => <span className={`badge ${statusTone(p.status)}`}>{STATUS_LABEL[p.status] ?? p.status}</span>,
  },
  {
    id: 'shopify',
    label: 'Shopify',
    when: (ctx) => ctx.stores.length > 0,
    cell: (p, ctx) => <SyncStatesCell productId={p.id} integrations={ctx.stores} states={ctx.states} />,
  },
  { id: 'completeness', label: 'Complete', cell: (p, ctx) => <CompletenessScore productId={p.id} pageIds={ctx.pageIds} /> },
];

/** The columns a view may hide (the name always shows). */
export const OPTIONAL_COLUMNS = PRODUCT_COLUMNS.filter((c) => c.id !== 'name');
export const DEFAULT_COLUMNS = PRODUCT_COLUMNS.map((c) => c.id);

/** The next order when a column's header is pressed: up, then down, then up again. */
export const nextSort = (current: string, key: string) => (current === key ? `-${key}` : key);

export function ariaSort(current: string, key: string | undefined): 'ascending' | 'descending' | 'none' | undefined {
  if (!key) return undefined;
  return current === key ? 'ascending' : current === `-${key}` ? 'descending' : 'none';
}
