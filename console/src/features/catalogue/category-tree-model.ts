// The category tree as the page reads it: flattened for selects, the places a category may move to, and the tree after
// a move (the optimistic answer, replaced by the server's tree when the move is confirmed). Pure: no React, no API.

export interface CategoryNode {
  id: number;
  name: string;
  description: string | null;
  parent_id: number | null;
  level: number;
  path: number[];
  position: number;
  product_count: number;
  children_count: number;
  children: CategoryNode[];
}

export interface FlatCategory {
  id: number;
  name: string;
  level: number;
  parentId: number | null;
}

/** Every category, depth first in tree order, with its depth. */
export function flatten(tree: readonly CategoryNode[], level = 0, parentId: number | null = null): FlatCategory[] {
  return tree.flatMap((node) => [{ id: node.id, name: node.name, level, parentId }, ...flatten(node.children, level + 1, node.id)]);
}

/** The node with this id, anywhere in the tree. */
export function findNode(tree: readonly CategoryNode[], id: number): CategoryNode | null {
  for (const node of tree) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return null;
}

/** The category and all below it: the places it cannot move to. */
export function subtreeIds(tree: readonly CategoryNode[], id: number): Set<number> {
  const node = findNode(tree, id);
  const ids = new Set<number>();
  const walk = (n: CategoryNode) => {
    ids.add(n.id);
    for (const child of n.children) walk(child);
  };
  if (node) walk(node);
  return ids;
}

/** Whether `id` may become a child of `parentId` (null: the top level): never under itself or its own descendants. */
export function canMove(tree: readonly CategoryNode[], id: number, parentId: number | null): boolean {
  if (parentId === null) return true;
  if (!findNode(tree, parentId)) return false;
  return !subtreeIds(tree, id).has(parentId);
}

/** The parents a category may move to (its current one included), in tree order. */
export function moveTargets(tree: readonly CategoryNode[], id: number): FlatCategory[] {
  const excluded = subtreeIds(tree, id);
  return flatten(tree).filter((c) => !excluded.has(c.id));
}

/** An option's text: indented by depth, so the select reads as the tree. */
export const indentedName = (c: FlatCategory) => `${'\u2014 '.repeat(c.level)}${c.name}`;

/**
 * The tree after moving `id` under `parentId` (null: the top level), appended as the last child as the server does when
 * no position is sent. Levels, paths, positions and child counts are renumbered. An impossible move returns the tree
 * unchanged.
 */
export function moveNode(tree: readonly CategoryNode[], id: number, parentId: number | null): CategoryNode[] {
  const moving = findNode(tree, id);
  if (!moving || !canMove(tree, id, parentId)) return tree as CategoryNode[];
  const without = (nodes: readonly CategoryNode[]): CategoryNode[] => nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: without(n.children) }));
  const insert = (nodes: CategoryNode[]): CategoryNode[] =>
    nodes.map((n) => (n.id === parentId ? { ...n, children: [...n.children, moving] } : { ...n, children: insert(n.children) }));
  const pruned = without(tree);
  return renumber(parentId === null ? [...pruned, moving] : insert(pruned), null, []);
}

function renumber(nodes: readonly CategoryNode[], parentId: number | null, path: number[]): CategoryNode[] {
  return nodes.map((n, position) => {
    const own = [...path, n.id];
    const children = renumber(n.children, n.id, own);
    return { ...n, parent_id: parentId, level: path.length, path: own, position, children, children_count: children.length };
  });
}

/** The tree with one category's fields replaced (an edit answered by the server). */
export function replaceNode(tree: readonly CategoryNode[], id: number, fields: Partial<Pick<CategoryNode, 'name' | 'description'>>): CategoryNode[] {
  return tree.map((n) => (n.id === id ? { ...n, ...fields } : { ...n, children: replaceNode(n.children, id, fields) }));
}
