// The product's own fields and attribute values. A new product is created (POST, its own button); an existing one is
// saved by the page's save bar, sending only what changed (PATCH). Problems found here or by the server are shown beside the field they name. Besides
// the spec's fields: what the Shopify store shows (tags, type, category, gift card, the search engine listing) and, for
// a product without variants, how it sells and ships (a product with variants sells as its variants).
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { NamedOptions } from '../../components/named-options';
import { useSaveAll, useSaveSection } from '../../components/unsaved-changes';
import { useBrands, useCategories, useChannels, useSuppliers, useVatRates } from '../catalogue/api';
import {
  type AttributeDefinition,
  CONDITIONS,
  emptyForm,
  formOf,
  type Product,
  type ProductForm,
  placeErrors,
  productBody,
  productKinds,
  SELLING_KEYS,
  SEO_DESCRIPTION_LIMIT,
  SEO_TITLE_LIMIT,
  STATUS_LABEL,
  STATUSES,
  SAVE_ORDER,
} from './product-model';
import { CountedText, SellingFields, TagInput } from './product-storefront';

/** The form's fields by the names the server gives their problems: each of `selling` by its own name. */
const FIELD_KEYS = Object.keys(emptyForm([])).flatMap((key) => (key === 'selling' ? SELLING_KEYS : [key]));

/** A description's text without its HTML, for the search engine listing's placeholder. */
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function ProductFields({
  product,
  definitions,
  hasVariants,
  defaultCurrency,
  onSaved,
}: {
  product: Product | null;
  definitions: AttributeDefinition[];
  /** Whether the product has variants (false for a new one); undefined while they load. */
  hasVariants: boolean | undefined;
  /** The organization's default currency: a new product's. */
  defaultCurrency?: string | null;
  onSaved: (product: Product, created: boolean) => void;
}) {
  const [before, setBefore] = useState<ProductForm | null>(() => (product ? formOf(product, definitions) : null));
  const [form, setForm] = useState<ProductForm>(() => before ?? emptyForm(definitions, defaultCurrency ?? undefined));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const brands = useBrands();
  const suppliers = useSuppliers();
  const vatRates = useVatRates();
  const channels = useChannels();
  const categories = useCategories();
  const ids = useId();

  const set = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
  };
  const setAttribute = (code: string, value: string | string[] | boolean) => {
    setForm((f) => ({ ...f, attributes: { ...f.attributes, [code]: value } }));
  };
  const known = [...FIELD_KEYS, ...definitions.map((d) => `attributes.${d.code}`)];

  const focusFirstError = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset.invalid input')?.focus());

  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      if (product) return unwrap(await api.PATCH('/api/products/{id}', { params: { path: { id: product.id } }, body })).data;
      return unwrap(await api.POST('/api/products', { body: body as { name: string; sku: string } })).data;
    },
    onSuccess: (saved) => {
      const next = formOf(saved, definitions);
      setBefore(next);
      setForm(next);
      setErrors({});
      setProblem(null);
      onSaved(saved, !product);
    },
    onError: (err) => {
      const placed = placeErrors(fieldErrors(err), known);
      setErrors(placed);
      setProblem(Object.keys(placed).length ? null : messageOf(err));
    },
  });

  /** The body to send, or null when the form has a problem (marked beside its field). */
  const check = () => {
    const { body, errors: found } = productBody(form, definitions, before);
    setErrors(found);
    setProblem(null);
    return Object.keys(found).length ? null : body;
  };

  const dirty = before ? JSON.stringify(form) !== JSON.stringify(before) : true;
  // What leaving the page would lose: an edit of the product, or anything typed into a new one. An existing product's
  // edit is saved by the page's save bar, with the page's other sections.
  const [untouched] = useState(() => JSON.stringify(form));
  useSaveSection(before ? dirty : JSON.stringify(form) !== untouched, {
    order: SAVE_ORDER.details,
    check: () => check() !== null,
    save: async () => {
      const body = check();
      if (body === null) return false;
      if (Object.keys(body).length === 0) return true;
      return save.mutateAsync(body).then(
        () => true,
        () => false,
      );
    },
    discard: () => {
      if (before) setForm(before);
      setErrors({});
      setProblem(null);
    },
  });
  const saveAll = useSaveAll();

  // Enter in a field: a new product is created; an existing one's page saves everything changed.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (product) return saveAll();
    const body = check();
    if (body === null) {
      setProblem('Not saved: correct the field marked below.');
      focusFirstError();
    } else save.mutate(body);
  };

  const err = (key: string) => errors[key] ?? null;
  const text = (key: 'sku' | 'name' | 'slug' | 'ean') => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  return (
    <form ref={formRef} className="card product-section" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Details</h2>
      {problem && (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}

      <div className="product-grid">
        <Field label="Name" error={err('name')}>
          <input {...text('name')} required maxLength={255} autoComplete="off" />
        </Field>
        <Field label="SKU" error={err('sku')}>
          <input {...text('sku')} required maxLength={64} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Slug" error={err('slug')} hint={product ? undefined : 'Left blank, made from the name'}>
          <input {...text('slug')} maxLength={255} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Kind of product" error={err('product_type')} hint="For the catalogue only; the store's own type is under “In the store”">
          <select value={form.product_type} onChange={(e) => set('product_type', e.target.value)}>
            {productKinds(form.product_type).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status" error={err('status')}>
          <select value={form.status} onChange={(e) => set('status', e.target.value as ProductForm['status'])}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Condition" error={err('product_condition')}>
          <select value={form.product_condition} onChange={(e) => set('product_condition', e.target.value)}>
            {CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {c[0].toUpperCase() + c.slice(1)}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <h3>Price</h3>
      <div className="product-grid">
        <Field label={`Price (${form.currency || '—'})`} error={err('price')}>
          <input value={form.price} onChange={(e) => set('price', e.target.value)} inputMode="decimal" autoComplete="off" placeholder="19.99" />
        </Field>
        <Field label={`Sale price (${form.currency || '—'})`} error={err('sale_price')}>
          <input value={form.sale_price} onChange={(e) => set('sale_price', e.target.value)} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label={`Cost price (${form.currency || '—'})`} error={err('cost_price')}>
          <input value={form.cost_price} onChange={(e) => set('cost_price', e.target.value)} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label="Currency" error={err('currency')} hint="Three letters, e.g. EUR">
          <input
            value={form.currency}
            onChange={(e) => set('currency', e.target.value.toUpperCase())}
            maxLength={3}
            autoComplete="off"
            spellCheck={false}
            className="product-short"
          />
        </Field>
        <Field label="VAT rate" error={err('vat_rate_id')}>
          <select value={form.vat_rate_id} onChange={(e) => set('vat_rate_id', e.target.value)}>
            <option value="">None</option>
            {vatRates.data?.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name} ({v.country_code}, {Number(v.rate)} %)
              </option>
            ))}
          </select>
        </Field>
        <Field label="EAN / barcode" error={err('ean')}>
          <input {...text('ean')} inputMode="numeric" maxLength={14} autoComplete="off" spellCheck={false} />
        </Field>
      </div>

      {hasVariants !== undefined && <h3>Selling and shipping</h3>}
      {hasVariants === false && (
        <>
          <p className="hint product-not-set">“Not set” leaves the store's own setting as it is.</p>
          <SellingFields form={form.selling} set={(selling) => set('selling', selling)} errors={errors} currency={form.currency} />
        </>
      )}
      {hasVariants === true && (
        <p className="hint">This product sells as its variants: the barcode, weight, stock and tax settings of each are under “More” in Variants below.</p>
      )}

      <h3>Texts</h3>
      <Field label="Short description" error={err('short_description')}>
        <textarea value={form.short_description} onChange={(e) => set('short_description', e.target.value)} maxLength={5000} rows={2} />
      </Field>
      <Field label="Description" error={err('description')} hint="HTML is allowed">
        <textarea value={form.description} onChange={(e) => set('description', e.target.value)} rows={6} />
      </Field>

      <h3>Organisation</h3>
      <div className="product-grid">
        <Field label="Brand" error={err('brand_id')}>
          <select value={form.brand_id} onChange={(e) => set('brand_id', e.target.value)}>
            <NamedOptions none="None" items={brands.data} />
          </select>
        </Field>
        <Field label="Supplier" error={err('supplier_id')}>
          <select value={form.supplier_id} onChange={(e) => set('supplier_id', e.target.value)}>
            <NamedOptions none="None" items={suppliers.data} />
          </select>
        </Field>
      </div>

      <div className="product-grid">
        <CheckGroup
          legend="Publishing channels"
          error={err('publishing_channels')}
          options={(channels.data ?? []).map((c) => ({ value: c.value, label: c.label, hint: c.description }))}
          selected={form.publishing_channels}
          onChange={(v) => set('publishing_channels', v)}
        />
        <CheckGroup
          legend="Categories"
          error={err('category_ids')}
          options={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name, level: c.level }))}
          selected={form.category_ids.map(String)}
          onChange={(v) => set('category_ids', v.map(Number))}
          scroll
          empty="No categories yet."
        />
      </div>

      <h3>In the store</h3>
      <TagInput tags={form.tags} onChange={(tags) => set('tags', tags)} error={err('tags')} />
      <div className="product-grid">
        <Field label="Type in the store" error={err('storefront_type')} hint="Shopify's product type, e.g. Jackets">
          <input value={form.storefront_type} onChange={(e) => set('storefront_type', e.target.value)} maxLength={255} autoComplete="off" />
        </Field>
        <div className="product-wide">
          <Field
            label="Shopify product category"
            error={err('taxonomy_category')}
            hint="Its full name or id in Shopify's category list, e.g. Apparel & Accessories > Clothing > Shirts"
          >
            <input value={form.taxonomy_category} onChange={(e) => set('taxonomy_category', e.target.value)} maxLength={255} autoComplete="off" />
          </Field>
        </div>
      </div>
      <div className={`field checkbox-field${err('gift_card') ? ' invalid' : ''}`}>
        <label>
          <input type="checkbox" checked={form.gift_card} onChange={(e) => set('gift_card', e.target.checked)} /> This product is a gift card
        </label>
        {err('gift_card') && <small className="field-error">{err('gift_card')}</small>}
      </div>

      <h3>Search engine listing</h3>
      <CountedText
        label="Page title"
        value={form.seo_title}
        onChange={(v) => set('seo_title', v)}
        limit={SEO_TITLE_LIMIT}
        maxLength={255}
        error={err('seo_title')}
        placeholder={form.name}
        blank="Left blank, the store uses the product name."
      />
      <CountedText
        label="Meta description"
        value={form.seo_description}
        onChange={(v) => set('seo_description', v)}
        limit={SEO_DESCRIPTION_LIMIT}
        maxLength={5000}
        error={err('seo_description')}
        placeholder={plainText(form.short_description || form.description).slice(0, SEO_DESCRIPTION_LIMIT)}
        blank="Left blank, the store uses the description."
        multiline
      />

      {definitions.length > 0 && (
        <>
          <h3>Attributes</h3>
          <div className="product-grid">
            {definitions.map((def) => (
              <AttributeInput
                key={def.code}
                def={def}
                value={form.attributes[def.code]}
                error={err(`attributes.${def.code}`)}
                onChange={(v) => setAttribute(def.code, v)}
              />
            ))}
          </div>
        </>
      )}

      {!product && (
        <div className="actions product-save">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? 'Creating…' : 'Create product'}
          </button>
        </div>
      )}
    </form>
  );
}

function CheckGroup({
  legend,
  error,
  options,
  selected,
  onChange,
  scroll,
  empty,
}: {
  legend: string;
  error: string | null;
  options: { value: string; label: string; hint?: string; level?: number }[];
  selected: string[];
  onChange: (values: string[]) => void;
  scroll?: boolean;
  empty?: string;
}) {
  const id = useId();
  const toggle = (value: string, on: boolean) => onChange(on ? [...selected, value] : selected.filter((v) => v !== value));
  return (
    <fieldset className={`product-checks${error ? ' invalid' : ''}`} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className={scroll ? 'product-checks-scroll' : undefined}>
        {options.length === 0 && empty && <p className="hint">{empty}</p>}
        {options.map((o) => (
          <label key={o.value} className="product-check" style={o.level ? { paddingInlineStart: `${o.level * 1.25}rem` } : undefined}>
            <input type="checkbox" checked={selected.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

function AttributeInput({
  def,
  value,
  error,
  onChange,
}: {
  def: AttributeDefinition;
  value: string | string[] | boolean | undefined;
  error: string | null;
  onChange: (value: string | string[] | boolean) => void;
}) {
  const label = `${def.name}${def.is_required ? ' (required)' : ''}`;
  switch (def.type) {
    case 'boolean':
      return (
        <Field label={label} error={error}>
          <select value={value === true ? 'yes' : 'no'} onChange={(e) => onChange(e.target.value === 'yes')}>
            <option value="no">No</option>
            <option value="yes">Yes</option>
          </select>
        </Field>
      );
    case 'multiselect':
      return (
        <CheckGroup
          legend={label}
          error={error}
          options={def.options.map((o) => ({ value: o, label: o }))}
          selected={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
    case 'select':
      return (
        <Field label={label} error={error}>
          <select value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
            <option value="">{def.is_required ? 'Choose…' : 'None'}</option>
            {def.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'textarea':
      return (
        <Field label={label} error={error}>
          <textarea value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} rows={3} />
        </Field>
      );
    case 'number':
      return (
        <Field label={label} error={error}>
          <input value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} inputMode="decimal" autoComplete="off" />
        </Field>
      );
    case 'date':
      return (
        <Field label={label} error={error}>
          <input type="date" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
        </Field>
      );
    default:
      return (
        <Field label={label} error={error}>
          <input value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
        </Field>
      );
  }
}
