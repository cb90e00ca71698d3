// The category tree as the page reads it: the selects' choices, and the optimistic tree after a move.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CategoryNode, canMove, flatten, indentedName, moveNode, moveTargets, replaceNode } from '../src/features/catalogue/category-tree-model.ts';

const node = (id: number, name: string, children: CategoryNode[] = []): CategoryNode => ({
  id,
  name,
  description: null,
  parent_id: null,
  level: 0,
  path: [id],
  position: 0,
  product_count: 0,
  children_count: children.length,
  children,
});

// Apparel > Tops > Knitwear; Footwear
const tree = () => [node(1, 'Apparel', [node(2, 'Tops', [node(3, 'Knitwear')])]), node(4, 'Footwear')];

test('flattened in tree order with depths, indented for a select', () => {
  const flat = flatten(tree());
  assert.deepEqual(
    flat.map((c) => [c.id, c.level, c.parentId]),
    [
      [1, 0, null],
      [2, 1, 1],
      [3, 2, 2],
      [4, 0, null],
    ],
  );
  assert.equal(indentedName(flat[2]!), '\u2014 \u2014 Knitwear');
});

test('a category never moves under itself or its descendants', () => {
  assert.deepEqual(
    moveTargets(tree(), 2).map((c) => c.id),
    [1, 4],
  );
  assert.equal(canMove(tree(), 1, 3), false);
  assert.equal(canMove(tree(), 1, 1), false);
  assert.equal(canMove(tree(), 3, 4), true);
  assert.equal(canMove(tree(), 3, null), true);
  assert.equal(canMove(tree(), 3, 99), false);
});

test('a move appends under the new parent and renumbers levels, paths, positions and counts', () => {
  const moved = moveNode(tree(), 2, 4);
  assert.deepEqual(
    moved.map((n) => [n.id, n.children.map((c) => c.id)]),
    [
      [1, []],
      [4, [2]],
    ],
  );
  const tops = moved[1]!.children[0]!;
  assert.deepEqual([tops.parent_id, tops.level, tops.path, tops.position], [4, 1, [4, 2], 0]);
  assert.deepEqual(tops.children[0]!.path, [4, 2, 3]);
  assert.equal(moved[0]!.children_count, 0);
  assert.equal(moved[1]!.children_count, 1);

  const toRoot = moveNode(tree(), 3, null);
  assert.deepEqual(
    toRoot.map((n) => [n.id, n.position, n.level]),
    [
      [1, 0, 0],
      [4, 1, 0],
      [3, 2, 0],
    ],
  );
  // An impossible move leaves the tree as it was.
  const before = tree();
  assert.equal(moveNode(before, 1, 3), before);
});

test('an edit replaces the fields of one category only', () => {
  const edited = replaceNode(tree(), 3, { name: 'Sweaters', description: 'Warm' });
  assert.equal(edited[0]!.children[0]!.children[0]!.name, 'Sweaters');
  assert.equal(edited[0]!.children[0]!.children[0]!.description, 'Warm');
  assert.equal(edited[1]!.name, 'Footwear');
});
