// A product's variants in their order: each one edited and saved on its own (PATCH), enabled or disabled at once
// (optimistically: the switch answers before the server, and goes back if it refuses), moved up or down (the two
// neighbours swap positions), deleted after a confirmation; a new one added at the end (POST). Each variant's barcode,
// compare-at price, weight and its stock, tax and shipping settings wait behind "More" (the row stays one line wide).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useVariants } from './api';
import { productKeys } from './keys';
import {
  emptyVariantDraft,
  placeErrors,
  SELLING_KEYS,
  sellingSummary,
  swapPositions,
  VARIANT_KEYS,
  type Variant,
  type VariantDraft,
  variantBody,
  variantDraftOf,
} from './product-model';
import { SellingFields } from './product-storefront';

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
  const [problem, setProblem] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: key });
    // A variant's count, a new or deleted variant change the product's stock: the Stock section reads it again.
    queryClient.invalidateQueries({ queryKey: productKeys.stock(productId) });
    onChanged();
  };

  const toggle = useMutation({
    mutationFn: async ({ id, on }: { id: number; on: boolean }) =>
      unwrap(await api.PATCH('/api/products/{id}/variants/{variantId}', { params: { path: { id: productId, variantId: id } }, body: { is_enabled: on } })).data,
    onMutate: async ({ id, on }) => {
      // The switch moves at once; a read under way is dropped so it cannot put the old value back.
      const previous = queryClient.getQueryData<Variant[]>(key);
      queryClient.setQueryData<Variant[]>(key, (list) => list?.map((v) => (v.id === id ? { ...v, is_enabled: on } : v)));
      await queryClient.cancelQueries({ queryKey: key }, { revert: false });
      return { previous };
    },
    onError: (err, _, context) => {
      queryClient.setQueryData(key, context?.previous);
      setProblem(err);
    },
    onSuccess: (saved) => {
      setProblem(null);
      setNotice(`${saved.name} is ${saved.is_enabled ? 'enabled' : 'disabled'}.`);
    },
    onSettled: refresh,
  });

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
      setNotice(`Variant ${v.sku} deleted.`);
    },
    onError: setProblem,
    onSettled: refresh,
  });

  const ordered = [...(variants.data ?? [])].sort((a, b) => a.position - b.position || a.id - b.id);
  const busy = move.isPending || remove.isPending;

  return (
    <section className="card product-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Variants</h2>
      {notice && <Notice>{notice}</Notice>}
      {problem ? <ErrorBanner error={problem} /> : null}
      <ErrorBanner error={variants.error} onRetry={() => variants.refetch()} />
      {variants.isPending && <Loading label="Loading variants…" />}
      {variants.data && ordered.length === 0 && <p className="hint">This product has no variants.</p>}
      {ordered.length > 0 && (
        <ol className="product-variants">
          {ordered.map((v, i) => (
            <VariantRow
              key={v.id}
              variant={v}
              index={i}
              count={ordered.length}
              currency={currency}
              productId={productId}
              busy={busy}
              onSaved={(saved) => {
                setProblem(null);
                setNotice(`Variant ${saved.sku} saved.`);
                refresh();
              }}
              onToggle={(on) => toggle.mutate({ id: v.id, on })}
              onMove={(direction) => move.mutate({ id: v.id, direction })}
              onDelete={async () => {
                if (await confirm(`Delete the variant ${v.sku} (${v.name})?`)) remove.mutate(v);
              }}
            />
          ))}
        </ol>
      )}
      <NewVariant
        productId={productId}
        currency={currency}
        nextPosition={ordered.length ? Math.max(...ordered.map((v) => v.position)) + 1 : 0}
        onAdded={(v) => {
          setProblem(null);
          setNotice(`Variant ${v.sku} added.`);
          refresh();
        }}
      />
    </section>
  );
}

/**
 * A variant's form, the row's or the new one's: its draft, the problems the check here or the server found (beside
 * their fields, or one for the form), and the submit that sends what changed. `before`: the variant as saved (a PATCH
 * sends what differs from it, nothing when nothing does); null: a new variant (the whole draft is sent, and the form
 * empties once it is added).
 */
function useVariantForm(before: VariantDraft | null, send: (body: Record<string, unknown>) => Promise<Variant>, onSent: (v: Variant) => void) {
  const [draft, setDraft] = useState<VariantDraft>(before ?? emptyVariantDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  // The count saved elsewhere (the Stock section's levels) is taken in, unless it was edited here.
  const [seenStock, setSeenStock] = useState(before?.stock_quantity);
  if (before && before.stock_quantity !== seenStock) {
    setSeenStock(before.stock_quantity);
    if (draft.stock_quantity === seenStock) setDraft({ ...draft, stock_quantity: before.stock_quantity });
  }
  const save = useMutation({
    mutationFn: send,
    onSuccess: (saved) => {
      setDraft(before ? variantDraftOf(saved) : emptyVariantDraft());
      setErrors({});
      setProblem(null);
      onSent(saved);
    },
    onError: (err) => {
      const placed = placeErrors(fieldErrors(err), VARIANT_KEYS);
      setErrors(placed);
      setProblem(Object.keys(placed).length ? null : messageOf(err));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { body, errors: found } = variantBody(draft, before);
    setErrors(found);
    if (Object.keys(found).length === 0 && (before === null || Object.keys(body).length > 0)) save.mutate(body);
  };
  /** Back to the variant as saved. */
  const discard = () => {
    if (before) setDraft(before);
    setErrors({});
  };
  return { draft, setDraft, errors, problem, submit, discard, saving: save.isPending };
}

type VariantForm = ReturnType<typeof useVariantForm>;

/** The form's problem (one no field names), then its fields. */
function VariantFields({ form, currency, byWarehouse = false }: { form: VariantForm; currency: string; byWarehouse?: boolean }) {
  const { draft, setDraft: set, errors, problem } = form;
  const field = (k: Exclude<keyof VariantDraft, 'selling'>) => ({
    value: draft[k],
    onChange: (e: { target: { value: string } }) => set({ ...draft, [k]: e.target.value }),
  });
  // The rarely changed settings wait behind "More"; it opens by itself when one of them has a problem.
  const [open, setOpen] = useState(false);
  const moreInvalid = SELLING_KEYS.some((k) => errors[k]);
  const [wasInvalid, setWasInvalid] = useState(false);
  if (moreInvalid !== wasInvalid) {
    setWasInvalid(moreInvalid);
    if (moreInvalid) setOpen(true);
  }
  const summary = sellingSummary(draft.selling, currency);
  return (
    <>
      {problem && (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}
      <div className="product-variant-grid">
        <Field label="SKU" error={errors.sku}>
          <input {...field('sku')} maxLength={64} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Name" error={errors.name}>
          <input {...field('name')} maxLength={255} autoComplete="off" />
        </Field>
        <Field label={`Price (${currency})`} error={errors.price}>
          <input {...field('price')} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label={`Sale price (${currency})`} error={errors.sale_price}>
          <input {...field('sale_price')} inputMode="decimal" autoComplete="off" />
        </Field>
        {/* A variant with stock per warehouse has their sum: set in the Stock section, shown here. */}
        <Field label="Stock" error={errors.stock_quantity} hint={byWarehouse ? 'set in Stock' : undefined}>
          <input {...field('stock_quantity')} inputMode="numeric" autoComplete="off" readOnly={byWarehouse} />
        </Field>
        <Field label="Options" error={errors.attributes} hint="e.g. Size: M, Colour: Navy">
          <input {...field('options')} autoComplete="off" />
        </Field>
      </div>
      <details className="product-variant-more" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          More: barcode, weight, stock and tax settings
          {summary && <span className="hint"> ({summary})</span>}
        </summary>
        <SellingFields
          form={draft.selling}
          set={(selling) => set({ ...draft, selling })}
          errors={errors}
          currency={currency}
          wrap={(children) => (
            <>
              <p className="hint product-not-set">“Not set” leaves the store's own setting as it is.</p>
              <div className="product-variant-more-grid">{children}</div>
            </>
          )}
        />
      </details>
    </>
  );
}

function VariantRow({
  variant,
  index,
  count,
  currency,
  productId,
  busy,
  onSaved,
  onToggle,
  onMove,
  onDelete,
}: {
  variant: Variant;
  index: number;
  count: number;
  currency: string;
  productId: number;
  busy: boolean;
  onSaved: (v: Variant) => void;
  onToggle: (on: boolean) => void;
  onMove: (direction: -1 | 1) => void;
  onDelete: () => void;
}) {
  const before = variantDraftOf(variant);
  const form = useVariantForm(
    before,
    async (body) =>
      unwrap(await api.PATCH('/api/products/{id}/variants/{variantId}', { params: { path: { id: productId, variantId: variant.id } }, body })).data,
    onSaved,
  );
  const dirty = JSON.stringify(form.draft) !== JSON.stringify(before);
  useUnsavedChanges(dirty);
  const label = `${variant.sku}`;

  return (
    <li className={`product-variant${variant.is_enabled ? '' : ' disabled'}`}>
      <form onSubmit={form.submit} noValidate aria-label={`Variant ${label}`}>
        <div className="product-variant-head">
          <strong>
            {index + 1}. {variant.name}
          </strong>
          {!variant.is_enabled && <span className="badge">Disabled</span>}
          <label className="product-check">
            <input type="checkbox" checked={variant.is_enabled} onChange={(e) => onToggle(e.target.checked)} />
            <span>
              Enabled<span className="visually-hidden"> ({label})</span>
            </span>
          </label>
        </div>
        <VariantFields form={form} currency={currency} byWarehouse={(variant.warehouse_stock?.length ?? 0) > 0} />
        <div className="actions">
          <button type="submit" className="button primary small" disabled={!dirty || form.saving}>
            {form.saving ? 'Saving…' : 'Save'}
            <span className="visually-hidden"> variant {label}</span>
          </button>
          {dirty && (
            <button type="button" className="button secondary small" onClick={form.discard}>
              Discard<span className="visually-hidden"> changes to {label}</span>
            </button>
          )}
          <button type="button" className="button secondary small" disabled={busy || index === 0} onClick={() => onMove(-1)}>
            <span aria-hidden="true">↑ </span>Move up<span className="visually-hidden"> {label}</span>
          </button>
          <button type="button" className="button secondary small" disabled={busy || index === count - 1} onClick={() => onMove(1)}>
            <span aria-hidden="true">↓ </span>Move down<span className="visually-hidden"> {label}</span>
          </button>
          <button type="button" className="button danger small" disabled={busy} onClick={onDelete}>
            Delete<span className="visually-hidden"> variant {label}</span>
          </button>
        </div>
      </form>
    </li>
  );
}

function NewVariant({
  productId,
  currency,
  nextPosition,
  onAdded,
}: {
  productId: number;
  currency: string;
  nextPosition: number;
  onAdded: (v: Variant) => void;
}) {
  const form = useVariantForm(
    null,
    async (body) =>
      unwrap(
        await api.POST('/api/products/{id}/variants', {
          params: { path: { id: productId } },
          body: { ...(body as { sku: string; name: string }), position: nextPosition },
        }),
      ).data,
    onAdded,
  );
  return (
    <form className="product-variant-new" onSubmit={form.submit} noValidate aria-label="Add a variant">
      <h3>Add a variant</h3>
      <VariantFields form={form} currency={currency} />
      <button type="submit" className="button primary" disabled={form.saving}>
        {form.saving ? 'Adding…' : 'Add variant'}
      </button>
    </form>
  );
}
