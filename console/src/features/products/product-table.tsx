// The product list's table: a checkbox per row and one for the page, the columns of product-columns.tsx (those the
// view shows), and headers that sort (press again for the other way).
import { ariaSort, type CellContext, type ListProduct, nextSort, PRODUCT_COLUMNS } from './product-columns';
import type { Selection } from './product-bulk-bar';

export function ProductTable({
  products,
  caption,
  columns,
  sort,
  onSort,
  selection,
  onSelect,
  ctx,
}: {
  products: ListProduct[];
  caption: string;
  columns: string[];
  sort: string;
  onSort: (sort: string) => void;
  selection: Selection;
  onSelect: (ids: number[], selected: boolean) => void;
  ctx: CellContext;
}) {
  const shown = PRODUCT_COLUMNS.filter((c) => (c.id === 'name' || columns.includes(c.id)) && (!c.when || c.when(ctx)));
  const isSelected = (id: number) => selection.all || selection.ids.has(id);
  const pageIds = products.map((p) => p.id);
  const wholePage = pageIds.length > 0 && pageIds.every(isSelected);
  return (
    <table className="product-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <input
              type="checkbox"
              aria-label="Select every product on this page"
              checked={wholePage}
              disabled={selection.all}
              onChange={(e) => onSelect(pageIds, e.target.checked)}
            />
          </th>
          {shown.map((c) => (
            <th key={c.id} scope="col" className={c.className === 'num' ? 'num' : undefined} aria-sort={ariaSort(sort, c.sort)}>
              {c.sort ? (
                <button type="button" className="sort-button" onClick={() => onSort(nextSort(sort, c.sort as string))}>
                  {c.label}
                  <span aria-hidden="true" className="sort-mark">
                    {sort === c.sort ? ' ▲' : sort === `-${c.sort}` ? ' ▼' : ''}
                  </span>
                </button>
              ) : c.hiddenLabel ? (
                <span className="visually-hidden">{c.label}</span>
              ) : (
                c.label
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {products.map((p) => (
          <tr key={p.id} className={isSelected(p.id) ? 'selected' : undefined}>
            <td className="select-cell">
              <input
                type="checkbox"
                aria-label={`Select ${p.name}`}
                checked={isSelected(p.id)}
                disabled={selection.all}
                onChange={(e) => onSelect([p.id], e.target.checked)}
              />
            </td>
            {shown.map((c) => (
              <td key={c.id} className={`col-${c.id}${c.className ? ` ${c.className}` : ''}`}>
                {c.cell(p, ctx)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
