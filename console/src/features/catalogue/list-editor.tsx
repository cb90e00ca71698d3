// A reference list (brands, suppliers, VAT rates, channels, warehouses): its table, and one form that adds a row or
// changes the row chosen with its Edit button. What each list sends and reads is its config (list-configs.tsx); it reads
// under the list's own key (api.ts), the one every other page reads it by, and every change invalidates that key.
import { type UseQueryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { fieldErrors, messageOf } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Field } from '../../components/field';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { catalogueChanged } from './api';
import { EditableTable, FormEnd, type TableColumn } from './editable-list';
import { emptyValues, fieldFor, type Values } from './list-model';

export interface ListField<Row> {
  key: string;
  label: string;
  hint?: string;
  required?: boolean;
  maxLength?: number;
  /** a select instead of a text input (its options may depend on the rows already there) */
  options?: (rows: Row[], editing: Row | null) => { value: string; label: string }[];
  /** shown in the form only when adding (an identity that cannot change) */
  createOnly?: boolean;
  mono?: boolean;
  inputMode?: 'decimal' | 'text';
  autoCapitalize?: 'characters' | 'off';
}

export interface ListConfig<Row> {
  kind: string;
  title: string;
  /** "brand", "VAT rate": in headings and buttons */
  singular: string;
  intro?: ReactNode;
  fields: ListField<Row>[];
  columns: TableColumn<Row>[];
  keyOf: (row: Row) => string | number;
  nameOf: (row: Row) => string;
  valuesOf: (row: Row) => Values;
  /** The list's query of api.ts: its key and its read, shared with every page that shows the list. */
  query: UseQueryOptions<Row[], Error, Row[], any>;
  create: (values: Values, rows: Row[]) => Promise<Row | undefined>;
  update: (row: Row, values: Values, rows: Row[]) => Promise<Row | undefined>;
  remove?: { run: (row: Row, rows: Row[]) => Promise<void>; warning: (row: Row) => string };
  /** whether the form can add another (channels: six at most) */
  canAdd?: (rows: Row[]) => boolean;
  fullMessage?: string;
  /** a list-wide action (channels: restore the defaults) */
  reset?: { label: string; warning: string; run: () => Promise<void> };
}

export function ListEditor<Row>({ config }: { config: ListConfig<Row> }) {
  const queryClient = useQueryClient();
  const list = useQuery(config.query);
  const { confirm, dialog } = useConfirm();
  const [editing, setEditing] = useState<Row | null>(null);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);
  const rows = list.data ?? [];

  // Each resolves once the list has been read again.
  const removeRow = useMutation({
    mutationFn: (row: Row) => config.remove!.run(row, rows),
    onSuccess: () => catalogueChanged(queryClient, config.query.queryKey),
  });
  const resetList = useMutation({
    mutationFn: () => config.reset!.run(),
    onSuccess: () => catalogueChanged(queryClient, config.query.queryKey),
  });

  const say = (text: string) => {
    setActionError(null);
    setNotice(text);
  };
  const fail = (err: unknown) => {
    setNotice('');
    setActionError(err);
  };
  const startEdit = (row: Row | null) => {
    setEditing(row);
    setNotice('');
    setActionError(null);
    requestAnimationFrame(() => formHeading.current?.focus());
  };

  const remove = async (row: Row) => {
    if (!config.remove || !(await confirm(config.remove.warning(row)))) return;
    try {
      await removeRow.mutateAsync(row);
      say(`Deleted ${config.nameOf(row)}.`);
      if (editing && config.keyOf(editing) === config.keyOf(row)) setEditing(null);
    } catch (err) {
      fail(new Error(`${config.nameOf(row)} was not deleted: ${messageOf(err)}`));
    }
  };

  const reset = async () => {
    if (!config.reset || !(await confirm(config.reset.warning))) return;
    try {
      await resetList.mutateAsync();
      say('Restored the defaults.');
      setEditing(null);
    } catch (err) {
      fail(err);
    }
  };

  const full = config.canAdd ? !config.canAdd(rows) : false;
  return (
    <>
      {dialog}
      <div role="status" aria-live="polite" className="live-region">
        {notice && <p className="banner success">{notice}</p>}
      </div>
      <ErrorBanner error={actionError} />
      {config.intro && <p className="hint list-intro">{config.intro}</p>}
      <div className="list-layout">
        <section aria-labelledby="list-heading">
          <div className="list-head">
            <h2 id="list-heading">
              {config.title}
              {list.data ? ` (${rows.length})` : ''}
            </h2>
            {config.reset && list.data && (
              <button type="button" className="button secondary small" onClick={() => void reset()}>
                {config.reset.label}
              </button>
            )}
          </div>
          {list.isPending ? (
            <Loading label={`Loading ${config.title.toLowerCase()}…`} />
          ) : list.isError ? (
            <ErrorBanner error={list.error} onRetry={() => list.refetch()} />
          ) : rows.length === 0 ? (
            <Empty>No {config.title.replace(/^[A-Z][a-z]/, (w) => w.toLowerCase())} yet. Add the first one with the form.</Empty>
          ) : (
            <EditableTable
              caption={config.title}
              columns={config.columns}
              rows={rows}
              keyOf={config.keyOf}
              nameOf={config.nameOf}
              editing={editing}
              onEdit={startEdit}
              onDelete={config.remove ? (row) => void remove(row) : undefined}
            />
          )}
        </section>
        <ListForm
          key={editing ? config.keyOf(editing) : 'new'}
          config={config}
          rows={rows}
          editing={editing}
          full={full}
          headingRef={formHeading}
          onSaved={(text) => {
            say(text);
            setEditing(null);
          }}
          onCancel={() => startEdit(null)}
        />
      </div>
    </>
  );
}

function ListForm<Row>({
  config,
  rows,
  editing,
  full,
  headingRef,
  onSaved,
  onCancel,
}: {
  config: ListConfig<Row>;
  rows: Row[];
  editing: Row | null;
  full: boolean;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onSaved: (notice: string) => void;
  onCancel: () => void;
}) {
  const keys = config.fields.map((f) => f.key);
  const fields = config.fields.filter((f) => !(editing && f.createOnly));
  const initial = () => {
    return editing ? config.valuesOf(editing) : emptyValues(keys);
  };
  const [values, setValues] = useState<Values>(initial);
  const queryClient = useQueryClient();
  // Adds or changes the row; resolves once the list has been read again.
  const save = useMutation({
    mutationFn: (v: Values) => (editing ? config.update(editing, v, rows) : config.create(v, rows)),
    onSuccess: () => catalogueChanged(queryClient, config.query.queryKey),
  });
  const firstInput = useRef<HTMLInputElement & HTMLSelectElement>(null);

  // A select whose value is no longer among its choices (the list changed) stands on its first choice.
  const resolved: Values = { ...values };
  for (const f of fields) {
    const choices = f.options?.(rows, editing);
    if (choices && !choices.some((c) => c.value === resolved[f.key])) resolved[f.key] = choices[0]?.value ?? '';
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await save.mutateAsync(resolved);
      const name = saved ? config.nameOf(saved) : (resolved.name ?? resolved.label ?? '');
      onSaved(editing ? `Saved ${name}.` : `Added ${name}.`);
      if (!editing) {
        setValues(emptyValues(keys));
        firstInput.current?.focus();
      }
    } catch {
      // save.error says why, beside the field it names.
    }
  };

  const error = save.error;
  const [[raw, message] = []] = Object.entries(fieldErrors(error));
  const field = fieldFor(raw, keys);
  const general = error && !field ? messageOf(error) : null;
  const disabled = !editing && full;

  return (
    <section className="card list-form" aria-labelledby="list-form-heading">
      <h2 id="list-form-heading" ref={headingRef} tabIndex={-1}>
        {editing ? `Edit ${config.nameOf(editing)}` : `Add a ${config.singular}`}
      </h2>
      {disabled ? (
        <p className="hint">{config.fullMessage ?? `No more ${config.title.toLowerCase()} can be added.`}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          {fields.map((f, i) => {
            const choices = f.options?.(rows, editing);
            return (
              <Field key={f.key} label={f.label} hint={f.hint} error={field === f.key ? message : null}>
                {choices ? (
                  <select
                    ref={i === 0 ? firstInput : undefined}
                    value={resolved[f.key] ?? ''}
                    onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                    required={f.required}
                  >
                    {choices.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    ref={i === 0 ? firstInput : undefined}
                    value={values[f.key] ?? ''}
                    onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                    required={f.required}
                    maxLength={f.maxLength}
                    inputMode={f.inputMode}
                    autoCapitalize={f.autoCapitalize}
                    spellCheck={f.mono ? false : undefined}
                    className={f.mono ? 'mono' : undefined}
                  />
                )}
              </Field>
            );
          })}
          <FormEnd
            general={general}
            fieldMessage={field ? message : null}
            saving={save.isPending}
            submitLabel={editing ? 'Save' : `Add ${config.singular}`}
            onCancel={editing ? onCancel : undefined}
          />
        </form>
      )}
    </section>
  );
}
