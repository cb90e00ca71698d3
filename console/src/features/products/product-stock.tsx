// Stock per warehouse: one quantity per warehouse, saved together (PUT per changed warehouse); the product's stock is
// their sum. Without warehouses the product keeps a single stock number, set on the product itself.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useWarehouses } from '../catalogue/api';
import { useProductStock } from './api';
import { productKeys } from './keys';

const quantityProblem = (text: string) => (/^-?\d{1,10}$/.test(text.trim()) ? null : 'must be a whole number');

export function ProductStock({ productId, onChanged }: { productId: number; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const warehouses = useWarehouses();
  const key = productKeys.stock(productId);
  const stock = useProductStock(productId);
  // Edited quantities by warehouse id (or 0: the product's own stock); what is not here shows the stored level.
  const [edits, setEdits] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const stored = (warehouseId: number) => stock.data?.warehouse_stock.find((w) => w.warehouse_id === warehouseId)?.quantity ?? 0;
  const shown = (warehouseId: number) => edits[warehouseId] ?? String(warehouseId === 0 ? (stock.data?.stock ?? 0) : stored(warehouseId));

  const save = useMutation({
    mutationFn: async (changes: [number, number][]) => {
      for (const [warehouseId, quantity] of changes) {
        try {
          if (warehouseId === 0) unwrap(await api.PATCH('/api/products/{id}', { params: { path: { id: productId } }, body: { stock: quantity } }));
          else {
            const levels = unwrap(
              await api.PUT('/api/products/{id}/stock', { params: { path: { id: productId } }, body: { warehouse_id: warehouseId, quantity } }),
            );
            queryClient.setQueryData(key, levels.data);
          }
        } catch (err) {
          throw Object.assign(err as Error, { warehouseId });
        }
        setEdits(({ [warehouseId]: _, ...rest }) => rest);
      }
    },
    onSuccess: () => {
      setNotice('Stock saved.');
      setProblem(null);
      setErrors({});
    },
    onError: (err: Error & { warehouseId?: number }) => {
      const named = Object.values(fieldErrors(err))[0];
      if (err.warehouseId !== undefined) setErrors({ [err.warehouseId]: named ?? messageOf(err) });
      setProblem(`Not all of the stock was saved: ${messageOf(err)}`);
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: key });
      onChanged();
    },
  });

  const list = warehouses.data ?? [];
  const direct = warehouses.data !== undefined && list.length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const found: Record<number, string> = {};
    const changes: [number, number][] = [];
    for (const [id, text] of Object.entries(edits)) {
      const p = quantityProblem(text);
      if (p) found[Number(id)] = p;
      else if (Number(text) !== (Number(id) === 0 ? stock.data?.stock : stored(Number(id)))) changes.push([Number(id), Number(text)]);
    }
    setErrors(found);
    if (Object.keys(found).length) return setProblem('Not saved: correct the quantity marked below.');
    setProblem(null);
    if (changes.length === 0) return setNotice('Nothing has changed.');
    save.mutate(changes);
  };
  const edit = (id: number, value: string) => {
    setEdits((e) => ({ ...e, [id]: value }));
    setNotice(null);
  };

  return (
    <form className="card product-section" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Stock</h2>
      {notice && <Notice>{notice}</Notice>}
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
            In all: <strong>{stock.data.stock.toLocaleString()}</strong> {stock.data.in_stock ? '(in stock)' : '(out of stock)'}
          </p>
          {direct ? (
            <>
              <p className="hint">
                No warehouses are set up, so the product has one stock number. <Link to="/lists/warehouses">Add warehouses</Link> to keep stock per warehouse.
              </p>
              <Field label="Stock" error={errors[0]}>
                <input className="product-short" inputMode="numeric" value={shown(0)} onChange={(e) => edit(0, e.target.value)} />
              </Field>
            </>
          ) : (
            <div className="product-grid">
              {list.map((w) => (
                <Field key={w.id} label={`${w.name} (${w.code})`} error={errors[w.id]}>
                  <input inputMode="numeric" value={shown(w.id)} onChange={(e) => edit(w.id, e.target.value)} />
                </Field>
              ))}
            </div>
          )}
          <button type="submit" className="button primary" disabled={save.isPending || Object.keys(edits).length === 0}>
            {save.isPending ? 'Saving…' : 'Save stock'}
          </button>
        </>
      )}
    </form>
  );
}
