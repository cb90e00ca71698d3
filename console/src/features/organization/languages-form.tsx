// The organization page's catalogue languages (PATCH /api/organization {languages}): the languages every product must
// be translated into (its name, and its description when it has one) to be complete on its channels.
import { type FormEvent, useId, useState } from 'react';
import { fieldErrors, messageOf } from '../../api/errors';
import { Field } from '../../components/field';
import { Notice } from '../../components/status';
import { languageName } from '../completeness/completeness-model';
import { type Organization, useSaveLanguages } from './api';
import { languagesFromInput } from './organization-model';

export function LanguagesForm({ organization }: { organization: Organization }) {
  const ids = useId();
  const stored = organization.languages.join(', ');
  const [text, setText] = useState(stored);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const save = useSaveLanguages({
    onSaved: (saved) =>
      setNotice(saved.languages.length > 0 ? `Languages saved: ${saved.languages.map((l) => languageName(l)).join(', ')}.` : 'No languages to translate into.'),
  });
  const serverError = save.error ? (fieldErrors(save.error).languages ?? messageOf(save.error)) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const found = languagesFromInput(text);
    setError(found.error);
    if (found.error) {
      document.getElementById(`${ids}-languages`)?.querySelector('input')?.focus();
      return;
    }
    save.mutate(found.value);
  };

  return (
    <section className="card organization-card" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Languages</h2>
      <p className="hint list-intro">The languages every product is translated into, beside its own texts: a product lacking one is incomplete.</p>
      {notice && <Notice>{notice}</Notice>}
      <form onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
        <div id={`${ids}-languages`}>
          <Field label="Translate into" hint="Language codes, comma-separated, e.g. de, fr-CA. Empty: none." error={error ?? serverError}>
            <input
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setError(null);
                setNotice(null);
              }}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </div>
        <div className="actions">
          <button type="submit" className="button primary" disabled={save.isPending || text.trim() === stored}>
            {save.isPending ? 'Saving…' : 'Save languages'}
          </button>
        </div>
      </form>
    </section>
  );
}
