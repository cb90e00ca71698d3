// Product attributes: the list (GET /api/product-attributes), a new one (POST), a change (PUT
// /api/product-attributes/{id}) and delete (DELETE, after a confirmation; the server refuses one that products use).
// The server's validation messages are shown beside the field they name.
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, fieldErrors, messageOf } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Field } from '../../components/field';
import { Page } from '../../components/page';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { useAttributes, useChannels, useDeleteAttribute, useSaveAttribute } from './api';
import {
  ATTRIBUTE_TYPES,
  type AttributeDraft,
  type AttributeType,
  attributeField,
  hasOptions,
  optionsText,
  suggestCode,
  TYPE_LABELS,
} from './attribute-form-model';
import { AttributeChannelsField } from './attribute-channels-field';
import { EditableTable, FormEnd, type TableColumn } from './editable-list';
import './attributes-page.css';

interface Attribute {
  id: number;
  code: string;
  name: string;
  type: string;
  options: string[];
  is_required: boolean;
  required_channels: string[];
}

const EMPTY: AttributeDraft = { code: '', name: '', type: 'text', options: '', is_required: false, required_channels: [] };

/** Required on every product, or needed to be complete on some channels (their labels), or neither. */
function RequiredCell({ attribute, labelOf }: { attribute: Attribute; labelOf: (value: string) => string }) {
  if (attribute.is_required) return <span className="badge warn">Required</span>;
  if (attribute.required_channels.length > 0) return <>On {attribute.required_channels.map(labelOf).join(', ')}</>;
  return <>No</>;
}

const columns = (labelOf: (value: string) => string): TableColumn<Attribute>[] => [
  { label: 'Name', cell: (a) => a.name },
  { label: 'Code', cell: (a) => <code>{a.code}</code> },
  { label: 'Type', cell: (a) => TYPE_LABELS[a.type as AttributeType] ?? a.type },
  {
    label: 'Options',
    className: 'attribute-options',
    cell: (a) => (a.options.length > 0 ? a.options.join(', ') : <span className="hint">—</span>),
  },
  { label: 'Required', cell: (a) => <RequiredCell attribute={a} labelOf={labelOf} /> },
];

export default function AttributesPage() {
  const list = useAttributes();
  const channels = useChannels();
  const labelOf = (value: string) => channels.data?.find((c) => c.value === value)?.label ?? value;
  const del = useDeleteAttribute();
  const { confirm, dialog } = useConfirm();
  const [editing, setEditing] = useState<Attribute | null>(null);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);

  const startEdit = (attribute: Attribute | null) => {
    setEditing(attribute);
    setNotice('');
    setActionError(null);
    requestAnimationFrame(() => formHeading.current?.focus());
  };

  const remove = async (attribute: Attribute) => {
    if (!(await confirm(`Delete the attribute ${attribute.name} (${attribute.code})? The server refuses while products still carry a value for it.`))) return;
    try {
      // Resolves once the list has been read again.
      await del.mutateAsync(attribute);
      setActionError(null);
      setNotice(`Deleted the attribute ${attribute.name}.`);
      if (editing?.id === attribute.id) setEditing(null);
    } catch (err) {
      setNotice('');
      setActionError(new ApiError(`${attribute.name} was not deleted: ${messageOf(err)}`, err instanceof ApiError ? err.status : 0));
    }
  };

  const attributes = list.data?.attributes ?? [];
  return (
    <Page title="Attributes">
      {dialog}
      <div role="status" aria-live="polite" className="live-region">
        {notice && <p className="banner success">{notice}</p>}
      </div>
      <ErrorBanner error={actionError} />
      <div className="attributes-layout">
        <section aria-labelledby="attribute-list-heading">
          <h2 id="attribute-list-heading">Product attributes{list.data ? ` (${list.data.total})` : ''}</h2>
          {list.isPending ? (
            <Loading label="Loading attributes…" />
          ) : list.isError ? (
            <ErrorBanner error={list.error} onRetry={() => list.refetch()} />
          ) : attributes.length === 0 ? (
            <Empty>No attributes yet. Define the first one with the form: products then carry a value for it.</Empty>
          ) : (
            <EditableTable
              caption="Product attributes"
              columns={columns(labelOf)}
              rows={attributes}
              keyOf={(a) => a.id}
              nameOf={(a) => a.name}
              editing={editing}
              onEdit={startEdit}
              onDelete={(a) => void remove(a)}
            />
          )}
        </section>
        <AttributeForm
          key={editing?.id ?? 'new'}
          attribute={editing}
          headingRef={formHeading}
          onDone={(text) => {
            setActionError(null);
            setNotice(text);
            setEditing(null);
          }}
          onCancel={() => startEdit(null)}
        />
      </div>
    </Page>
  );
}

function AttributeForm({
  attribute,
  headingRef,
  onDone,
  onCancel,
}: {
  attribute: Attribute | null;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onDone: (notice: string) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<AttributeDraft>(
    attribute
      ? {
          code: attribute.code,
          name: attribute.name,
          type: (ATTRIBUTE_TYPES as readonly string[]).includes(attribute.type) ? (attribute.type as AttributeType) : 'text',
          options: optionsText(attribute.options),
          is_required: attribute.is_required,
          required_channels: attribute.required_channels,
        }
      : EMPTY,
  );
  const [codeTouched, setCodeTouched] = useState(attribute !== null);
  const save = useSaveAttribute();
  const firstInput = useRef<HTMLInputElement>(null);

  const set = <K extends keyof AttributeDraft>(key: K, value: AttributeDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      // Resolves once the list has been read again.
      const saved = await save.mutateAsync({ id: attribute?.id ?? null, draft });
      onDone(attribute ? `Saved the attribute ${saved.name}.` : `Created the attribute ${saved.name}.`);
      if (!attribute) {
        setDraft(EMPTY);
        setCodeTouched(false);
        firstInput.current?.focus();
      }
    } catch {
      // save.error says why, beside the field it names.
    }
  };

  const error = save.error;
  const [[rawField, message] = []] = Object.entries(fieldErrors(error));
  const field = attributeField(rawField);
  const errorOf = (key: keyof AttributeDraft) => (field === key ? message : null);
  const general = error && !field ? messageOf(error) : null;

  return (
    <section className="card attributes-form" aria-labelledby="attribute-form-heading">
      <h2 id="attribute-form-heading" ref={headingRef} tabIndex={-1}>
        {attribute ? `Edit ${attribute.name}` : 'New attribute'}
      </h2>
      <form onSubmit={submit} noValidate>
        <Field label="Name" error={errorOf('name')}>
          <input
            ref={firstInput}
            value={draft.name}
            onChange={(e) => {
              const name = e.target.value;
              setDraft((d) => ({ ...d, name, code: codeTouched ? d.code : suggestCode(name) }));
            }}
            required
            maxLength={255}
          />
        </Field>
        <Field label="Code" hint="The key in a product's attributes: a lower-case letter first, then letters, digits and _" error={errorOf('code')}>
          <input
            value={draft.code}
            onChange={(e) => {
              setCodeTouched(true);
              set('code', e.target.value);
            }}
            required
            maxLength={64}
            spellCheck={false}
            autoCapitalize="off"
            className="mono"
          />
        </Field>
        <Field label="Type" error={errorOf('type')}>
          <select value={draft.type} onChange={(e) => set('type', e.target.value as AttributeType)}>
            {ATTRIBUTE_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]} ({t})
              </option>
            ))}
          </select>
        </Field>
        {hasOptions(draft.type) && (
          <Field label="Options" hint="One allowed value a line" error={errorOf('options')}>
            <textarea value={draft.options} onChange={(e) => set('options', e.target.value)} rows={5} />
          </Field>
        )}
        <div className={`field checkbox-field${errorOf('is_required') ? ' invalid' : ''}`}>
          <label>
            <input type="checkbox" checked={draft.is_required} onChange={(e) => set('is_required', e.target.checked)} /> Required: every new product must carry
            a value
          </label>
          {errorOf('is_required') && <small className="field-error">{errorOf('is_required')}</small>}
        </div>
        <AttributeChannelsField selected={draft.required_channels} error={errorOf('required_channels') ?? null} onChange={(c) => set('required_channels', c)} />
        <FormEnd
          general={general}
          fieldMessage={field ? message : null}
          saving={save.isPending}
          submitLabel={attribute ? 'Save attribute' : 'Create attribute'}
          onCancel={attribute ? onCancel : undefined}
        />
      </form>
    </section>
  );
}
