// The organization page's pure parts: the default currency as its select and "another currency" box hold it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMON_CURRENCIES, currencyFromInput, currencyInputOf, currencyLabel, NOT_SET, OTHER } from '../src/features/organization/organization-model.ts';

test('a stored currency is chosen in the select, or typed in the box when it is not a common one', () => {
  assert.deepEqual(currencyInputOf(null), { choice: NOT_SET, other: '' });
  assert.deepEqual(currencyInputOf('CHF'), { choice: 'CHF', other: '' });
  assert.deepEqual(currencyInputOf('ISK'), { choice: OTHER, other: 'ISK' });
  assert.ok(COMMON_CURRENCIES.includes('VND'));
});

test('the code sent is three letters in upper case; not set is null', () => {
  assert.deepEqual(currencyFromInput({ choice: 'GBP', other: 'ignored' }), { value: 'GBP', error: null });
  assert.deepEqual(currencyFromInput({ choice: OTHER, other: ' isk ' }), { value: 'ISK', error: null });
  assert.deepEqual(currencyFromInput({ choice: NOT_SET, other: 'ISK' }), { value: null, error: null });
  for (const bad of ['', 'IS', 'ISKK', 'I5K', '€']) assert.match(currencyFromInput({ choice: OTHER, other: bad }).error ?? '', /three letters/, bad);
});

test("a currency's label has its name when the runtime knows it", () => {
  assert.equal(currencyLabel('EUR', 'en'), 'EUR · Euro');
  assert.equal(currencyLabel('XQQ', 'en'), 'XQQ');
});
