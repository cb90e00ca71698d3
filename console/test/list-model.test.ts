// The reference lists' pure parts: which field a message names, countries and rates as the API takes them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryOrNull, emptyValues, fieldFor, formatRate, normalizeRate } from '../src/features/catalogue/list-model.ts';

test('a message is placed beside the field it names, an index or a path prefix aside', () => {
  assert.equal(fieldFor('name', ['name']), 'name');
  assert.equal(fieldFor('channels[2].label', ['value', 'label', 'description']), 'label');
  assert.equal(fieldFor('channels', ['value', 'label', 'description']), null);
  assert.equal(fieldFor(undefined, ['name']), null);
});

test('a country is upper case or null; a rate a decimal string', () => {
  assert.equal(countryOrNull(' de '), 'DE');
  assert.equal(countryOrNull('  '), null);
  assert.equal(normalizeRate(' 19,5 % '), '19.5');
  assert.equal(normalizeRate('7'), '7');
  assert.deepEqual(emptyValues(['a', 'b']), { a: '', b: '' });
});

test('a stored rate is shown with two decimals at least', () => {
  assert.equal(formatRate('7.0000'), '7.00');
  assert.equal(formatRate('7.5000'), '7.50');
  assert.equal(formatRate('7.125'), '7.125');
  assert.equal(formatRate('19'), '19.00');
  assert.equal(formatRate('n/a'), 'n/a');
});
