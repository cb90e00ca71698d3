// Stock: a table of the product's variants (or the product itself, without variants) by warehouse, each cell a level,
// with totals per row, per warehouse and for the product; changed cells are saved by the page's save bar (one PUT
// each, after the details and the variants). Without warehouses each row keeps a single count, set on the product or
// the variant itself. Enter moves down a column (the last row's saves the page), Tab across; the totals follow what is
// typed.
import { SAVE_ORDER } from './product-model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { useSaveAll, useSaveSection } from '../../components/unsaved-changes';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { ErrorBanner, Loading } from '../../components/status';
import { useWarehouses } from '../catalogue/api';
import { useProductStock } from './api';
import { productKeys } from './keys';
import { cellKey, cellText, grandTotal, parseCellKey, pendingChanges, rowTotal, type StockRow, warehouseTotal } from './stock-model';

/** One changed cell saved: a level (product or variant), or a count kept without warehouses. */
async function saveCell(productId: number, key: string, quantity: number): Promise<void> {
  const { variantId, warehouseId } = parseCellKey(key);
  const id = { id: productId };
  if (variantId === null && warehouseId === 0) unwrap(await api.PATCH('/api/products/{id}', { params: { path: id }, body: { stock: quantity } }));
  else if (variantId === null) unwrap(await api.PUT('/api/products/{id}/stock', { params: { path: id }, body: { warehouse_id: warehouseId, quantity } }));
  else if (warehouseId === 0)
    unwrap(await api.PATCH('/api/products/{id}/variants/{variantId}', { params: { path: { ...id, variantId } }, body: { stock_quantity: quantity } }));
  else
    unwrap(
      await api.PUT('/api/products/{id}/variants/{variantId}/stock', {
        params: { path: { ...id, variantId } },
        body: { warehouse_id: warehouseId, quantity },
      }),
    );
}

export function ProductStock({ productId, onChanged }: { productId: number; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const warehouses = useWarehouses();
  const stock = useProductStock(productId);
  // Edited quantities by cell key; what is not here shows the stored quantity.
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const rows: StockRow[] = !stock.data
    ? []
    : stock.data.variants.length === 0
      ? [{ variantId: null, label: 'This product', count: stock.data.stock, levels: stock.data.warehouse_stock }]
      : stock.data.variants.map((v) => ({ variantId: v.variant_id, label: `${v.name} (${v.sku})`, count: v.stock_quantity, levels: v.warehouse_stock }));
  const list = warehouses.data ?? [];
  // Without warehouses: one column, each row's own count (warehouse id 0).
  const columns = list.length > 0 ? list.map((w) => ({ id: w.id, label: w.name, code: w.code })) : [{ id: 0, label: 'Stock', code: '' }];
  const warehouseIds = list.map((w) => w.id);

  const save = useMutation({
    mutationFn: async (changes: [string, number][]) => {
      for (const [key, quantity] of changes) {
        try {
          await saveCell(productId, key, quantity);
        } catch (err) {
          throw Object.assign(err as Error, { cell: key });
        }
        setEdits(({ [key]: _, ...rest }) => rest);
      }
    },
    onSuccess: () => {
      setProblem(null);
      setErrors({});
    },
    onError: (err: Error & { cell?: string }) => {
      const named = Object.values(fieldErrors(err))[0];
      if (err.cell !== undefined) setErrors({ [err.cell]: named ?? messageOf(err) });
      setProblem(`Not all of the stock was saved: ${messageOf(err)}`);
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: productKeys.stock(productId) });
      queryClient.invalidateQueries({ queryKey: productKeys.variants(productId) });
      onChanged();
    },
  });

  const pending = pendingChanges(rows, edits);
  useSaveSection(pending.changes.length > 0 || Object.keys(pending.problems).length > 0, {
    order: SAVE_ORDER.stock,
    check: () => {
      const { problems } = pendingChanges(rows, edits);
      setErrors(problems);
      setProblem(null);
      return Object.keys(problems).length === 0;
    },
    save: async () => {
      const { changes } = pendingChanges(rows, edits);
      return (
        changes.length === 0 ||
        save.mutateAsync(changes).then(
          () => true,
          () => false,
        )
      );
    },
    discard: () => {
      setEdits({});
      setErrors({});
      setProblem(null);
    },
  });
  const saveAll = useSaveAll();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveAll();
  };
  const edit = (key: string, value: string) => setEdits((e) => ({ ...e, [key]: value }));
  /** Enter moves to the same column of the next row; on the last row it saves (the form's own Enter). */
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, rowIndex: number, columnIndex: number) => {
    if (event.key !== 'Enter' || rowIndex === rows.length - 1) return;
    event.preventDefault();
    document.getElementById(`${ids}-${rowIndex + 1}-${columnIndex}`)?.focus();
  };

  return (
    <form className="card product-section" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Stock</h2>
      {problem && (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}
      <ErrorBanner error={stock.error ?? warehouses.error} onRetry={() => (stock.error ? stock.refetch() : warehouses.refetch())} />
      {(stock.isPending || warehouses.isPending) && <Loading label="Loading stock…" />}
      {stock.data && warehouses.data && (
        <>
          <p>
            In all: <strong>{grandTotal(rows, warehouseIds, edits).toLocaleString()}</strong> {stock.data.in_stock ? '(in stock)' : '(out of stock)'}
          </p>
          {list.length === 0 ? (
            <p className="hint">
              No warehouses are set up, so each {rows[0]?.variantId === null ? 'product' : 'variant'} has one stock number.{' '}
              <Link to="/lists/warehouses">Add warehouses</Link> to keep stock per warehouse.
            </p>
          ) : (
            rows.some((r) => r.variantId !== null) && (
              <p className="hint">
                The product's stock is the sum of its variants'. A variant without warehouse stock keeps its own number until you enter some.
              </p>
            )
          )}
          <div className="table-wrap stock-table">
            <table>
              <caption className="visually-hidden">Stock by {rows[0]?.variantId === null ? 'warehouse' : 'variant and warehouse'}</caption>
              <thead>
                <tr>
                  <th scope="col">{rows[0]?.variantId === null ? 'Product' : 'Variant'}</th>
                  {columns.map((c) => (
                    <th key={c.id} scope="col" className="number">
                      {c.label}
                      {c.code && <span className="hint"> {c.code}</span>}
                    </th>
                  ))}
                  {list.length > 0 && (
                    <th scope="col" className="number">
                      Total
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, r) => (
                  <tr key={row.variantId ?? 'p'}>
                    <th scope="row">{row.label}</th>
                    {columns.map((c, col) => {
                      const key = cellKey(row, c.id);
                      const error = errors[key];
                      return (
                        <td key={c.id} className="number">
                          <input
                            id={`${ids}-${r}-${col}`}
                            type="number"
                            inputMode="numeric"
                            step={1}
                            min={c.id === 0 ? undefined : 0}
                            aria-label={`${row.label}, ${c.id === 0 ? 'stock' : c.label}`}
                            aria-invalid={error ? true : undefined}
                            aria-describedby={error ? `${ids}-${r}-${col}-e` : undefined}
                            value={cellText(row, c.id, edits)}
                            onChange={(e) => edit(key, e.target.value)}
                            onKeyDown={(e) => onKeyDown(e, r, col)}
                          />
                          {error && (
                            <span id={`${ids}-${r}-${col}-e`} className="field-error">
                              {error}
                            </span>
                          )}
                        </td>
                      );
                    })}
                    {list.length > 0 && (
                      <td className="number" data-testid="row-total">
                        {rowTotal(row, warehouseIds, edits).toLocaleString()}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
              {list.length > 0 && (
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    {list.map((w) => (
                      <td key={w.id} className="number">
                        {warehouseTotal(rows, w.id, edits).toLocaleString()}
                      </td>
                    ))}
                    <td className="number">
                      <strong>{grandTotal(rows, warehouseIds, edits).toLocaleString()}</strong>
                    </td>
                  </tr>
                </tfoot>
              )}
            </table>
          </div>
        </>
      )}
    </form>
  );
}
