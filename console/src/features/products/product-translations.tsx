// Translations of a product's texts, one language at a time: pick one the product has (or type a new code), edit its
// name and descriptions, saved (PUT) by the page's save bar, or remove it (DELETE, at once after a confirmation). A
// blank text falls back to the product's own. The language cannot be switched while its texts hold an edit.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api } from '../../api/client';
import { fieldErrors, messageOf, unwrap } from '../../api/errors';
import { Field } from '../../components/field';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { useSaveAll, useSaveSection } from '../../components/unsaved-changes';
import { useProductTranslation } from './api';
import { productKeys } from './keys';
import { type Product, SAVE_ORDER } from './product-model';

const LOCALE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
interface Texts {
  name: string;
  short_description: string;
  description: string;
}
const blank: Texts = { name: '', short_description: '', description: '' };

export function ProductTranslations({
  product,
  onChanged,
  confirm,
  open,
}: {
  product: Product;
  onChanged: () => void;
  confirm: (message: string) => Promise<boolean>;
  /** A language to open (the completeness checklist's "Translate into"): its translation, or a new one in it. */
  open?: { locale: string } | null;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const locales = product.available_translations;
  const [locale, setLocale] = useState<string>(locales[0] ?? '');
  const [newLocale, setNewLocale] = useState('');
  const [texts, setTexts] = useState<Texts>(blank);
  /** The texts as saved: what the save bar compares with, and what Discard goes back to. */
  const [saved, setSaved] = useState<Texts>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const existing = locales.includes(locale);
  const nameInput = useRef<HTMLInputElement>(null);

  // The product read in that language: translated texts where there are some, the product's own where not.
  const translated = useProductTranslation(product.id, locale, existing);
  useEffect(() => {
    const t = translated.data;
    const now = !existing
      ? blank
      : t
        ? {
            name: t.name === product.name ? '' : t.name,
            short_description: t.short_description === product.short_description ? '' : (t.short_description ?? ''),
            description: t.description === product.description ? '' : (t.description ?? ''),
          }
        : null;
    if (now) {
      setTexts(now);
      setSaved(now);
    }
  }, [translated.data, existing, product.name, product.short_description, product.description]);

  const done = (message: string | null) => {
    setNotice(message);
    setProblem(null);
    setErrors({});
    queryClient.invalidateQueries({ queryKey: productKeys.translations(product.id) });
    onChanged();
  };
  const failed = (err: unknown) => {
    const named = fieldErrors(err);
    setErrors(named);
    setProblem(Object.keys(named).some((k) => k in blank) ? 'Not saved: correct the field marked below.' : messageOf(err));
  };

  const save = useMutation({
    mutationFn: async ({ code, body }: { code: string; body: { [K in keyof Texts]: string | null } }) =>
      unwrap(await api.PUT('/api/products/{id}/translations/{locale}', { params: { path: { id: product.id, locale: code } }, body })).data,
    onSuccess: (translation) => {
      setLocale(translation.locale);
      setNewLocale('');
      setSaved(texts);
      done(null);
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: async (code: string) =>
      unwrap(await api.DELETE('/api/products/{id}/translations/{locale}', { params: { path: { id: product.id, locale: code } } })),
    onSuccess: (_, code) => {
      setLocale(locales.find((l) => l !== code) ?? '');
      done(`The ${code} translation is removed.`);
    },
    onError: failed,
  });

  /** The translation to send, or null when the form has a problem (marked beside its field). */
  const check = () => {
    const code = existing ? locale : newLocale.trim();
    const found: Record<string, string> | null = !LOCALE.test(code)
      ? { locale: 'must be a language code such as de or fr-CA' }
      : !texts.name.trim() && !texts.short_description.trim() && !texts.description.trim()
        ? { name: 'give at least one translated text' }
        : null;
    setErrors(found ?? {});
    setProblem(null);
    const v = (t: string) => (t.trim() === '' ? null : t);
    return found ? null : { code, body: { name: v(texts.name), short_description: v(texts.short_description), description: v(texts.description) } };
  };
  const dirty = JSON.stringify(texts) !== JSON.stringify(saved) || (!existing && newLocale.trim() !== '');

  // "Translate into de": that language, unless this translation holds an edit (then only the focus moves, to it).
  useEffect(() => {
    if (!open) return;
    if (!dirty) {
      setLocale(locales.includes(open.locale) ? open.locale : '');
      setNewLocale(locales.includes(open.locale) ? '' : open.locale);
      setErrors({});
      setNotice(null);
    }
    nameInput.current?.scrollIntoView({ block: 'center' });
    nameInput.current?.focus();
  }, [open]);
  useSaveSection(dirty, {
    order: SAVE_ORDER.translation,
    check: () => check() !== null,
    save: async () => {
      const edit = check();
      return (
        edit !== null &&
        save.mutateAsync(edit).then(
          () => true,
          () => false,
        )
      );
    },
    discard: () => {
      setTexts(saved);
      setNewLocale('');
      setErrors({});
      setProblem(null);
    },
  });
  const saveAll = useSaveAll();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveAll();
  };

  return (
    <form className="card product-section" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Translations</h2>
      {notice && <Notice>{notice}</Notice>}
      {problem && (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}
      <div className="product-grid">
        <Field label="Language">
          <select
            value={existing ? locale : ''}
            disabled={dirty}
            aria-describedby={dirty ? `${ids}-switch` : undefined}
            onChange={(e) => {
              setLocale(e.target.value);
              setErrors({});
              setNotice(null);
            }}
          >
            {locales.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
            <option value="">New translation…</option>
          </select>
        </Field>
        {dirty && (
          <p id={`${ids}-switch`} className="hint">
            Save or discard this translation's changes to switch language.
          </p>
        )}
        {!existing && (
          <Field label="Language code" error={errors.locale} hint="e.g. de or fr-CA">
            <input value={newLocale} onChange={(e) => setNewLocale(e.target.value)} maxLength={6} autoComplete="off" spellCheck={false} />
          </Field>
        )}
      </div>
      {existing && translated.isPending && <Loading label="Loading the translation…" />}
      <ErrorBanner error={translated.error} onRetry={() => translated.refetch()} />
      <Field label="Translated name" error={errors.name} hint={`Blank: “${product.name}”`}>
        <input ref={nameInput} value={texts.name} onChange={(e) => setTexts({ ...texts, name: e.target.value })} maxLength={255} />
      </Field>
      <Field label="Translated short description" error={errors.short_description}>
        <textarea value={texts.short_description} onChange={(e) => setTexts({ ...texts, short_description: e.target.value })} rows={2} />
      </Field>
      <Field label="Translated description" error={errors.description}>
        <textarea value={texts.description} onChange={(e) => setTexts({ ...texts, description: e.target.value })} rows={4} />
      </Field>
      <div className="actions">
        {existing && (
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (await confirm(`Remove the ${locale} translation of “${product.name}”?`)) remove.mutate(locale);
            }}
          >
            Remove {locale} translation
          </button>
        )}
      </div>
    </form>
  );
}
