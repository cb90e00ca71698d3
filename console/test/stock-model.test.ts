// The Stock section's table, pure: cells (stored or edited), totals per row, per warehouse and in all, and the changes a
// save sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cellKey,
  cellText,
  grandTotal,
  parseCellKey,
  pendingChanges,
  quantityProblem,
  rowTotal,
  type StockRow,
  warehouseTotal,
} from '../src/features/products/stock-model.ts';

const leveled: StockRow = {
  variantId: 7,
  label: 'Tote / Ecru',
  count: 9,
  levels: [
    { warehouse_id: 1, quantity: 4 },
    { warehouse_id: 2, quantity: 5 },
  ],
};
const direct: StockRow = { variantId: 8, label: 'Tote / Black', count: 3, levels: [] };
const rows = [leveled, direct];

test('cell keys name the row (p: the product) and the warehouse (0: the count kept without warehouses)', () => {
  assert.equal(cellKey(leveled, 2), '7:2');
  assert.equal(cellKey({ variantId: null }, 0), 'p:0');
  assert.deepEqual(parseCellKey('7:2'), { variantId: 7, warehouseId: 2 });
  assert.deepEqual(parseCellKey('p:0'), { variantId: null, warehouseId: 0 });
});

test('totals follow the edits; a row without levels shows its own count until a level is typed', () => {
  assert.equal(cellText(leveled, 1, {}), '4');
  assert.equal(cellText(leveled, 3, {}), '0');
  assert.equal(rowTotal(leveled, [1, 2], {}), 9);
  assert.equal(rowTotal(direct, [1, 2], {}), 3);
  assert.equal(grandTotal(rows, [1, 2], {}), 12);
  const edits = { '7:1': '10', '8:2': '2' };
  assert.equal(rowTotal(leveled, [1, 2], edits), 15);
  assert.equal(rowTotal(direct, [1, 2], edits), 2, 'a typed level replaces the count');
  assert.equal(warehouseTotal(rows, 1, edits), 10);
  assert.equal(warehouseTotal(rows, 2, edits), 7);
  assert.equal(grandTotal(rows, [1, 2], edits), 17);
  assert.equal(rowTotal(leveled, [1, 2], { '7:1': 'x' }), 9, 'a cell that is not a number counts as stored');
  assert.equal(rowTotal(direct, [], { '8:0': '6' }), 6, 'without warehouses: the count');
});

test('a save sends the cells that change and names the ones that cannot be read', () => {
  assert.deepEqual(pendingChanges(rows, { '7:1': '4', '7:2': '6', '8:1': '-1', '8:0': '-2' }), {
    changes: [
      ['7:2', 6],
      ['8:0', -2],
    ],
    problems: { '8:1': 'must be 0 or more' },
  });
  assert.equal(quantityProblem('1.5', 1), 'must be a whole number');
  assert.equal(quantityProblem('', 1), 'must be a whole number');
  assert.equal(quantityProblem('2000000000', 1), 'must be at most 1,000,000,000');
  assert.equal(quantityProblem(' 3 ', 1), null);
});
