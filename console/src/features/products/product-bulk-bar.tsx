// The selection's bar on the product list: how many are selected (rows picked on any page, or every product the
// filters match), one action for all of them, and Undo after it. Archiving asks first; the change is one request.
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { NamedOptions } from '../../components/named-options';
import type { IntegrationSummary } from '../bridge/api';
import { useBrands, useCategories, useChannels } from '../catalogue/api';
import { CHANNELS, STATUS_LABEL, STATUSES } from './product-model';
import { type BulkAction, type BulkFilter, type BulkRequest, MAX_LIST_PUSH, useBulkChange, useBulkPush, useUndoBulk } from './workbench-api';

export interface Selection {
  /** Every product the filters match, on every page. */
  all: boolean;
  ids: Set<number>;
}

type Choice = BulkAction | 'push' | '';
const ACTIONS: [Choice, string][] = [
  ['set_status', 'Set status'],
  ['add_channel', 'Add to channel'],
  ['remove_channel', 'Remove from channel'],
  ['add_category', 'Add to category'],
  ['remove_category', 'Remove from category'],
  ['set_brand', 'Set brand'],
  ['push', 'Push to Shopify'],
  ['archive', 'Archive'],
];

export function BulkBar({
  selection,
  total,
  filter,
  stores,
  onClear,
}: {
  selection: Selection;
  total: number;
  filter: BulkFilter;
  stores: IntegrationSummary[];
  onClear: () => void;
}) {
  const id = useId();
  const [action, setAction] = useState<Choice>('');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<{ text: string; undo?: number } | null>(null);
  const { confirm, dialog } = useConfirm();
  const change = useBulkChange();
  const undo = useUndoBulk();
  const push = useBulkPush();
  const count = selection.all ? total : selection.ids.size;
  const noun = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'product' : 'products'}`;
  const error = change.error ?? undo.error ?? push.error;

  const apply = async () => {
    setMessage(null);
    if (action === 'push') {
      const pushed = await push.mutateAsync({ integrationId: Number(value), ...(selection.all ? { filter } : { ids: [...selection.ids] }) });
      setMessage({ text: `Sent ${noun(pushed)} to the store.` });
      return;
    }
    if (!action) return;
    if (action === 'archive' || (action === 'set_status' && value === 'archived')) {
      if (!(await confirm(`Archive ${noun(count)}? You can undo it right after.`, { yes: `Archive ${noun(count)}` }))) return;
    }
    const target = selection.all ? { filter } : { ids: [...selection.ids] };
    const numeric = action.endsWith('_category') || (action === 'set_brand' && value !== '');
    const body: BulkRequest = {
      ...target,
      action,
      ...(action === 'archive' ? {} : { value: numeric ? Number(value) : action === 'set_brand' ? null : value }),
    };
    const done = await change.mutateAsync(body);
    setMessage({
      text: `Changed ${noun(done.changed)}${done.changed < done.matched ? ` (${noun(done.matched - done.changed)} had it already)` : ''}.`,
      undo: done.id,
    });
  };

  const run = (fn: () => Promise<void>) => fn().catch(() => undefined);
  const needsValue = action !== '' && action !== 'archive';
  const canPush = stores.length > 0 && count > 0 && count <= MAX_LIST_PUSH;
  return (
    <section className="bulk-bar" aria-label="Selected products">
      <p role="status" aria-live="polite">
        <strong>{noun(count)} selected</strong>
        {selection.all && <span className="hint"> (every product that matches)</span>}{' '}
        {stores.length > 0 && count > MAX_LIST_PUSH && (
          <span className="hint">
            To send more than {MAX_LIST_PUSH.toLocaleString()} products to Shopify, start a <Link to={`/bridge/${stores[0].id}/sync`}>full sync</Link> of the
            store.{' '}
          </span>
        )}
        <button type="button" className="button link" onClick={onClear}>
          Clear selection
        </button>
      </p>
      <div className="bulk-controls">
        <label htmlFor={`${id}-action`}>Action</label>
        <select
          id={`${id}-action`}
          value={action}
          onChange={(e) => {
            setAction(e.target.value as Choice);
            setValue(e.target.value === 'push' ? String(stores[0]?.id ?? '') : '');
          }}
        >
          <option value="">Choose…</option>
          {ACTIONS.filter(([a]) => a !== 'push' || canPush).map(([a, label]) => (
            <option key={a} value={a}>
              {label}
            </option>
          ))}
        </select>
        {needsValue && (
          <>
            <label htmlFor={`${id}-value`}>{action === 'push' ? 'Store' : 'Value'}</label>
            <ValueSelect id={`${id}-value`} action={action} value={value} onChange={setValue} stores={stores} />
          </>
        )}
        <button
          type="button"
          className="button primary"
          disabled={!action || (needsValue && value === '' && action !== 'set_brand') || change.isPending || push.isPending}
          onClick={() => run(apply)}
        >
          {change.isPending || push.isPending ? 'Applying…' : 'Apply'}
        </button>
      </div>
      {message && (
        <p className="bulk-done" role="status">
          {message.text}{' '}
          {message.undo !== undefined && (
            <button
              type="button"
              className="button secondary"
              disabled={undo.isPending}
              onClick={() =>
                run(async () => {
                  const done = await undo.mutateAsync(message.undo as number);
                  setMessage({ text: `Undone: ${noun(done.changed)} as they were.` });
                })
              }
            >
              Undo
            </button>
          )}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error instanceof ApiError ? error.message : 'The change could not be made'}
        </p>
      )}
      {dialog}
    </section>
  );
}

function ValueSelect({
  id,
  action,
  value,
  onChange,
  stores,
}: {
  id: string;
  action: Choice;
  value: string;
  onChange: (v: string) => void;
  stores: IntegrationSummary[];
}) {
  const brands = useBrands();
  const channels = useChannels();
  const categories = useCategories();
  const select = (children: React.ReactNode) => (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {children}
    </select>
  );
  if (action === 'set_status')
    return select(
      <>
        <option value="">Choose…</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABEL[s]}
          </option>
        ))}
      </>,
    );
  if (action === 'add_channel' || action === 'remove_channel') {
    const options = channels.data ?? CHANNELS.map((v) => ({ value: v, label: v }));
    return select(
      <>
        <option value="">Choose…</option>
        {options.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </>,
    );
  }
  if (action === 'add_category' || action === 'remove_category')
    return select(
      <>
        <option value="">Choose…</option>
        {categories.data?.map((c) => (
          <option key={c.id} value={c.id}>
            {'\u00a0\u00a0'.repeat(c.level)}
            {c.name}
          </option>
        ))}
      </>,
    );
  if (action === 'set_brand') return select(<NamedOptions none="No brand" items={brands.data} />);
  return select(
    stores.map((s) => (
      <option key={s.id} value={s.id}>
        {s.shop_domain}
      </option>
    )),
  );
}
