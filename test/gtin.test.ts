// GTIN (EAN/UPC) check digits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isValidGtin, withGtinCheckDigit } from '../src/lib/gtin.js';

describe('GTIN', () => {
  it('accepts real codes of every length with the right check digit', () => {
    for (const code of ['4006381333931', '96385074', '036000291452', '00012345600012', '5901234123457']) {
      assert.equal(isValidGtin(code), true, code);
    }
  });

  it('rejects a wrong check digit', () => {
    for (const code of ['4006381333932', '96385075', '036000291453', '5901234123450']) assert.equal(isValidGtin(code), false, code);
  });

  it('rejects other lengths and non-digits', () => {
    for (const code of ['', '1234567', '123456789', '40063813339311', '400638133393', '4006381333931 ', 'ABCDEFGHIJKLM', '40063813339a1', '400638133393111']) {
      assert.equal(isValidGtin(code), false, JSON.stringify(code));
    }
  });

  it('withGtinCheckDigit appends the one digit that makes the code valid', () => {
    assert.equal(withGtinCheckDigit('400638133393'), '4006381333931');
    assert.equal(withGtinCheckDigit('9638507'), '96385074');
    for (let i = 0; i < 50; i++) {
      const data = String(100_000_000_000 + i * 7919).padStart(12, '0');
      const code = withGtinCheckDigit(data);
      assert.equal(code.length, 13);
      assert.ok(code.startsWith(data));
      assert.equal(isValidGtin(code), true);
      assert.equal([...'0123456789'].filter((d) => isValidGtin(`${data}${d}`)).length, 1, 'exactly one check digit fits');
    }
  });

  it('withGtinCheckDigit throws when no length fits', () => {
    assert.throws(() => withGtinCheckDigit('12345'));
  });
});
