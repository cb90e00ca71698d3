// How database errors that reach the error handler become answers: constraint races are the client's, the rest a bare 500.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyError } from '../src/http/errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../src/db/errors.js';

const driverError = (code: string, constraint?: string) => Object.assign(new Error('insert or update on table "x" violates…'), { code, constraint });

describe('database errors', () => {
  it('finds the PostgreSQL error behind a wrapper', () => {
    const wrapped = new Error('Failed query: INSERT …', { cause: driverError('23505', 'products_org_sku_uq') });
    assert.equal(isUniqueViolation(wrapped), true);
    assert.equal(isUniqueViolation(wrapped, 'products_org_sku_uq'), true);
    assert.equal(isUniqueViolation(wrapped, 'other_uq'), false);
    assert.equal(isForeignKeyViolation(wrapped), false);
  });

  it('answers a foreign-key race with a 400 that shows no SQL', () => {
    const result = classifyError(new Error('Failed query: INSERT INTO product_categories …', { cause: driverError('23503') }));
    assert.equal(result.statusCode, 400);
    assert.match(result.message, /deleted by another request meanwhile; nothing was saved/);
    assert.doesNotMatch(result.message, /INSERT|violates|product_categories/);
  });

  it('keeps other database failures a bare 500', () => {
    assert.deepEqual(classifyError(driverError('40P01')), { statusCode: 500, message: 'Internal server error' });
    assert.deepEqual(classifyError(new Error('connection terminated')), { statusCode: 500, message: 'Internal server error' });
  });
});
