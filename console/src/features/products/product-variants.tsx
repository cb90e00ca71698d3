// A product's variants as one grid, edited like a spreadsheet and saved with the rest of the page by its save bar: the
// rows changed are sent (PATCH, only what changed), the rows added are created (POST) at the end. Moving a variant up
// or down (the two neighbours swap positions) and deleting one (after a confirmation) act at once. An edit survives the
// list being read again: it is kept by variant id until it is saved or discarded.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { useSaveSection } from '../../components/unsaved-changes';
import { ErrorBanner, Loading } from '../../components/status';
import { useVariants } from './api';
import { productKeys } from './keys';
import {
  emptyVariantDraft,
  placeErrors,
  SAVE_ORDER,
  swapPositions,
  VARIANT_KEYS,
  type Variant,
  type VariantDraft,
  variantBody,
  variantDraftOf,
} from './product-model';
import { type GridRow, VariantGrid } from './variant-grid';

export function ProductVariants({
  productId,
  currency,
  onChanged,
  confirm,
}: {
  productId: number;
  currency: string;
  onChanged: () => void;
  confirm: (message: string) => Promise<boolean>;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const key = productKeys.variants(productId);
  const variants = useVariants(productId);
  const [edits, setEdits] = useState<Record<number, VariantDraft>>({});
  const [added, setAdded] = useState<{ key: number; draft: VariantDraft }[]>([]);
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({});
  const [problem, setProblem] = useState<unknown>(null);
  const nextKey = useRef(1);
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: key });
    // A variant's count, a new or deleted variant change the product's stock: the Stock section reads it again.
    queryClient.invalidateQueries({ queryKey: productKeys.stock(productId) });
    onChanged();
  };

  const ordered = [...(variants.data ?? [])].sort((a, b) => a.position - b.position || a.id - b.id);
  const rows: GridRow[] = [
    ...ordered.map((v) => {
      const before = variantDraftOf(v);
      return { key: `v${v.id}`, variant: v, before, draft: edits[v.id] ?? before };
    }),
    ...added.map((a) => ({ key: `n${a.key}`, variant: null, before: null, draft: a.draft })),
  ];
  const changedRows = rows.filter((r) => r.before === null || JSON.stringify(r.draft) !== JSON.stringify(r.before));

  const edit = (row: GridRow, draft: VariantDraft) => {
    if (row.variant) setEdits((e) => ({ ...e, [row.variant!.id]: draft }));
    else setAdded((list) => list.map((a) => (`n${a.key}` === row.key ? { ...a, draft } : a)));
  };

  useSaveSection(changedRows.length > 0, {
    order: SAVE_ORDER.variants,
    check: () => {
      const found: Record<string, Record<string, string>> = {};
      for (const row of changedRows) {
        const problems = variantBody(row.draft, row.before).errors;
        if (Object.keys(problems).length) found[row.key] = problems;
      }
      setErrors(found);
      setProblem(null);
      return Object.keys(found).length === 0;
    },
    save: async () => {
      let position = ordered.length ? Math.max(...ordered.map((v) => v.position)) + 1 : 0;
      let current: GridRow | null = null;
      try {
        for (const row of changedRows) {
          current = row;
          const { body } = variantBody(row.draft, row.before);
          if (row.variant) {
            const variantId = row.variant.id;
            if (Object.keys(body).length)
              unwrap(await api.PATCH('/api/products/{id}/variants/{variantId}', { params: { path: { id: productId, variantId } }, body }));
            setEdits(({ [variantId]: _, ...rest }) => rest);
          } else {
            const made = { ...(body as { sku: string; name: string }), position: position++ };
            unwrap(await api.POST('/api/products/{id}/variants', { params: { path: { id: productId } }, body: made }));
            setAdded((list) => list.filter((a) => `n${a.key}` !== row.key));
          }
          setErrors(({ [row.key]: _, ...rest }) => rest);
        }
        return true;
      } catch (err) {
        failedRow(err, current);
        return false;
      } finally {
        refresh();
      }
    },
    discard: () => {
      setEdits({});
      setAdded([]);
      setErrors({});
      setProblem(null);
    },
  });

  /** The server's refusal, beside the fields of the row it was for, or for the grid. */
  function failedRow(err: unknown, row: GridRow | null) {
    const placed = placeErrors(fieldErrors(err), VARIANT_KEYS);
    if (row && Object.keys(placed).length) setErrors((e) => ({ ...e, [row.key]: placed }));
    else setProblem(messageOf(err));
  }

  const move = useMutation({
    mutationFn: async ({ id, direction }: { id: number; direction: -1 | 1 }) => {
      for (const change of swapPositions(variants.data ?? [], id, direction)) {
        unwrap(
          await api.PATCH('/api/products/{id}/variants/{variantId}', {
            params: { path: { id: productId, variantId: change.id } },
            body: { position: change.position },
          }),
        );
      }
    },
    onSuccess: () => setProblem(null),
    onError: setProblem,
    onSettled: refresh,
  });

  const remove = useMutation({
    mutationFn: async (v: Variant) =>
      unwrap(await api.DELETE('/api/products/{id}/variants/{variantId}', { params: { path: { id: productId, variantId: v.id } } })),
    onSuccess: (_, v) => {
      setProblem(null);
      setEdits(({ [v.id]: _, ...rest }) => rest);
    },
    onError: setProblem,
    onSettled: refresh,
  });

  return (
    <section className="card product-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Variants</h2>
      {problem ? <ErrorBanner error={problem} /> : null}
      <ErrorBanner error={variants.error} onRetry={() => variants.refetch()} />
      {variants.isPending && <Loading label="Loading variants…" />}
      {variants.data && rows.length === 0 && <p className="hint">This product has no variants: it sells as itself.</p>}
      {rows.length > 0 && (
        <VariantGrid
          rows={rows}
          errors={errors}
          currency={currency}
          busy={move.isPending || remove.isPending}
          onEdit={edit}
          onMove={(v, direction) => move.mutate({ id: v.id, direction })}
          onDelete={async (v) => {
            if (await confirm(`Delete the variant ${v.sku} (${v.name})? It is removed from the store at the next sync.`)) remove.mutate(v);
          }}
          onRemoveNew={(row) => setAdded((list) => list.filter((a) => `n${a.key}` !== row.key))}
        />
      )}
      <div className="actions">
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            const key = nextKey.current++;
            setAdded((list) => [...list, { key, draft: emptyVariantDraft() }]);
            requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[data-row-key="n${key}"] [data-field="sku"]`)?.focus());
          }}
        >
          Add a variant
        </button>
      </div>
    </section>
  );
}
