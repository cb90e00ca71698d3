// A product's history: each change with when, who and every field's old → new value, newest first, and "Restore this
// version" on the earlier ones (the product's details as they were right after that change; confirmed first).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { Pagination } from '../../components/pagination';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useBrands, useCategories, useSuppliers, useVatRates } from '../catalogue/api';
import { useProductHistory, useRestoreVersion } from './api';
import { productKeys } from './keys';
import type { Product } from './product-model';
import { ACTION_LABEL, changeLabel, changeText, type FieldChange, type HistoryNames, inFieldOrder, shortened, whoText } from './product-history-model';

export function ProductHistory({
  product,
  onRestored,
  confirm,
}: {
  product: Product;
  onRestored: () => void;
  confirm: (message: string, buttons?: { yes?: string; no?: string }) => Promise<boolean>;
}) {
  const ids = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState<string | null>(null);
  const history = useProductHistory(product.id, page);
  const restore = useRestoreVersion(product.id);
  const names = useHistoryNames();

  // The product changed (saved in a section, in another tab): its history has a new entry.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: productKeys.history(product.id) });
  }, [queryClient, product.id, product.updated_at]);

  const restoreTo = async (changeId: number, when: string) => {
    const ok = await confirm(
      `Restore the version of ${when}? The product's details (name, prices, status, categories, attributes…) go back to how they were right after that change. Variants, stock per warehouse, translations and images stay as they are; their changes stay listed here.`,
      { yes: 'Restore this version' },
    );
    if (!ok) return;
    setNotice(null);
    restore.mutate(changeId, {
      onSuccess: () => {
        setPage(1);
        setNotice(`The version of ${when} is restored.`);
        onRestored();
      },
    });
  };

  const data = history.data;
  return (
    <section className="card product-section product-history" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>History</h2>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={restore.error} />
      <ErrorBanner error={history.error} onRetry={() => history.refetch()} />
      {history.isPending && <Loading label="Loading the history…" />}
      {data && data.changes.length === 0 && <p className="hint">No changes recorded yet.</p>}
      {data && data.changes.length > 0 && (
        <ol className="history-list">
          {data.changes.map((change, index) => {
            const when = new Date(change.created_at).toLocaleString();
            const current = page === 1 && index === 0;
            return (
              <li key={change.id} className="history-entry">
                <p className="history-head">
                  <strong>{ACTION_LABEL[change.action] ?? change.action}</strong> <time dateTime={change.created_at}>{when}</time>
                  <span className="hint"> by {whoText(change.who)}</span>
                  {current && <span className="badge ok">Current version</span>}
                </p>
                <ul className="history-fields">
                  {inFieldOrder(change.changes).map((f) => (
                    <FieldLine key={`${f.field}|${f.variant_id ?? ''}|${f.warehouse ?? ''}`} change={f} created={change.action === 'created'} names={names} />
                  ))}
                </ul>
                {!current && (
                  <button type="button" className="button secondary small" disabled={restore.isPending} onClick={() => restoreTo(change.id, when)}>
                    {restore.isPending && restore.variables === change.id ? 'Restoring…' : 'Restore this version'}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {data && data.pagination.total_pages > 1 && (
        <Pagination page={page} totalPages={data.pagination.total_pages} totalItems={data.pagination.total_items} onPage={setPage} />
      )}
    </section>
  );
}

function FieldLine({ change, created, names }: { change: FieldChange; created: boolean; names: HistoryNames }) {
  const { before, after } = changeText(change, names, created);
  return (
    <li>
      <span className="history-field">{changeLabel(change)}:</span>{' '}
      {before !== null && (
        <>
          <span className="history-old" title={before}>
            {shortened(before)}
          </span>{' '}
          <span aria-hidden="true">→</span>
          <span className="visually-hidden">changed to</span>{' '}
        </>
      )}
      <span className="history-new" title={after}>
        {shortened(after)}
      </span>
    </li>
  );
}

/** The names of the ids a history shows (the catalogue's own reads, shared with the editor). */
function useHistoryNames(): HistoryNames {
  const brands = useBrands();
  const suppliers = useSuppliers();
  const vatRates = useVatRates();
  const categories = useCategories();
  return useMemo(
    () => ({
      brands: new Map((brands.data ?? []).map((b) => [b.id, b.name])),
      suppliers: new Map((suppliers.data ?? []).map((s) => [s.id, s.name])),
      vatRates: new Map((vatRates.data ?? []).map((v) => [v.id, `${v.name} (${v.country_code})`])),
      categories: new Map((categories.data ?? []).map((c) => [c.id, c.label])),
    }),
    [brands.data, suppliers.data, vatRates.data, categories.data],
  );
}
