// The bulk-edit grid's pure logic: keys, copy, paste, fill down, checks and the batch it saves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  batchBody,
  cellError,
  changedCount,
  copyColumn,
  fillDown,
  gridErrors,
  gridRows,
  moveCursor,
  paste,
  setCell,
} from '../src/features/products/grid-model.ts';

const products = [
  { id: 1, sku: 'A', name: 'Apple', price: '1.5000', sale_price: null, compare_at_price: null, stock: 3, status: 'active' },
  { id: 2, sku: 'B', name: 'Banana', price: null, sale_price: '2.0000', compare_at_price: '3.2500', stock: 0, status: 'draft' },
  { id: 3, sku: 'C', name: 'Cherry', price: '10.0000', sale_price: null, compare_at_price: null, stock: 7, status: 'draft' },
];

test('rows show the server values as a merchant reads them', () => {
  const rows = gridRows(products);
  assert.deepEqual(rows[0].values, { name: 'Apple', price: '1.50', sale_price: '', compare_at_price: '', stock: '3', status: 'active' });
  assert.equal(rows[1].values.compare_at_price, '3.25');
  assert.deepEqual(batchBody(rows), { products: [] }, 'nothing changed, nothing sent');
});

test('arrow keys move the cursor and stop at the edges', () => {
  assert.deepEqual(moveCursor({ row: 0, col: 0 }, 'ArrowUp', 3), { row: 0, col: 0 });
  assert.deepEqual(moveCursor({ row: 0, col: 0 }, 'ArrowDown', 3), { row: 1, col: 0 });
  assert.deepEqual(moveCursor({ row: 2, col: 0 }, 'ArrowDown', 3), { row: 2, col: 0 });
  assert.deepEqual(moveCursor({ row: 1, col: 0 }, 'ArrowRight', 3), { row: 1, col: 1 });
  assert.deepEqual(moveCursor({ row: 1, col: 5 }, 'ArrowRight', 3), { row: 1, col: 5 });
  assert.deepEqual(moveCursor({ row: 1, col: 3 }, 'Home', 3), { row: 1, col: 0 });
  assert.deepEqual(moveCursor({ row: 1, col: 3 }, 'End', 3), { row: 1, col: 5 });
  assert.deepEqual(moveCursor({ row: 1, col: 3 }, 'x', 3), { row: 1, col: 3 });
});

test('a column copies from the cursor down, one value a line, and pastes back elsewhere', () => {
  const rows = gridRows(products);
  assert.equal(copyColumn(rows, { row: 0, col: 1 }), '1.50\n\n10.00');
  assert.equal(copyColumn(rows, { row: 1, col: 4 }), '0\n7');
  const pasted = paste(rows, { row: 0, col: 3 }, copyColumn(rows, { row: 0, col: 1 }));
  assert.deepEqual(
    pasted.map((r) => r.values.compare_at_price),
    ['1.50', '', '10.00'],
  );
});

test("a spreadsheet's block pastes from the cursor down and right; what falls outside is left out", () => {
  const rows = paste(gridRows(products), { row: 1, col: 1 }, '4,99\t3.00\n5\t\t1\textra\textra\n6\n7\r\n');
  assert.deepEqual(rows[1].values.price, '4.99', 'a decimal comma is read as a point');
  assert.deepEqual(rows[1].values.sale_price, '3.00');
  assert.deepEqual([rows[2].values.price, rows[2].values.sale_price, rows[2].values.compare_at_price], ['5', '', '1']);
  assert.equal(rows.length, 3, 'no row is added');
  assert.equal(rows[0].values.price, '1.50', 'rows above the cursor are untouched');
});

test('fill down copies the cursor cell into every row below', () => {
  const rows = fillDown(setCell(gridRows(products), { row: 0, col: 5 }, 'Archived'), { row: 0, col: 5 });
  assert.deepEqual(
    rows.map((r) => r.values.status),
    ['archived', 'archived', 'archived'],
  );
  assert.equal(changedCount(rows), 3);
});

test('each cell is checked as the server checks it', () => {
  assert.equal(cellError('price', '19.99'), null);
  assert.equal(cellError('price', ''), null);
  assert.match(cellError('price', '-1') ?? '', /amount/);
  assert.match(cellError('price', '1.23456') ?? '', /amount/);
  assert.match(cellError('stock', '1.5') ?? '', /whole/);
  assert.equal(cellError('stock', '-2'), null);
  assert.match(cellError('status', 'gone') ?? '', /One of/);
  assert.match(cellError('name', '') ?? '', /name/);
  const rows = setCell(setCell(gridRows(products), { row: 2, col: 1 }, 'abc'), { row: 0, col: 0 }, '');
  assert.deepEqual(
    gridErrors(rows).map((e) => [e.row, e.field]),
    [
      [0, 'name'],
      [2, 'price'],
    ],
  );
});

test('the batch carries only the changed fields of the changed rows, an empty price as none', () => {
  let rows = gridRows(products);
  rows = setCell(rows, { row: 0, col: 1 }, '');
  rows = setCell(rows, { row: 2, col: 4 }, '12');
  rows = setCell(rows, { row: 2, col: 0 }, ' Cherry pie ');
  rows = setCell(rows, { row: 1, col: 1 }, '');
  assert.deepEqual(batchBody(rows), {
    products: [
      { id: 1, price: null },
      { id: 3, name: 'Cherry pie', stock: 12 },
    ],
  });
});
