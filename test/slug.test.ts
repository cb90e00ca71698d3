// Product slugs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProductCreate } from '../src/pim/products/product.schemas.js';
import { firstFreeSlug, SLUG, slugify } from '../src/lib/slug.js';

describe('slugify', () => {
  it('lower-cases and joins words with single hyphens', () => {
    assert.equal(slugify('Blue Shirt'), 'blue-shirt');
    assert.equal(slugify('  Merino   Crew -- Sweater!! '), 'merino-crew-sweater');
    assert.equal(slugify('Linen Button-Down Shirt (2024)'), 'linen-button-down-shirt-2024');
  });

  it('keeps letters of every script, lower-cased and composed (NFC), as Shopify handles take them', () => {
    assert.equal(slugify('Crème Brûlée Café'), 'crème-brûlée-café');
    assert.equal(slugify('Über Ärmel Ñandú'), 'über-ärmel-ñandú');
    assert.equal(slugify('Tee 日本 Cup'), 'tee-日本-cup');
    assert.equal(slugify('Рубашка Синяя'), 'рубашка-синяя');
    assert.equal(slugify('Größe Straße'), 'größe-straße');
    assert.equal(slugify('Smørrebrød Æble Łódź'), 'smørrebrød-æble-łódź');
    assert.equal(slugify('ラーメン'), 'ラーメン', 'the prolonged sound mark is a (modifier) letter');
    assert.equal(slugify('हिन्दी किताब'), 'हिन्दी-किताब', 'combining vowel signs stay with their letters');
    // Decomposed input comes out composed: the same name gives the same slug however it was typed.
    assert.equal(slugify('Cafe\u0301'), 'caf\u00e9');
  });

  it('folds compatibility forms to their plain letters (NFKC)', () => {
    assert.equal(slugify('東京 Ｔシャツ'), '東京-tシャツ');
    assert.equal(slugify('ﬁne ＷＩＤＥ'), 'fine-wide');
  });

  it('falls back to "product" when nothing is left', () => {
    for (const text of ['', '   ', '!!!', '💡', '---']) assert.equal(slugify(text), 'product', JSON.stringify(text));
  });

  it('caps the length at 200 characters without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(199)} b ${'c'.repeat(300)}`);
    assert.ok(slug.length <= 200);
    assert.ok(!slug.endsWith('-'));
    assert.equal(slug, 'a'.repeat(199));
    assert.equal(slugify('x'.repeat(500)).length, 200);
    // Characters, not UTF-16 units: a letter outside the BMP is never cut in half.
    assert.equal(slugify('𠀀'.repeat(300)), '𠀀'.repeat(200));
  });

  it("only ever yields what the product schema's slug pattern accepts", () => {
    const pattern = new RegExp(ProductCreate.properties.slug.pattern!, 'u');
    for (const text of ['Hello, World', 'a_b_c', 'ÆØÅ æøå', 'tab\tand\nnewline', '💡 Idea Lamp 💡', 'MIXED case 123', 'ǅemal', 'İstanbul', 'Ⅻ ½']) {
      assert.match(slugify(text), pattern, text);
      assert.match(slugify(text), SLUG, text);
    }
  });
});

describe('the slug pattern (a Shopify handle)', () => {
  const pattern = new RegExp(ProductCreate.properties.slug.pattern!, 'u');

  it('accepts lower-case letters of any script and digits joined by single hyphens', () => {
    for (const slug of ['blue-shirt', 'рубашка-синяя', '東京-tシャツ', 'crème-brûlée', 'größe-42', 'ümlaut']) assert.match(slug, pattern, slug);
  });

  it('refuses upper case, spaces, other characters and stray hyphens', () => {
    for (const slug of ['Blue-shirt', 'РУБАШКА', 'blue shirt', 'blue_shirt', 'a/b', '-a', 'a-', 'a--b', '💡', '']) assert.doesNotMatch(slug, pattern, slug);
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
