// Completeness in the console: the score's words and tone, a channel's checklist, the list cell's summary, the
// catalogue languages box, the attribute form's channel choices and the query key's place under the product lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryClient } from '@tanstack/react-query';
import { channelChoices } from '../src/features/catalogue/attribute-form-model.ts';
import {
  checklistOf,
  fieldsText,
  languageName,
  type ProductCompleteness,
  scoreSummary,
  scoreText,
  scoreTone,
} from '../src/features/completeness/completeness-model.ts';
import { completenessKeys } from '../src/features/completeness/keys.ts';
import { languagesFromInput } from '../src/features/organization/organization-model.ts';
import { productKeys } from '../src/features/products/keys.ts';

const web = {
  channel: 'web',
  score: 50,
  required: 4,
  filled: 2,
  missing_attributes: [{ id: 3, code: 'material', name: 'Material' }],
  missing_translations: [{ locale: 'de', fields: ['description'] }],
};
const result: ProductCompleteness = {
  product_id: 9,
  score: 66,
  languages: ['de'],
  channels: [web, { ...web, channel: 'mobile', score: 100, required: 2, filled: 2, missing_attributes: [], missing_translations: [] }],
};

test('the score reads as a percent with a tone; no channel, no score', () => {
  assert.equal(scoreText(80), '80 %');
  assert.equal(scoreText(null), null);
  assert.deepEqual([scoreTone(100), scoreTone(99), scoreTone(50), scoreTone(49)], ['ok', 'warn', 'warn', 'error']);
});

test("a channel's checklist: its attributes, then its languages with the fields in words", () => {
  assert.deepEqual(checklistOf(web), [
    { kind: 'attribute', key: 'a-material', name: 'Material', code: 'material' },
    { kind: 'translation', key: 't-de', locale: 'de', fields: ['description'] },
  ]);
  assert.equal(fieldsText(['name', 'description']), 'the name and the description');
  assert.equal(fieldsText(['name']), 'the name');
  assert.equal(languageName('de', 'en'), 'German (de)');
  assert.equal(languageName('zz-ZZ', 'en').includes('zz'), true);
});

test("the list cell's summary names the channels with something missing", () => {
  const labels: Record<string, string> = { web: 'Online store', mobile: 'App' };
  assert.equal(
    scoreSummary(result, (c) => labels[c]),
    '66 % complete: 2 missing on Online store',
  );
  assert.equal(scoreSummary({ ...result, score: 100, channels: [result.channels[1]] }), 'Complete on every channel');
  assert.equal(scoreSummary({ ...result, score: null, channels: [] }), 'On no channel');
});

test('the languages box takes codes separated by commas or spaces, each once, and names a wrong one', () => {
  assert.deepEqual(languagesFromInput(' de, fr-CA  de;it '), { value: ['de', 'fr-CA', 'it'], error: null });
  assert.deepEqual(languagesFromInput(''), { value: [], error: null });
  assert.match(languagesFromInput('de, German').error ?? '', /German/);
  assert.match(languagesFromInput('fr-ca').error ?? '', /fr-ca/);
});

test("the attribute form offers the organization's channels, and any the attribute still names", () => {
  const configured = [
    { value: 'web', label: 'Online store', description: '' },
    { value: 'api', label: 'API', description: '' },
  ];
  assert.deepEqual(channelChoices(configured, ['email', 'web']), [
    { value: 'web', label: 'Online store' },
    { value: 'api', label: 'API' },
    { value: 'email', label: 'email' },
  ]);
});

test("completeness is read again whenever a product list is (any product's change)", () => {
  const client = new QueryClient();
  client.setQueryData(completenessKeys.of([1, 2]), []);
  void client.invalidateQueries({ queryKey: productKeys.lists() });
  assert.equal(client.getQueryState(completenessKeys.of([1, 2]))?.isInvalidated, true);
  assert.deepEqual(completenessKeys.of([1, 2]), ['products', 'list', 'completeness', '1,2']);
});
