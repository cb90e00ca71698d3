// The console's reading of the two envelopes: the server's own sentence, the field it names, never a swallowed error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, besideField, fieldErrors, messageOf, toApiError } from '../src/api/errors.ts';

const response = (status: number) => new Response(null, { status });

test("the PIM's error and the connector's message are shown as the server wrote them", () => {
  assert.equal(toApiError({ status: 0, data: null, error: "field 'name' is required" }, response(400)).message, "field 'name' is required");
  const connector = toApiError({ status: 'error', message: 'Integration is disconnected', code: 'AUTHENTICATION_FAILED' }, response(401));
  assert.equal(connector.message, 'Integration is disconnected');
  assert.equal(connector.code, 'AUTHENTICATION_FAILED');
});

test('an answer without a sentence still says what happened', () => {
  assert.match(toApiError(undefined, response(502)).message, /HTTP 502/);
  assert.match(toApiError(undefined, response(429)).message, /Too many requests/);
  assert.match(messageOf(new TypeError('Failed to fetch')), /cannot be reached/);
});

test('a validation message goes beside the field it names', () => {
  assert.deepEqual(fieldErrors(new ApiError("field 'variants[0].price' must be a decimal string", 400)), {
    'variants[0].price': "field 'variants[0].price' must be a decimal string",
  });
  assert.deepEqual(fieldErrors(new ApiError('Product not found', 404)), {});
});

test('beside its field, a message drops the field name its label already gives', () => {
  assert.equal(besideField("field 'sku': another variant already has sku 'TEE-S'"), "Another variant already has sku 'TEE-S'");
  assert.equal(besideField('field \'code\' must match pattern "^[a-z_]+$"'), 'Must match pattern "^[a-z_]+$"');
  assert.equal(besideField('must be three letters, such as EUR (ISO 4217)'), 'Must be three letters, such as EUR (ISO 4217)');
  assert.equal(besideField("The field 'x' is odd"), "The field 'x' is odd");
});
