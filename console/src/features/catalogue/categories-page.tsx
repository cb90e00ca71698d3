// Categories: the whole tree (GET /api/categories/tree), a new category (POST /api/categories), a name or description
// changed in place (PUT /api/categories/{id}), a move by drag and drop or with each category's "Move … to" select
// (POST /api/categories/{id}/move, shown at once and rolled back if the server refuses), and delete
// (DELETE /api/categories/{id}, after a confirmation; the server refuses a category that still has children).
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { fieldErrors, messageOf } from '../../api/errors';
import { useConfirm } from '../../components/confirm';
import { Field } from '../../components/field';
import { Page } from '../../components/page';
import { Empty, ErrorBanner, Loading } from '../../components/status';
import { useCategoryTree, useCreateCategory, useDeleteCategory, useMoveCategory } from './api';
import { type CategoryActions, CategoryItem, type DragState } from './category-item';
import { type CategoryNode, canMove, findNode, flatten, indentedName } from './category-tree-model';
import './categories-page.css';

export default function CategoriesPage() {
  const tree = useCategoryTree();
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(null);
  const [drag, setDrag] = useState<DragState>({ dragging: null, over: null });
  const [editing, setEditing] = useState<number | null>(null);
  const refocus = useRef<number | null>(null);
  const treeHeading = useRef<HTMLHeadingElement>(null);
  const nodes = tree.data?.categories ?? [];

  const say = (text: string) => {
    setActionError(null);
    setNotice(text);
  };
  const fail = (err: unknown) => {
    setNotice('');
    setActionError(err);
  };
  const nameOf = (id: number | null) => (id === null ? 'the top level' : (findNode(nodes, id)?.name ?? `category ${id}`));

  // Shown at once, rolled back if the server refuses (the tree's cache: useMoveCategory).
  const move = useMoveCategory();
  const remove = useDeleteCategory();

  const moveTo = (id: number, parentId: number | null) => {
    const node = findNode(nodes, id);
    if (!node || node.parent_id === parentId) return;
    if (!canMove(nodes, id, parentId)) {
      fail(new Error(`${node.name} cannot move under itself or one of its own subcategories.`));
      return;
    }
    if (document.activeElement?.id === `category-${id}-move`) refocus.current = id;
    move
      .mutateAsync({ id, parentId })
      .then(
        (moved) => say(`Moved ${moved.name} to ${nameOf(parentId)}.`),
        (err) => fail(new Error(`${node.name} was not moved: ${messageOf(err)}`)),
      )
      .finally(() =>
        requestAnimationFrame(() => {
          refocus.current = null;
        }),
      );
  };

  // A moved category is drawn in its new place (and back again if the server refuses): the keyboard's focus follows
  // its select there, unless the merchant has gone on to another control meanwhile.
  useEffect(() => {
    if (refocus.current === null) return;
    const select = document.getElementById(`category-${refocus.current}-move`);
    const active = document.activeElement;
    if (select && select !== active && (active === null || active === document.body)) select.focus();
  });

  const removeAsked = async (node: CategoryNode) => {
    const products = node.product_count === 1 ? '1 product' : `${node.product_count} products`;
    const ok = await confirm(
      node.children.length > 0
        ? `Delete ${node.name}? It still has subcategories, which must be moved or deleted first; the server will refuse otherwise.`
        : `Delete ${node.name}? ${node.product_count > 0 ? `Its ${products} will no longer be in this category.` : 'It holds no products.'}`,
    );
    if (!ok) return;
    try {
      // Resolves once the tree has been read again.
      const result = await remove.mutateAsync(node);
      say(`Deleted ${node.name}${result.unassigned_products > 0 ? `; ${result.unassigned_products} products were taken out of it` : ''}.`);
      if (editing === node.id) setEditing(null);
      treeHeading.current?.focus();
    } catch (err) {
      fail(new Error(`${node.name} was not deleted: ${messageOf(err)}`));
    }
  };

  const actions: CategoryActions = {
    tree: nodes,
    drag,
    editing,
    canDropOn: (target) => {
      if (drag.dragging === null) return false;
      const node = findNode(nodes, drag.dragging);
      const parentId = target === 'root' ? null : target;
      return !!node && node.parent_id !== parentId && canMove(nodes, drag.dragging, parentId);
    },
    onDragStart: (id) => setDrag({ dragging: id, over: null }),
    onDragOver: (over) => setDrag((d) => ({ ...d, over })),
    onDrop: (target) => {
      const id = drag.dragging;
      setDrag({ dragging: null, over: null });
      if (id !== null) moveTo(id, target === 'root' ? null : target);
    },
    onDragEnd: () => setDrag({ dragging: null, over: null }),
    onMove: moveTo,
    onEdit: setEditing,
    onSaved: (name) => say(`Saved ${name}.`),
    onDelete: (node) => void removeAsked(node),
  };

  const rootOver = drag.over === 'root';
  return (
    <Page title="Categories">
      {dialog}
      <div role="status" aria-live="polite" className="live-region">
        {notice && <p className="banner success">{notice}</p>}
      </div>
      <ErrorBanner error={actionError} />
      <div className="categories-layout">
        <section className="categories-tree" aria-labelledby="category-tree-heading">
          <h2 id="category-tree-heading" ref={treeHeading} tabIndex={-1}>
            Category tree{tree.data ? ` (${tree.data.total})` : ''}
          </h2>
          {tree.isPending ? (
            <Loading label="Loading categories…" />
          ) : tree.isError ? (
            <ErrorBanner error={tree.error} onRetry={() => tree.refetch()} />
          ) : nodes.length === 0 ? (
            <Empty>No categories yet. Create the first one with the form.</Empty>
          ) : (
            <>
              <p className="hint">
                Drag a category onto another to put it inside, or onto the zone below to make it top-level. Without a mouse, use its “Move to” list.
              </p>
              {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for the mouse; the "Move to" lists do the same from the keyboard */}
              <div
                className={`category-root-drop${rootOver ? ' drop-target' : ''}${drag.dragging !== null ? ' active' : ''}`}
                data-testid="category-root-drop"
                onDragEnter={(event) => {
                  if (!actions.canDropOn('root')) return;
                  event.preventDefault();
                  if (!rootOver) actions.onDragOver('root');
                }}
                onDragOver={(event) => {
                  if (!actions.canDropOn('root')) return;
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                  if (!rootOver) actions.onDragOver('root');
                }}
                onDragLeave={() => rootOver && actions.onDragOver(null)}
                onDrop={(event) => {
                  event.preventDefault();
                  actions.onDrop('root');
                }}
              >
                Drop here to make a category top-level
              </div>
              <ul className="category-list category-root">
                {nodes.map((node) => (
                  <CategoryItem key={node.id} node={node} actions={actions} />
                ))}
              </ul>
            </>
          )}
        </section>
        <NewCategory tree={nodes} onCreated={(name) => say(`Created ${name}.`)} />
      </div>
    </Page>
  );
}

function NewCategory({ tree, onCreated }: { tree: CategoryNode[]; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [parent, setParent] = useState('');
  const create = useCreateCategory();
  const nameInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      // Resolves once the tree has been read again.
      const created = await create.mutateAsync({
        name: name.trim(),
        description: description.trim() || null,
        parent_id: parentValue === '' ? null : Number(parentValue),
      });
      onCreated(created.name);
      setName('');
      setDescription('');
      nameInput.current?.focus();
    } catch {
      // create.error says why, beside the field it names.
    }
  };
  const error = create.error;
  const fields = fieldErrors(error);
  const general = error && !fields.name && !fields.description && !fields.parent_id ? messageOf(error) : null;
  const choices = flatten(tree);
  // A parent deleted meanwhile is no longer a choice.
  const parentValue = choices.some((c) => String(c.id) === parent) ? parent : '';

  return (
    <section className="card categories-new" aria-labelledby="new-category-heading">
      <h2 id="new-category-heading">New category</h2>
      <form onSubmit={submit}>
        <Field label="Name" error={fields.name}>
          <input ref={nameInput} value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} />
        </Field>
        <Field label="Description" hint="Optional" error={fields.description}>
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        </Field>
        <Field label="Parent category" error={fields.parent_id}>
          <select value={parentValue} onChange={(e) => setParent(e.target.value)}>
            <option value="">None (top level)</option>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {indentedName(c)}
              </option>
            ))}
          </select>
        </Field>
        {general && (
          <p role="alert" className="banner error">
            {general}
          </p>
        )}
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create category'}
        </button>
      </form>
    </section>
  );
}
