// The option matrix: up to three options with their values (Size: S, M, L; Colour: Navy, Oat) make every variant at
// once (POST /api/products/{id}/variants/options). Combinations the product has already are kept as they are, so the
// form can be used again to add a value later (a new size makes only the new size's variants).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { ErrorBanner, Notice } from '../../components/status';
import { productKeys } from './keys';

const MAX_OPTIONS = 3;

interface OptionDraft {
  name: string;
  values: string;
}

/** The values typed in one field, comma-separated, blanks dropped. */
export const splitValues = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export function ProductOptions({ productId, onMade }: { productId: number; onMade: () => void }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const [options, setOptions] = useState<OptionDraft[]>([{ name: 'Size', values: '' }]);
  const [problem, setProblem] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);

  const parsed = options.map((o) => ({ name: o.name.trim(), values: splitValues(o.values) })).filter((o) => o.name || o.values.length);
  const count = parsed.length ? parsed.reduce((n, o) => n * o.values.length, 1) : 0;

  const make = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/products/{id}/variants/options', { params: { path: { id: productId } }, body: { options: parsed } })).data,
    onSuccess: (result) => {
      const made = result.created.length;
      const kept = count - made;
      setNotice(
        made === 0
          ? 'Every combination is a variant already: nothing to add.'
          : `${made} ${made === 1 ? 'variant' : 'variants'} added${kept > 0 ? `; ${kept} existed already and were kept` : ''}.`,
      );
      setProblem(null);
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: productKeys.variants(productId) });
      onMade();
    },
    onError: (err) => {
      const named = fieldErrors(err);
      setErrors(named);
      setProblem(Object.keys(named).length ? null : err);
      setNotice(null);
    },
  });

  const set = (i: number, change: Partial<OptionDraft>) => setOptions((list) => list.map((o, j) => (j === i ? { ...o, ...change } : o)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = parsed.findIndex((o) => !o.name || !o.values.length);
    if (!parsed.length || missing >= 0) {
      setErrors({ [`options/${Math.max(missing, 0)}`]: 'Give each option a name and at least one value.' });
      return;
    }
    make.mutate();
  };

  return (
    <form className="card product-section product-options" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Options</h2>
      <p className="hint">Name up to three options and their values; every combination becomes a variant. Existing variants are kept.</p>
      {notice && <Notice>{notice}</Notice>}
      {problem ? <ErrorBanner error={problem} /> : null}
      {options.map((option, i) => (
        <div className="product-option-row" key={i}>
          <Field label={`Option ${i + 1}`} error={errors[`options/${i}/name`] ?? errors[`options/${i}`]}>
            <input value={option.name} onChange={(e) => set(i, { name: e.target.value })} placeholder="Size, Colour…" maxLength={100} />
          </Field>
          <Field label={`Values of option ${i + 1}`} hint="Separated by commas" error={errors[`options/${i}/values`]}>
            <input value={option.values} onChange={(e) => set(i, { values: e.target.value })} placeholder="S, M, L" />
          </Field>
          {options.length > 1 && (
            <button type="button" className="button secondary small" onClick={() => setOptions((list) => list.filter((_, j) => j !== i))}>
              Remove<span className="visually-hidden"> option {i + 1}</span>
            </button>
          )}
        </div>
      ))}
      <div className="actions">
        {options.length < MAX_OPTIONS && (
          <button type="button" className="button secondary" onClick={() => setOptions((list) => [...list, { name: '', values: '' }])}>
            Add another option
          </button>
        )}
        <button type="submit" className="button primary" disabled={make.isPending || count === 0}>
          {make.isPending ? 'Adding variants…' : count > 0 ? `Make ${count} ${count === 1 ? 'combination' : 'combinations'}` : 'Make variants'}
        </button>
      </div>
    </form>
  );
}
