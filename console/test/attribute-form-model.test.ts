// The attribute form: options one a line, the body sent, a suggested code, and where a server message goes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attributeBody, attributeField, parseOptions, suggestCode } from '../src/features/catalogue/attribute-form-model.ts';

test('options are one a line, trimmed, blank lines and duplicates dropped', () => {
  assert.deepEqual(parseOptions(' red \n\nblue\r\nred\n  '), ['red', 'blue']);
});

test('the body sends options for the select types only', () => {
  const draft = { code: ' colour ', name: ' Colour ', type: 'select' as const, options: 'red\nblue', is_required: true, required_channels: ['web'] };
  assert.deepEqual(attributeBody(draft), {
    code: 'colour',
    name: 'Colour',
    type: 'select',
    is_required: true,
    required_channels: ['web'],
    options: ['red', 'blue'],
  });
  assert.deepEqual(attributeBody({ ...draft, type: 'text' }).options, []);
});

test('a suggested code is what the API accepts: a lower-case letter first, then letters, digits and _', () => {
  assert.equal(suggestCode('Größe (EU)'), 'grosse_eu');
  assert.equal(suggestCode('3D Print Type'), 'd_print_type');
  assert.match(suggestCode('Material & Care '.repeat(10)), /^[a-z][a-z0-9_]{0,63}$/);
});

test("a validation message goes beside the field it names (options[2] is the options' field)", () => {
  assert.equal(attributeField('options[2]'), 'options');
  assert.equal(attributeField('code'), 'code');
  assert.equal(attributeField('attributes.colour'), null);
  assert.equal(attributeField(undefined), null);
});
