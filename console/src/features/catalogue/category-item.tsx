// One category of the tree: its name, how many products it holds, and what can be done to it. It moves by drag and
// drop onto another category (or the top-level zone), or, from the keyboard and on touch screens, with its
// "Move … to" select; both go through the same move of the page.
import { type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { fieldErrors, messageOf } from '../../api/errors';
import { Field } from '../../components/field';
import { useUpdateCategory } from './api';
import { type CategoryNode, indentedName, moveTargets } from './category-tree-model';

export interface DragState {
  /** the category being dragged, or null */
  dragging: number | null;
  /** where it would land now: a category id, 'root', or null */
  over: number | 'root' | null;
}

export interface CategoryActions {
  tree: CategoryNode[];
  drag: DragState;
  editing: number | null;
  canDropOn: (target: number | 'root') => boolean;
  onDragStart: (id: number) => void;
  onDragOver: (target: number | 'root' | null) => void;
  onDrop: (target: number | 'root') => void;
  onDragEnd: () => void;
  onMove: (id: number, parentId: number | null) => void;
  onEdit: (id: number | null) => void;
  /** A category's edit was saved (the page says so). */
  onSaved: (name: string) => void;
  onDelete: (node: CategoryNode) => void;
}

export function CategoryItem({ node, actions }: { node: CategoryNode; actions: CategoryActions }) {
  const { drag, editing } = actions;
  const nameId = `category-${node.id}-name`;
  const moveId = `category-${node.id}-move`;
  const isOver = drag.over === node.id;

  const dragOver = (event: DragEvent) => {
    if (drag.dragging === null || !actions.canDropOn(node.id)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (drag.over !== node.id) actions.onDragOver(node.id);
  };

  return (
    <li className="category-item" aria-labelledby={nameId}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: drag and drop for the mouse; the "Move … to" select does the same from the keyboard */}
      <div
        className={`category-row${isOver ? ' drop-target' : ''}${drag.dragging === node.id ? ' dragging' : ''}`}
        draggable={editing !== node.id}
        onDragStart={(event) => {
          event.dataTransfer.setData('text/plain', String(node.id));
          event.dataTransfer.effectAllowed = 'move';
          actions.onDragStart(node.id);
        }}
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={(event) => {
          if (isOver && !event.currentTarget.contains(event.relatedTarget as Node | null)) actions.onDragOver(null);
        }}
        onDrop={(event) => {
          event.preventDefault();
          actions.onDrop(node.id);
        }}
        onDragEnd={actions.onDragEnd}
      >
        <span className="category-grip" aria-hidden="true" title="Drag to move">
          ⠿
        </span>
        <span className="category-name">
          <strong id={nameId}>{node.name}</strong>
          <span className="category-meta">
            {node.product_count === 1 ? '1 product' : `${node.product_count.toLocaleString()} products`}
            {node.description ? ` · ${node.description}` : ''}
          </span>
        </span>
        <span className="category-actions">
          <span className="category-move">
            <label htmlFor={moveId}>
              Move<span className="visually-hidden"> {node.name}</span> to
            </label>
            <select
              id={moveId}
              value={node.parent_id === null ? 'root' : String(node.parent_id)}
              onChange={(event) => actions.onMove(node.id, event.target.value === 'root' ? null : Number(event.target.value))}
            >
              <option value="root">Top level</option>
              {moveTargets(actions.tree, node.id).map((c) => (
                <option key={c.id} value={c.id}>
                  {indentedName(c)}
                </option>
              ))}
            </select>
          </span>
          <button
            type="button"
            id={`category-${node.id}-edit`}
            className="button secondary small"
            aria-expanded={editing === node.id}
            onClick={() => actions.onEdit(editing === node.id ? null : node.id)}
          >
            Edit<span className="visually-hidden"> {node.name}</span>
          </button>
          <button type="button" className="button secondary small danger-text" onClick={() => actions.onDelete(node)}>
            Delete<span className="visually-hidden"> {node.name}</span>
          </button>
        </span>
      </div>
      {editing === node.id && <CategoryEditForm node={node} actions={actions} />}
      {node.children.length > 0 && (
        <ul className="category-list">
          {node.children.map((child) => (
            <CategoryItem key={child.id} node={child} actions={actions} />
          ))}
        </ul>
      )}
    </li>
  );
}

function CategoryEditForm({ node, actions }: { node: CategoryNode; actions: CategoryActions }) {
  const [name, setName] = useState(node.name);
  const [description, setDescription] = useState(node.description ?? '');
  const save = useUpdateCategory();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const close = () => {
    actions.onEdit(null);
    // Back to the button that opened the form.
    requestAnimationFrame(() => document.getElementById(`category-${node.id}-edit`)?.focus());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { id: node.id, fields: { name: name.trim(), description: description.trim() === '' ? null : description.trim() } },
      {
        onSuccess: (saved) => {
          actions.onSaved(saved.name);
          close();
        },
      },
    );
  };
  const error = save.error;
  const fields = fieldErrors(error);
  const general = error && !fields.name && !fields.description ? messageOf(error) : null;

  return (
    <form
      className="category-edit card"
      onSubmit={submit}
      aria-label={`Edit ${node.name}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close();
      }}
    >
      <Field label="Name" error={fields.name}>
        <input ref={first} value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} />
      </Field>
      <Field label="Description" error={fields.description}>
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={2} />
      </Field>
      {general && (
        <p role="alert" className="banner error">
          {general}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary small" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button secondary small" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
