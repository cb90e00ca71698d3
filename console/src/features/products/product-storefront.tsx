// The inputs of what a Shopify product holds beyond the spec's fields: tags (typed one by one), texts with the
// search engines' length counted, and how a product without variants, or a variant, sells and ships (selling fields).
// The state and the body they send are product-model.ts's (sellingFormOf, sellingBody, addTags…).
import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { Field } from '../../components/field';
import {
  addTags,
  INVENTORY_POLICY_LABEL,
  type InventoryPolicy,
  removeTag,
  type SellingForm,
  seoCount,
  TRI_STATE_LABEL,
  type TriState,
  WEIGHT_UNIT_LABEL,
  WEIGHT_UNITS,
  type WeightUnit,
} from './product-model';

/** Tags as chips: typing and Enter (or a comma) adds one, × removes it, Backspace in the empty box takes the last back. */
export function TagInput({ tags, onChange, error }: { tags: string[]; onChange: (tags: string[]) => void; error: string | null }) {
  const id = useId();
  const [text, setText] = useState('');
  const commit = (value = text) => {
    if (value.trim()) onChange(addTags(tags, value));
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Backspace' && text === '' && tags.length > 0) {
      e.preventDefault();
      const last = tags[tags.length - 1];
      onChange(tags.slice(0, -1));
      setText(last);
    }
  };
  const described = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={`field product-tags-field${error ? ' invalid' : ''}`}>
      <label htmlFor={id}>Tags</label>
      <div className="product-tags">
        {tags.length > 0 && (
          <ul aria-label="Tags of this product">
            {tags.map((tag) => (
              <li key={tag} className="product-tag">
                <span>{tag}</span>
                <button type="button" onClick={() => onChange(removeTag(tags, tag))} aria-label={`Remove the tag ${tag}`} title="Remove">
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={id}
          value={text}
          onChange={(e) => {
            // A comma typed or pasted in ends the tags before it.
            const value = e.target.value;
            if (value.includes(',')) {
              const cut = value.lastIndexOf(',');
              onChange(addTags(tags, value.slice(0, cut)));
              setText(value.slice(cut + 1).trimStart());
            } else setText(value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => commit()}
          placeholder={tags.length ? 'Add another tag' : 'e.g. summer, linen'}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
        />
      </div>
      <small id={`${id}-hint`} className="hint">
        Press Enter or type a comma after each tag. {tags.length === 1 ? '1 tag' : `${tags.length} tags`}.
      </small>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** A text with its length counted against what search engines show (Shopify's admin does the same). */
export function CountedText({
  label,
  value,
  onChange,
  limit,
  maxLength,
  error,
  placeholder,
  blank,
  multiline,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  limit: number;
  maxLength: number;
  error: string | null;
  placeholder?: string;
  /** What the store shows when this is left blank. */
  blank: string;
  multiline?: boolean;
}) {
  const count = seoCount(value, limit);
  const hint = `${count.text}. ${blank}`;
  return (
    <Field label={label} error={error} hint={hint}>
      {multiline ? (
        <textarea value={value} onChange={(e) => onChange(e.target.value)} maxLength={maxLength} rows={3} placeholder={placeholder} />
      ) : (
        <input value={value} onChange={(e) => onChange(e.target.value)} maxLength={maxLength} autoComplete="off" placeholder={placeholder} />
      )}
    </Field>
  );
}

/** Yes / No / Not set (the store keeps its own). */
function TriSelect({
  label,
  value,
  onChange,
  error,
  hint,
}: {
  label: string;
  value: TriState;
  onChange: (v: TriState) => void;
  error?: string;
  hint?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      <select value={value} onChange={(e) => onChange(e.target.value as TriState)}>
        {(['yes', 'no', ''] as const).map((v) => (
          <option key={v} value={v}>
            {TRI_STATE_LABEL[v]}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A weight and its unit: one label for the number, the unit's select beside it. */
function WeightInput({
  weight,
  unit,
  onWeight,
  onUnit,
  error,
  unitError,
}: {
  weight: string;
  unit: WeightUnit;
  onWeight: (v: string) => void;
  onUnit: (v: WeightUnit) => void;
  error?: string;
  unitError?: string;
}) {
  const id = useId();
  const problem = error ?? unitError;
  return (
    <div className={`field${problem ? ' invalid' : ''}`}>
      <label htmlFor={id}>Weight</label>
      <div className="product-weight">
        <input
          id={id}
          value={weight}
          onChange={(e) => onWeight(e.target.value)}
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
        <select value={unit} onChange={(e) => onUnit(e.target.value as WeightUnit)} aria-label="Weight unit" aria-invalid={unitError ? true : undefined}>
          {WEIGHT_UNITS.map((u) => (
            <option key={u} value={u}>
              {WEIGHT_UNIT_LABEL[u]}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <small id={`${id}-error`} className="field-error">
          {problem}
        </small>
      )}
    </div>
  );
}

/**
 * Barcode, compare-at price, weight, and the stock, tax and shipping settings of a product without variants or of one
 * variant. `wrap` lays them out (a grid of the product form, a variant's "More" disclosure).
 */
export function SellingFields({
  form,
  set,
  errors,
  currency,
  settingsOnly = false,
  wrap = (children) => <div className="product-grid">{children}</div>,
}: {
  form: SellingForm;
  set: (form: SellingForm) => void;
  errors: Record<string, string>;
  currency: string;
  /** Only the stock, tax and shipping settings: the variants grid has the barcode, compare-at price and weight in its row. */
  settingsOnly?: boolean;
  wrap?: (children: ReactNode) => ReactNode;
}) {
  const put = <K extends keyof SellingForm>(key: K, value: SellingForm[K]) => set({ ...form, [key]: value });
  return wrap(
    <>
      {!settingsOnly && (
        <>
          <Field label="Barcode" error={errors.barcode} hint="ISBN, UPC, GTIN or your own code">
            <input value={form.barcode} onChange={(e) => put('barcode', e.target.value)} maxLength={255} autoComplete="off" spellCheck={false} />
          </Field>
          <Field label={`Compare-at price (${currency || '—'})`} error={errors.compare_at_price} hint="Shown crossed out beside the price">
            <input value={form.compare_at_price} onChange={(e) => put('compare_at_price', e.target.value)} inputMode="decimal" autoComplete="off" />
          </Field>
          <WeightInput
            weight={form.weight}
            unit={form.weight_unit}
            onWeight={(v) => put('weight', v)}
            onUnit={(v) => put('weight_unit', v)}
            error={errors.weight}
            unitError={errors.weight_unit}
          />
        </>
      )}
      {settingsOnly && (
        <Field label="Weight unit" error={errors.weight_unit}>
          <select value={form.weight_unit} onChange={(e) => put('weight_unit', e.target.value as WeightUnit)}>
            {WEIGHT_UNITS.map((u) => (
              <option key={u} value={u}>
                {WEIGHT_UNIT_LABEL[u]}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="When out of stock" error={errors.inventory_policy}>
        <select value={form.inventory_policy} onChange={(e) => put('inventory_policy', e.target.value as InventoryPolicy)}>
          {(['deny', 'continue', ''] as const).map((v) => (
            <option key={v} value={v}>
              {INVENTORY_POLICY_LABEL[v]}
            </option>
          ))}
        </select>
      </Field>
      <TriSelect label="Track quantity" value={form.inventory_tracked} onChange={(v) => put('inventory_tracked', v)} error={errors.inventory_tracked} />
      <TriSelect label="Charge tax" value={form.taxable} onChange={(v) => put('taxable', v)} error={errors.taxable} />
      <TriSelect label="Needs shipping" value={form.requires_shipping} onChange={(v) => put('requires_shipping', v)} error={errors.requires_shipping} />
    </>,
  );
}
