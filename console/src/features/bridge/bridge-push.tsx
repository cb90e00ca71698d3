// Pushing products to the shop (POST /api/products/push, at most PUSH_BATCH a request) and showing what came of it:
// each product's result in the server's words, its validation errors as a list of what to fix.
import { Link } from 'react-router';
import { api, bridge } from '../../api/client';
import { messageOf, unwrap } from '../../api/errors';
import { chunk, PUSH_BATCH, splitValidation } from './bridge-data';

export interface PushResult {
  status: 'success' | 'error';
  message: string;
  pim_product_id: number | null;
  storefront_product_id: number | null;
  storefront_handle?: string;
  method?: 'create' | 'update';
  validation_errors?: string[];
}

export interface PushOutcome {
  /** What was pushed, for the heading: `PIM product 11`, `all 7 failed products`. */
  what: string;
  /** The server's sentence of each request (`1 of 2 product(s) failed`). */
  messages: string[];
  results: PushResult[];
  /** A request that failed as a whole (the server's message); the batches after it were not sent. */
  error: string | null;
  /** Products of the batches not sent because of `error`. */
  not_sent: number;
}

/** One POST /api/products/push of the given PIM product ids (at most PUSH_BATCH). */
export async function pushBatch(integrationId: number, ids: number[]) {
  const body = { products: ids.map((id) => ({ id })) };
  // The route's OpenAPI document declares no request body (it takes a product or {products}), hence the cast.
  return unwrap(await api.POST('/api/products/push', { headers: bridge(integrationId), body: body as never }));
}

/** Pushes the ids in batches, one after the other; stops at the first request that fails as a whole. */
export async function pushAll(integrationId: number, ids: number[], what: string, onBatch?: (done: number, total: number) => void): Promise<PushOutcome> {
  const batches = chunk(ids, PUSH_BATCH);
  const outcome: PushOutcome = { what, messages: [], results: [], error: null, not_sent: 0 };
  for (let i = 0; i < batches.length; i++) {
    onBatch?.(i, batches.length);
    try {
      const answer = await pushBatch(integrationId, batches[i]);
      outcome.messages.push(answer.message);
      outcome.results.push(...(answer.data.results as PushResult[]));
    } catch (err) {
      outcome.error = messageOf(err);
      outcome.not_sent = batches.slice(i).reduce((n, b) => n + b.length, 0);
      break;
    }
  }
  return outcome;
}

/** `The storefront refused PIM product 11: currency: …` → `The storefront refused PIM product 11` when the list below says the rest. */
function withoutRepeats(message: string, errors: string[] | undefined): string {
  const at = errors?.length ? message.indexOf(errors[0]) : -1;
  return at > 0 ? message.slice(0, at).replace(/[\s:;,.-]+$/, '') : message;
}

function Fix({ error }: { error: string }) {
  const { field, text } = splitValidation(error);
  return (
    <li>
      {field && (
        <>
          <code>{field}</code>:{' '}
        </>
      )}
      {text}
    </li>
  );
}

/** The outcome of a push, failures first. Announced politely when it appears. */
export function PushOutcomeView({ outcome, onDismiss }: { outcome: PushOutcome; onDismiss: () => void }) {
  const failed = outcome.results.filter((r) => r.status === 'error');
  const succeeded = outcome.results.filter((r) => r.status === 'success');
  const ordered = [...failed, ...succeeded];
  const bad = failed.length > 0 || outcome.error !== null;
  return (
    <section className="card bridge-outcome" aria-labelledby="push-outcome-h">
      <div className="bridge-outcome-head">
        <h2 id="push-outcome-h">Push of {outcome.what}</h2>
        <button type="button" className="button secondary small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <div role="status" className={`banner ${bad ? 'error' : 'success'}`}>
        <span>
          {outcome.results.length > 0 && `${succeeded.length} pushed, ${failed.length} failed. `}
          {outcome.messages.length === 1 && outcome.messages[0]}
          {outcome.messages.length === 0 && outcome.error === null && 'There was nothing to push.'}
        </span>
      </div>
      {outcome.error && (
        <p role="alert" className="banner error">
          {outcome.error}
          {outcome.not_sent > 0 && ` (${outcome.not_sent} product${outcome.not_sent === 1 ? ' was' : 's were'} not sent)`}
        </p>
      )}
      {ordered.length > 0 && (
        <ul className="results">
          {ordered.map((r, i) => (
            <li key={`${r.pim_product_id ?? 'x'}-${i}`}>
              <span className={`badge ${r.status === 'success' ? 'ok' : 'error'}`}>{r.status === 'success' ? 'Pushed' : 'Failed'}</span>{' '}
              {r.pim_product_id !== null ? <Link to={`/products/${r.pim_product_id}`}>PIM product {r.pim_product_id}</Link> : 'A product'}
              {r.status === 'success' ? (
                <>
                  {' '}
                  — {r.method === 'create' ? 'created on the shop' : 'updated on the shop'}
                  {r.storefront_handle && (
                    <>
                      {' '}
                      as <code>{r.storefront_handle}</code>
                    </>
                  )}
                </>
              ) : (
                <>
                  <div className="bridge-error-text">{withoutRepeats(r.message, r.validation_errors)}</div>
                  {r.validation_errors && r.validation_errors.length > 0 && (
                    <>
                      <div className="hint">What to fix in the product before pushing again:</div>
                      <ul className="fixes">
                        {r.validation_errors.map((e) => (
                          <Fix key={e} error={e} />
                        ))}
                      </ul>
                    </>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
