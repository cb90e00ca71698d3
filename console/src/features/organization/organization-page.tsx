// /lists/organization: the signed-in organization and its catalogue defaults (GET, PATCH /api/organization): the
// catalogue's languages (languages-form.tsx) and the default currency, the currency of products created without one and of import rows that name none (Shopify's
// product files never do). The merchant sets it; nothing guesses it. It lives under /lists, one of the paths the
// server answers with the console (src/server/console-static.ts).
import { type FormEvent, useId, useState } from 'react';
import { fieldErrors, messageOf } from '../../api/errors';
import { Field } from '../../components/field';
import { Page } from '../../components/page';
import { ErrorBanner, Loading, Notice } from '../../components/status';
import { type Organization, useOrganization, useSaveDefaultCurrency } from './api';
import { LanguagesForm } from './languages-form';
import { COMMON_CURRENCIES, type CurrencyInput, currencyFromInput, currencyInputOf, currencyLabel, NOT_SET, OTHER } from './organization-model';
import '../catalogue/lists-page.css';

export default function OrganizationPage() {
  const organization = useOrganization();
  // Kept here: the form starts again after a save, the notice stays.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Page title="Organization">
      <ErrorBanner error={organization.error} onRetry={() => organization.refetch()} />
      {organization.isPending && <Loading label="Loading the organization…" />}
      {/* Keyed by what is stored: a save (or another tab's, on refetch) starts the form again from it. */}
      {organization.data && (
        <DefaultsForm key={organization.data.default_currency ?? ''} organization={organization.data} notice={notice} setNotice={setNotice} />
      )}
      {/* Not keyed by what is stored: the form keeps its notice after a save. */}
      {organization.data && <LanguagesForm organization={organization.data} />}
    </Page>
  );
}

function DefaultsForm({ organization, notice, setNotice }: { organization: Organization; notice: string | null; setNotice: (notice: string | null) => void }) {
  const ids = useId();
  const stored = currencyInputOf(organization.default_currency);
  const [input, setInput] = useState<CurrencyInput>(stored);
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveDefaultCurrency({
    onSaved: (saved) =>
      setNotice(saved.default_currency ? `Default currency saved: ${currencyLabel(saved.default_currency)}.` : 'The default currency is no longer set.'),
    onFailed: (err) => {
      const named = fieldErrors(err).default_currency;
      setError(named ?? null);
      setProblem(named ? null : messageOf(err));
    },
  });
  const { value } = currencyFromInput(input);
  const dirty = input.choice !== stored.choice || (input.choice === OTHER && input.other !== stored.other);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setProblem(null);
    const found = currencyFromInput(input);
    setError(found.error);
    if (found.error) {
      document.getElementById(`${ids}-other`)?.focus();
      return;
    }
    save.mutate(found.value);
  };

  // A stored code that is not among the common ones is shown as "Another currency…" with it typed in.
  return (
    <section className="card organization-card" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Catalogue defaults</h2>
      <p className="hint list-intro">For the whole catalogue of {organization.name}.</p>
      {notice && <Notice>{notice}</Notice>}
      {problem && (
        <p role="alert" className="banner error">
          {problem}
        </p>
      )}
      <form onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
        <Field
          label="Default currency"
          error={input.choice === OTHER ? null : error}
          hint={`Used for products and files that name no currency.${organization.default_currency ? '' : ' Not set: such products get EUR.'}`}
        >
          <select
            value={input.choice}
            onChange={(e) => {
              setInput({ ...input, choice: e.target.value });
              setError(null);
              setNotice(null);
            }}
          >
            <option value={NOT_SET}>Not set</option>
            {COMMON_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {currencyLabel(code)}
              </option>
            ))}
            <option value={OTHER}>Another currency…</option>
          </select>
        </Field>
        {input.choice === OTHER && (
          <div className={`field${error ? ' invalid' : ''}`}>
            <label htmlFor={`${ids}-other`}>Currency code</label>
            <input
              id={`${ids}-other`}
              className="organization-code"
              value={input.other}
              onChange={(e) => {
                setInput({ ...input, other: e.target.value.toUpperCase() });
                setError(null);
                setNotice(null);
              }}
              maxLength={3}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${ids}-other-hint${error ? ` ${ids}-other-error` : ''}`}
            />
            <small id={`${ids}-other-hint`} className="hint">
              Three letters (ISO 4217), e.g. ISK{value ? ` · ${currencyLabel(value)}` : ''}
            </small>
            {error && (
              <small id={`${ids}-other-error`} className="field-error">
                {error}
              </small>
            )}
          </div>
        )}
        <div className="actions">
          <button type="submit" className="button primary" disabled={save.isPending || !dirty}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
