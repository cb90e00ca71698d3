// What a push would change, before pushing (POST /api/products/push?dry_run=true, at most PUSH_BATCH a request; nothing
// is written to the shop): per product the method (created or updated) and a table of field / in the shop / in the PIM.
// Also the values of the drift page's field tables (formatValue).
import { Link } from 'react-router';
import { api, bridge } from '../../api/client';
import { messageOf, unwrap } from '../../api/errors';
import { chunk, PUSH_BATCH, splitValidation } from './bridge-data';

export interface DryRunChange {
  field: string;
  storefront: unknown;
  pim: unknown;
}

export interface DryRunResult {
  status: 'success' | 'error';
  message: string;
  pim_product_id: number | null;
  storefront_product_id: number | null;
  storefront_handle?: string | null;
  method?: 'create' | 'update';
  changes?: DryRunChange[];
  validation_errors?: string[];
}

export interface PreviewOutcome {
  /** What was previewed, for the heading: `PIM product 11`, `all 7 failed products`. */
  what: string;
  results: DryRunResult[];
  /** A request that failed as a whole (the server's message); the batches after it were not sent. */
  error: string | null;
  not_sent: number;
}

/** Dry runs of the ids in batches, one after the other; stops at the first request that fails as a whole. */
export async function previewAll(integrationId: number, ids: number[], what: string, onBatch?: (done: number, total: number) => void): Promise<PreviewOutcome> {
  const batches = chunk(ids, PUSH_BATCH);
  const outcome: PreviewOutcome = { what, results: [], error: null, not_sent: 0 };
  for (let i = 0; i < batches.length; i++) {
    onBatch?.(i, batches.length);
    try {
      const body = { products: batches[i].map((id) => ({ id })) };
      // The route's OpenAPI document declares no request body (it takes a product or {products}), hence the cast.
      const answer = unwrap(
        await api.POST('/api/products/push', { headers: bridge(integrationId), params: { query: { dry_run: true } }, body: body as never }),
      );
      outcome.results.push(...(answer.data.results as DryRunResult[]));
    } catch (err) {
      outcome.error = messageOf(err);
      outcome.not_sent = batches.slice(i).reduce((n, b) => n + b.length, 0);
      break;
    }
  }
  return outcome;
}

/** A field's value as a merchant reads it: none, a text, a list, or the object as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return JSON.stringify(value);
}

/** field / one side / the other side, one row a field. */
export function FieldTable({
  caption,
  rows,
  left,
  right,
}: {
  caption: string;
  rows: { field: string; left: unknown; right: unknown }[];
  left: string;
  right: string;
}) {
  return (
    <div className="table-wrap">
      <table className="bridge-fields">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">{left}</th>
            <th scope="col">{right}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={`${r.field}-${i}`}>
              <th scope="row">
                <code>{r.field}</code>
              </th>
              <td className={r.left === null || r.left === undefined ? 'hint' : undefined}>{formatValue(r.left)}</td>
              <td className={r.right === null || r.right === undefined ? 'hint' : undefined}>{formatValue(r.right)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A product the push would leave as it is says so, not "Would be updated" beside "nothing would change". */
function OutcomeBadge({ result }: { result: PreviewOutcome['results'][number] }) {
  if (result.method === 'create') return <span className="badge warn">Would be created</span>;
  if (result.changes && result.changes.length > 0) return <span className="badge warn">Would be updated</span>;
  return <span className="badge ok">Up to date</span>;
}

/** The outcome of a dry run: failures first, then each product with what a push would change. */
export function PreviewOutcomeView({ outcome, onDismiss }: { outcome: PreviewOutcome; onDismiss: () => void }) {
  const failed = outcome.results.filter((r) => r.status === 'error');
  const ok = outcome.results.filter((r) => r.status === 'success');
  const changing = ok.filter((r) => (r.changes?.length ?? 0) > 0);
  return (
    <section className="card bridge-outcome" aria-labelledby="preview-outcome-h">
      <div className="bridge-outcome-head">
        <h2 id="preview-outcome-h">Preview of {outcome.what}</h2>
        <button type="button" className="button secondary small" onClick={onDismiss}>
          Dismiss<span className="visually-hidden"> the preview</span>
        </button>
      </div>
      <div role="status" className={`banner ${failed.length > 0 || outcome.error ? 'error' : 'info'}`}>
        <span>
          Nothing was written to the shop.{' '}
          {outcome.results.length > 0 &&
            `${changing.length} of ${outcome.results.length} product${outcome.results.length === 1 ? '' : 's'} would change${failed.length ? `, ${failed.length} would fail` : ''}.`}
          {outcome.results.length === 0 && !outcome.error && 'There were no products to preview.'}
        </span>
      </div>
      {outcome.error && (
        <p role="alert" className="banner error">
          {outcome.error}
          {outcome.not_sent > 0 && ` (${outcome.not_sent} product${outcome.not_sent === 1 ? ' was' : 's were'} not previewed)`}
        </p>
      )}
      {outcome.results.length > 0 && (
        <ul className="results">
          {[...failed, ...ok].map((r, i) => (
            <li key={`${r.pim_product_id ?? 'x'}-${i}`}>
              <ProductLink id={r.pim_product_id} />{' '}
              {r.status === 'error' ? (
                <>
                  <span className="badge error">Would fail</span>
                  <div className="bridge-error-text">{r.message}</div>
                  {r.validation_errors && r.validation_errors.length > 0 && (
                    <ul className="fixes">
                      {r.validation_errors.map((e) => {
                        const { field, text } = splitValidation(e);
                        return (
                          <li key={e}>
                            {field && (
                              <>
                                <code>{field}</code>:{' '}
                              </>
                            )}
                            {text}
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </>
              ) : (
                <>
                  <OutcomeBadge result={r} />
                  {r.storefront_handle && (
                    <>
                      {' '}
                      as <code>{r.storefront_handle}</code>
                    </>
                  )}
                  {r.changes && r.changes.length > 0 ? (
                    <FieldTable
                      caption={`What a push of PIM product ${r.pim_product_id} would change`}
                      rows={r.changes.map((c) => ({ field: c.field, left: c.storefront, right: c.pim }))}
                      left="In the shop"
                      right="In the PIM"
                    />
                  ) : (
                    <div className="hint">Nothing would change: the shop holds what the PIM has.</div>
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

function ProductLink({ id }: { id: number | null }) {
  return id !== null ? <Link to={`/products/${id}`}>PIM product {id}</Link> : <span>A product</span>;
}
