import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellName, cellOf, gridMove } from '../src/features/products/variant-grid-model';

const size = { rows: 3, cols: 4 };
const inside = { atStart: false, atEnd: false };
const edges = { atStart: true, atEnd: true };

test('up, down and Enter go to the same column of the row above or below, and stop at the grid edge', () => {
  assert.deepEqual(gridMove({ row: 1, col: 2 }, { key: 'ArrowUp', ...inside }, size), { row: 0, col: 2 });
  assert.deepEqual(gridMove({ row: 1, col: 2 }, { key: 'ArrowDown', ...inside }, size), { row: 2, col: 2 });
  assert.deepEqual(gridMove({ row: 1, col: 2 }, { key: 'Enter', ...inside }, size), { row: 2, col: 2 });
  assert.deepEqual(gridMove({ row: 1, col: 2 }, { key: 'Enter', shiftKey: true, ...inside }, size), { row: 0, col: 2 });
  assert.equal(gridMove({ row: 0, col: 0 }, { key: 'ArrowUp', ...edges }, size), null);
  assert.equal(gridMove({ row: 2, col: 0 }, { key: 'ArrowDown', ...edges }, size), null);
  assert.equal(gridMove({ row: 2, col: 0 }, { key: 'Enter', ...edges }, size), null);
});

test('left and right leave a cell only from the edge of its text', () => {
  assert.equal(gridMove({ row: 0, col: 1 }, { key: 'ArrowLeft', atStart: false, atEnd: true }, size), null);
  assert.deepEqual(gridMove({ row: 0, col: 1 }, { key: 'ArrowLeft', atStart: true, atEnd: false }, size), { row: 0, col: 0 });
  assert.equal(gridMove({ row: 0, col: 1 }, { key: 'ArrowRight', atStart: true, atEnd: false }, size), null);
  assert.deepEqual(gridMove({ row: 0, col: 1 }, { key: 'ArrowRight', atStart: false, atEnd: true }, size), { row: 0, col: 2 });
  assert.equal(gridMove({ row: 0, col: 0 }, { key: 'ArrowLeft', ...edges }, size), null);
  assert.equal(gridMove({ row: 0, col: 3 }, { key: 'ArrowRight', ...edges }, size), null);
});

test('other keys are the cell’s own', () => {
  for (const key of ['a', 'Tab', 'Home', ' ', 'Escape']) assert.equal(gridMove({ row: 1, col: 1 }, { key, ...edges }, size), null);
});

test('a cell’s name goes both ways', () => {
  assert.deepEqual(cellOf(cellName({ row: 12, col: 3 })), { row: 12, col: 3 });
  assert.equal(cellOf('x:1'), null);
  assert.equal(cellOf(undefined), null);
});
