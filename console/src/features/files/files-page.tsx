// Import and export: a CSV file uploaded for import (POST /api/imports, multipart, with its format and a dry-run
// choice), then followed every second (GET /api/imports/{id}) until it ends, with its counts and the failed rows to
// download (GET /api/imports/{id}/errors.csv); and the catalogue downloaded as CSV (GET /api/exports/products.csv, a
// plain link: the session cookie goes with it), in either format, optionally filtered as the product list is.
// The import being followed is in the address (?import=<id>), so a reload or a shared link finds it again.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fieldErrors, messageOf } from '../../api/errors';
import { Field } from '../../components/field';
import { NamedOptions } from '../../components/named-options';
import { Page } from '../../components/page';
import { ErrorBanner, Loading } from '../../components/status';
import { useBrands, useCategoryTree, useChannels } from '../catalogue/api';
import { flatten, indentedName } from '../catalogue/category-tree-model';
import { useOrganization } from '../organization/api';
import { importEnded, useImport, useImportChecked, useImportErrors, useStartImport } from './api';
import { type ExportFilters, exportUrl, formatBytes, type ImportState, isActive, percentDone, STATE_LABELS } from './files-model';
import { STATUS_LABEL, STATUSES } from '../products/product-model';
import './files-page.css';

export default function FilesPage() {
  const [params, setParams] = useSearchParams();
  const importId = params.get('import');
  const follow = (id: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set('import', id);
        else next.delete('import');
        return next;
      },
      { replace: false },
    );

  return (
    <Page title="Import & export">
      <div className="files-layout">
        <section className="card" aria-labelledby="import-heading">
          <h2 id="import-heading">Import products</h2>
          {importId ? <ImportProgress id={importId} onAnother={() => follow(null)} onStarted={follow} /> : <ImportForm onStarted={follow} />}
        </section>
        <ExportPanel />
      </div>
    </Page>
  );
}

function ImportForm({ onStarted }: { onStarted: (id: string) => void }) {
  const [format, setFormat] = useState<'' | 'ours' | 'shopify'>('');
  const [dryRun, setDryRun] = useState(false);
  const [noFile, setNoFile] = useState(false);
  const upload = useStartImport();
  const fileInput = useRef<HTMLInputElement>(null);
  const dryRunId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      // Told like the server's refusals: in the upload's error, beside the file.
      upload.reset();
      setNoFile(true);
      fileInput.current?.focus();
      return;
    }
    setNoFile(false);
    upload.mutate({ file, format, dryRun }, { onSuccess: (started) => onStarted(started.id) });
  };
  const error = noFile ? new Error('Choose a CSV file to import.') : upload.error;
  const fields = fieldErrors(error);
  const fileError = error && !fields.format && !fields.dry_run ? messageOf(error) : null;
  const defaultCurrency = useOrganization().data?.default_currency;

  return (
    <form onSubmit={submit} noValidate>
      <p className="hint">
        Products are matched by SKU: a second import of the same file changes nothing. Brands, suppliers and categories named in the file are created when
        missing.
      </p>
      <p className="hint">
        Rows that name no currency (Shopify's files never do) are priced in {defaultCurrency ?? 'EUR, as no default currency is set'}:{' '}
        <Link to="/lists/organization">change the default currency</Link>.
      </p>
      <Field label="CSV file" hint="UTF-8, our columns or Shopify's product CSV" error={fileError}>
        <input ref={fileInput} type="file" name="file" accept=".csv,text/csv" required />
      </Field>
      <Field label="Format" error={fields.format}>
        <select value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
          <option value="">Detect from the header</option>
          <option value="ours">Pimbridge CSV</option>
          <option value="shopify">Shopify product CSV</option>
        </select>
      </Field>
      <div className="field checkbox-field">
        <label htmlFor={dryRunId}>
          <input id={dryRunId} type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> Dry run: check the whole file and report,
          writing nothing
        </label>
      </div>
      <button type="submit" className="button primary" disabled={upload.isPending}>
        {upload.isPending ? 'Uploading…' : dryRun ? 'Upload and check' : 'Upload and import'}
      </button>
    </form>
  );
}

const BADGE: Record<ImportState, string> = { queued: '', running: 'warn', completed: 'ok', failed: 'error' };

function ImportProgress({ id, onAnother, onStarted }: { id: string; onAnother: () => void; onStarted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const view = useImport(id);
  const importNow = useImportChecked();
  // Followed to its end here: what it wrote is read again wherever it is shown.
  const wasActive = useRef(false);
  const active = view.data ? isActive(view.data.state) : false;
  const wrote = view.data ? !view.data.dry_run : false;
  useEffect(() => {
    if (wasActive.current && !active && wrote) importEnded(queryClient);
    wasActive.current = active;
  }, [active, wrote, queryClient]);
  if (view.isPending) return <Loading label="Loading the import…" />;
  if (view.isError && !view.data)
    return (
      <>
        <ErrorBanner error={view.error} onRetry={() => view.refetch()} />
        <button type="button" className="button secondary" onClick={onAnother}>
          Start another import
        </button>
      </>
    );
  const im = view.data;
  const percent = percentDone(im);
  // Counted as a merchant counts a catalogue: products and their variants, not the file's rows.
  const counts = (of: { created: number; updated: number; unchanged: number }): [string, number][] => [
    [im.dry_run ? 'Would be created' : 'Created', of.created],
    [im.dry_run ? 'Would be updated' : 'Updated', of.updated],
    ['Unchanged', of.unchanged],
  ];
  const variantRows = im.variants.created + im.variants.updated + im.variants.unchanged;
  return (
    <div className="import-progress">
      <p className="import-file">
        <strong>{im.file_name}</strong> <span className="hint">({formatBytes(im.size_bytes)})</span>{' '}
        <span className={`badge ${BADGE[im.state]}`}>{STATE_LABELS[im.state]}</span>
        {im.dry_run && <span className="badge">Dry run: nothing written</span>}
      </p>
      {/* A query that fails while polling keeps the last answer on screen and says why. */}
      {view.isError && <ErrorBanner error={view.error} onRetry={() => view.refetch()} />}
      <div
        className="progress"
        role="progressbar"
        aria-label="Rows processed"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${im.rows_done.toLocaleString()} of ${im.rows_total.toLocaleString()} rows`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="hint" aria-live="polite">
        {im.rows_done.toLocaleString()} of {im.rows_total.toLocaleString()} rows · {percent}%
      </p>
      <div className="import-count-groups">
        <ImportCounts title="Products" counts={counts(im.products)} />
        {variantRows > 0 && <ImportCounts title="Variants" counts={counts(im.variants)} />}
        <ImportCounts title="Rows" counts={[['Refused', im.failed]]} failed={im.failed > 0} />
      </div>
      <div role="status" aria-live="polite">
        {im.state === 'completed' && (
          <p className={`banner ${im.failed > 0 ? 'info' : 'success'}`}>
            {im.dry_run
              ? 'The check is done: nothing was written. The file is kept for a day: import it now, without choosing it again.'
              : 'The import is done.'}
            {im.failed > 0 ? ` ${im.failed.toLocaleString()} ${im.failed === 1 ? 'row was' : 'rows were'} refused: see below.` : ''}
          </p>
        )}
      </div>
      {im.state === 'failed' && (
        <p role="alert" className="banner error">
          {im.error ?? 'The import failed.'}
        </p>
      )}
      {!active && im.failed + im.images_failed > 0 && <ImportErrors id={im.id} />}
      {importNow.error ? <ErrorBanner error={importNow.error} /> : null}
      <div className="actions">
        {im.failed + im.images_failed > 0 && (
          <a className="button secondary" href={`/api/imports/${encodeURIComponent(im.id)}/errors.csv`} download={`import-errors-${im.id}.csv`}>
            Download the problems (CSV)
          </a>
        )}
        {im.dry_run && im.state === 'completed' && (
          <button
            type="button"
            className="button primary"
            disabled={importNow.isPending}
            onClick={() => importNow.mutate(im.id, { onSuccess: (started) => onStarted(started.id) })}
          >
            {importNow.isPending ? 'Starting…' : 'Import this file now'}
          </button>
        )}
        {!isActive(im.state) && (
          <button type="button" className={`button ${im.dry_run && im.state === 'completed' ? 'secondary' : 'primary'}`} onClick={onAnother}>
            Start another import
          </button>
        )}
      </div>
    </div>
  );
}

/** The refused rows on the page: line, SKU and the reason (which names the column), 50 at a time. */
function ImportErrors({ id }: { id: string }) {
  const errors = useImportErrors(id, true);
  const rows = errors.data?.pages.flatMap((p) => p.errors) ?? [];
  return (
    <section className="import-errors" aria-labelledby="import-errors-h">
      <h3 id="import-errors-h">What was not imported</h3>
      <ErrorBanner error={errors.error} onRetry={() => errors.refetch()} />
      {errors.isPending && <Loading label="Loading the problems…" />}
      {rows.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">SKU</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e, i) => (
                <tr key={`${e.line}-${i}`}>
                  <td>{e.line}</td>
                  <td>{e.sku ?? '—'}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {errors.hasNextPage && (
        <button type="button" className="button secondary small" disabled={errors.isFetchingNextPage} onClick={() => errors.fetchNextPage()}>
          {errors.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </section>
  );
}

function ExportPanel() {
  const [filters, setFilters] = useState<ExportFilters>({});
  const brands = useBrands();
  const channels = useChannels();
  const tree = useCategoryTree();
  const set = (key: keyof ExportFilters) => (e: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: e.target.value }));
  const filtered = Object.values(filters).some((v) => v?.trim());

  return (
    <section className="card" aria-labelledby="export-heading">
      <h2 id="export-heading">Export products</h2>
      <p className="hint">The whole catalogue, or only the products that match the filters below.</p>
      <ErrorBanner error={brands.error ?? channels.error ?? tree.error} />
      <div className="export-filters">
        <Field label="Search">
          <input type="search" value={filters.search ?? ''} onChange={set('search')} placeholder="Name, description or SKU" />
        </Field>
        <Field label="Status">
          <select value={filters.status ?? ''} onChange={set('status')}>
            <option value="">Any status</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABEL[value]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Brand">
          <select value={filters.brand ?? ''} onChange={set('brand')} disabled={brands.isPending}>
            <NamedOptions none="Any brand" items={brands.data} />
          </select>
        </Field>
        <Field label="Category">
          <select value={filters.category ?? ''} onChange={set('category')} disabled={tree.isPending}>
            <option value="">Any category</option>
            {flatten(tree.data?.categories ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {indentedName(c)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Channel">
          <select value={filters.channel ?? ''} onChange={set('channel')} disabled={channels.isPending}>
            <option value="">Any channel</option>
            {channels.data?.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="actions">
        <a className="button primary" href={exportUrl('ours', filters)} download>
          Download Pimbridge CSV{filtered ? ' (filtered)' : ''}
        </a>
        <a className="button secondary" href={exportUrl('shopify', filters)} download>
          Download Shopify CSV{filtered ? ' (filtered)' : ''}
        </a>
        {filtered && (
          <button type="button" className="button secondary small" onClick={() => setFilters({})}>
            Clear filters
          </button>
        )}
      </div>
    </section>
  );
}

function ImportCounts({ title, counts, failed = false }: { title: string; counts: [string, number][]; failed?: boolean }) {
  return (
    <div className="import-count-group">
      <h3>{title}</h3>
      <dl className="import-counts">
        {counts.map(([label, n]) => (
          <div key={label} className={failed ? 'failed' : undefined}>
            <dt>{label}</dt>
            <dd>{n.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
