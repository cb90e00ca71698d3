// The option matrix's rules, pure: every combination in Shopify's order, the ones a product has left out (by value,
// case ignored), and the SKUs and names a merchant would give them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combinationName, combinations, combinationSku, freeSku, missingCombinations } from '../src/pim/variants/option-matrix.js';

const SIZE = { name: 'Size', values: ['S', 'M'] };
const COLOUR = { name: 'Colour', values: ['Navy', 'Oat', 'Sky'] };
const values = (rows: { value: string }[][]) => rows.map((r) => r.map((a) => a.value).join('/'));

describe('option matrix', () => {
  it('makes every combination, the first option varying slowest', () => {
    assert.deepEqual(values(combinations([SIZE, COLOUR])), ['S/Navy', 'S/Oat', 'S/Sky', 'M/Navy', 'M/Oat', 'M/Sky']);
    assert.deepEqual(combinations([SIZE])[1], [{ attribute_name: 'Size', value: 'M' }]);
  });

  it('leaves out the combinations a variant already stands for, by value with case and spaces ignored', () => {
    const existing = [
      [
        { attribute_name: 'colour', value: ' navy ' },
        { attribute_name: 'SIZE', value: 's' },
      ],
      // Without every option it stands for no combination.
      [{ attribute_name: 'Size', value: 'M' }],
    ];
    assert.deepEqual(values(missingCombinations([SIZE, COLOUR], existing)), ['S/Oat', 'S/Sky', 'M/Navy', 'M/Oat', 'M/Sky']);
    assert.deepEqual(missingCombinations([SIZE], [[{ attribute_name: 'Size', value: 'S' }], [{ attribute_name: 'Size', value: 'm' }]]), []);
  });

  it('names and SKUs as a merchant would write them, within the API limits', () => {
    const c = [
      { attribute_name: 'Size', value: 'One size' },
      { attribute_name: 'Colour', value: 'Crème brûlée' },
    ];
    assert.equal(combinationSku('TEE-01', c), 'TEE-01-ONE-SIZE-CREME-BRULEE');
    assert.equal(combinationName('Tee', c), 'Tee / One size / Crème brûlée');
    assert.equal(combinationSku('X'.repeat(60), c).length, 64);
    assert.equal(combinationSku('TEE', [{ attribute_name: 'Size', value: '½' }]), 'TEE-1-2');
    assert.equal(combinationSku('TEE', [{ attribute_name: 'Size', value: '★' }]), 'TEE-X');
  });

  it('finds a free SKU by adding -2, -3…, still at most 64 characters', () => {
    assert.equal(freeSku('TEE-S', new Set()), 'TEE-S');
    assert.equal(freeSku('TEE-S', new Set(['TEE-S', 'TEE-S-2'])), 'TEE-S-3');
    const long = 'Y'.repeat(64);
    assert.equal(freeSku(long, new Set([long])), `${'Y'.repeat(62)}-2`);
  });
});
