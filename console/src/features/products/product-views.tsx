// The list's saved views: the signed-in user's filters, columns and sort by name. Choosing one applies it; Save view
// keeps the list as it is now under a name (the same name replaces it); Delete asks first.
import { useId, useState } from 'react';
import { ApiError } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import type { ListFilters } from './product-model';
import { type BulkFilter, useDeleteView, useSaveView, useViews } from './workbench-api';

export interface SavedView {
  id: number;
  name: string;
  filters: BulkFilter;
  columns: string[];
  sort: string | null;
}

/** The list's filters as a view stores them (the server's names). */
export function viewFilters(f: ListFilters): BulkFilter {
  const out: BulkFilter = {};
  if (f.q.trim()) out.search = f.q.trim();
  if (f.status) out.status = f.status;
  if (f.brand) out.brand = f.brand;
  if (f.channel) out.channel = f.channel;
  if (f.category) out.category = f.category;
  return out;
}

export function ViewsMenu({ filters, columns, onApply }: { filters: ListFilters; columns: string[]; onApply: (view: SavedView) => void }) {
  const id = useId();
  const views = useViews();
  const saveView = useSaveView();
  const deleteView = useDeleteView();
  const { confirm, dialog } = useConfirm();
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const current = views.data?.find((v) => String(v.id) === chosen);
  const error = saveView.error ?? deleteView.error;

  return (
    <section className="product-views" aria-label="Saved views">
      <label htmlFor={`${id}-view`}>View</label>
      <select
        id={`${id}-view`}
        value={chosen}
        onChange={(e) => {
          setChosen(e.target.value);
          const view = views.data?.find((v) => String(v.id) === e.target.value);
          if (view) {
            setName(view.name);
            onApply(view);
          }
        }}
      >
        <option value="">{views.isPending ? 'Loading views…' : 'All products'}</option>
        {views.data?.map((v) => (
          <option key={v.id} value={v.id}>
            {v.name}
          </option>
        ))}
      </select>
      <form
        className="view-save"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          saveView.mutate(
            { name: name.trim(), filters: viewFilters(filters), columns, sort: filters.sort || null },
            { onSuccess: (v) => setChosen(String(v.id)) },
          );
        }}
      >
        <label htmlFor={`${id}-name`}>View name</label>
        <input id={`${id}-name`} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="e.g. Active shirts" />
        <button type="submit" className="button secondary" disabled={!name.trim() || saveView.isPending}>
          Save view
        </button>
        {current && (
          <button
            type="button"
            className="button danger"
            disabled={deleteView.isPending}
            onClick={() =>
              void confirm(`Delete the view “${current.name}”? The products stay as they are.`, { yes: 'Delete view' }).then((ok) => {
                if (ok) deleteView.mutate(current.id, { onSuccess: () => setChosen('') });
              })
            }
          >
            Delete view
          </button>
        )}
      </form>
      {error && (
        <p className="error" role="alert">
          {error instanceof ApiError ? error.message : 'The view could not be saved'}
        </p>
      )}
      {dialog}
    </section>
  );
}
