// The product editor's completeness: per channel the product is on, its score and a checklist of what it lacks (the
// attributes that channel requires, the translations the catalogue's languages need), each with a button to the field
// where it is filled. Read again whenever the product, an attribute or the languages change (keys.ts).
import { Link } from 'react-router';
import { ErrorBanner, Loading } from '../../components/status';
import { useChannels } from '../catalogue/api';
import { useCompleteness } from './api';
import { type ChecklistItem, checklistOf, fieldsText, languageName, scoreTone } from './completeness-model';
import './completeness.css';

/** Scrolls to and focuses the form control labelled with `label` (or `label (required)`) in the product page. */
function focusField(label: string): void {
  const page = document.querySelector('.product-layout');
  const labels = [...(page?.querySelectorAll('label, legend') ?? [])];
  const match = labels.find((l) => {
    const text = l.textContent?.trim() ?? '';
    return text === label || text === `${label} (required)`;
  });
  const control = match instanceof HTMLLabelElement && match.control ? match.control : match?.parentElement?.querySelector('input, select, textarea');
  if (control instanceof HTMLElement) {
    control.scrollIntoView({ block: 'center' });
    control.focus();
  }
}

function Item({ item, onTranslate }: { item: ChecklistItem; onTranslate: (locale: string) => void }) {
  if (item.kind === 'attribute')
    return (
      <li>
        <strong>{item.name}</strong> is empty{' '}
        <button type="button" className="button small secondary" onClick={() => focusField(item.name)}>
          Fill in {item.name}
        </button>
      </li>
    );
  return (
    <li>
      <strong>{languageName(item.locale)}</strong>: {fieldsText(item.fields)} not translated{' '}
      <button type="button" className="button small secondary" onClick={() => onTranslate(item.locale)}>
        Translate into {item.locale}
      </button>
    </li>
  );
}

/** `onTranslate`: the Translations section opens that language (or a new translation in it) and focuses its name. */
export function CompletenessChecklist({ productId, onTranslate }: { productId: number; onTranslate: (locale: string) => void }) {
  const completeness = useCompleteness([productId]);
  const channels = useChannels();
  const labelOf = (value: string) => channels.data?.find((c) => c.value === value)?.label ?? value;
  const result = completeness.data?.[0];
  return (
    <section className="card product-section completeness" aria-labelledby="completeness-h">
      <h2 id="completeness-h">
        Completeness
        {result && result.score !== null && (
          <>
            {' '}
            <span className={`badge ${scoreTone(result.score)} completeness-score`}>{result.score} %</span>
          </>
        )}
      </h2>
      {completeness.isPending && <Loading label="Working out what is missing…" />}
      <ErrorBanner error={completeness.error} onRetry={() => completeness.refetch()} />
      {result && result.channels.length === 0 && <p className="hint">On no channel: choose the product's channels in Details to see what each needs.</p>}
      {result && result.channels.length > 0 && (
        <div className="completeness-channels">
          {result.channels.map((channel) => {
            const items = checklistOf(channel);
            return (
              <section key={channel.channel} className="completeness-channel" aria-label={`${labelOf(channel.channel)}: ${channel.score} % complete`}>
                <h3>
                  {labelOf(channel.channel)}
                  <span className={`badge ${scoreTone(channel.score)} completeness-score`}>{channel.score} %</span>
                </h3>
                {items.length === 0 ? (
                  <p className="hint">
                    Nothing missing{channel.required === 0 ? ': this channel requires nothing yet.' : ` (${channel.required} of ${channel.required}).`}
                  </p>
                ) : (
                  <ul>
                    {items.map((item) => (
                      <Item key={item.key} item={item} onTranslate={onTranslate} />
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}
      <p className="hint">
        What each channel requires is set on the <Link to="/attributes">Attributes</Link> page; the languages to translate into on the{' '}
        <Link to="/lists/organization">Organization</Link> page.
      </p>
    </section>
  );
}
