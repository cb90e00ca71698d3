// Product slugs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstFreeSlug, slugify } from '../src/lib/slug.js';

describe('slugify', () => {
  it('lower-cases and joins words with single hyphens', () => {
    assert.equal(slugify('Blue Shirt'), 'blue-shirt');
    assert.equal(slugify('  Merino   Crew -- Sweater!! '), 'merino-crew-sweater');
    assert.equal(slugify('Linen Button-Down Shirt (2024)'), 'linen-button-down-shirt-2024');
  });

  it('folds accents to ASCII and drops what has no ASCII form', () => {
    assert.equal(slugify('Crème Brûlée Café'), 'creme-brulee-cafe');
    assert.equal(slugify('Über Ärmel Ñandú'), 'uber-armel-nandu');
    assert.equal(slugify('Tee 日本 Cup'), 'tee-cup');
  });

  it('spells out letters that do not decompose to ASCII', () => {
    assert.equal(slugify('Größe Straße'), 'grosse-strasse');
    assert.equal(slugify('Smørrebrød Æble Łódź'), 'smorrebrod-aeble-lodz');
  });

  it('falls back to "product" when nothing is left', () => {
    for (const text of ['', '   ', '!!!', '日本語', '---']) assert.equal(slugify(text), 'product', JSON.stringify(text));
  });

  it('caps the length at 200 without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(199)} b ${'c'.repeat(300)}`);
    assert.ok(slug.length <= 200);
    assert.ok(!slug.endsWith('-'));
    assert.equal(slug, 'a'.repeat(199));
    assert.equal(slugify('x'.repeat(500)).length, 200);
  });

  it('only ever yields [a-z0-9] runs joined by single hyphens', () => {
    for (const text of ['Hello, World', 'a_b_c', 'ÆØÅ æøå', 'tab\tand\nnewline', '💡 Idea Lamp 💡', 'MIXED case 123']) {
      assert.match(slugify(text), /^[a-z0-9]+(-[a-z0-9]+)*$/, text);
    }
  });
});

describe('firstFreeSlug', () => {
  it('keeps the base when it is free', () => {
    assert.equal(firstFreeSlug('shirt', []), 'shirt');
    assert.equal(firstFreeSlug('shirt', ['shirt-2']), 'shirt');
  });

  it('takes the first free numbered suffix', () => {
    assert.equal(firstFreeSlug('shirt', ['shirt']), 'shirt-2');
    assert.equal(firstFreeSlug('shirt', ['shirt', 'shirt-2', 'shirt-3']), 'shirt-4');
    assert.equal(firstFreeSlug('shirt', new Set(['shirt', 'shirt-3'])), 'shirt-2');
  });
});
