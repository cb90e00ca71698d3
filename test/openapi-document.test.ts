// The published OpenAPI document as client generators and gateways read it: Redocly's recommended rules with no error
// and no warning (redocly.yaml says which rules are off and why), every schema valid under ajv's strict mode, and the
// promises of docs/openapi.md (operation ids, named schemas, optional defaults, declared statuses and bodies).
// That every answer of the suite matches the document is checked by the harness (test/helpers/openapi-check.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CONNECTOR_ERROR_STATUS } from '../src/connector/connector.errors.js';
import { OPENAPI_TAGS } from '../src/server/openapi/tags.js';
import { databaseTargets, harness, type Harness } from './helpers/harness.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the OpenAPI document', () => {
  let h: Harness;
  let document: Json;
  const operations: { path: string; method: string; op: Json }[] = [];

  before(async () => {
    h = await harness(databaseTargets()[0]);
    const answer = await h.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    assert.equal(answer.statusCode, 200);
    document = answer.json();
    for (const [p, item] of Object.entries(document.paths as Json)) {
      for (const method of METHODS) if (item[method]) operations.push({ path: p, method, op: item[method] });
    }
  });
  after(() => h.close());

  it('passes Redocly’s recommended rules with no error and no warning', () => {
    // Linted as `openapi.json` beside the project's redocly.yaml and its ignore file (which name that file).
    const root = path.join(import.meta.dirname, '..');
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document));
    for (const name of ['redocly.yaml', '.redocly.lint-ignore.yaml']) copyFileSync(path.join(root, name), path.join(dir, name));
    const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', 'openapi.json', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(problems, []);
  });

  it('has schemas that ajv compiles in strict mode (no keyword OpenAPI does not know)', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    for (const [name, schema] of Object.entries(document.components.schemas as Json)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const refs = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(refs)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' ? v : refs(v)]))
          : value;
    for (const { path: p, method, op } of operations) {
      const schemas = [
        ...Object.values((op.requestBody?.content ?? {}) as Json).map((c) => c.schema),
        ...Object.values(op.responses as Json).flatMap((r) => Object.values((r.content ?? {}) as Json).map((c) => c.schema)),
        ...(op.parameters ?? []).map((prm: Json) => prm.schema),
      ];
      for (const schema of schemas) assert.doesNotThrow(() => ajv.compile(refs(schema) as object), `${method} ${p}`);
    }
  });

  it('names every operation for generated code, and every tag and schema', () => {
    const ids = operations.map(({ op }) => op.operationId);
    assert.equal(ids.filter((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)).length, operations.length);
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    const defined = new Set(OPENAPI_TAGS.map((t) => t.name));
    assert.deepEqual(
      (document.tags as Json[]).map((t) => t.name),
      [...defined],
    );
    for (const { op } of operations) for (const tag of op.tags) assert.ok(defined.has(tag), `tag ${tag} is defined`);
    assert.deepEqual(
      Object.keys(document.components.schemas).filter((name) => /^def-\d+$/.test(name)),
      [],
    );
    assert.ok(document.servers.length > 0);
    assert.equal(JSON.stringify(document).includes('errorMessage'), false);
  });

  it('calls no parameter with a default required, and declares the push and import bodies', () => {
    const list = operations.find((o) => o.path === '/api/products' && o.method === 'get')!.op;
    for (const name of ['page', 'limit']) assert.equal(list.parameters.find((p: Json) => p.name === name).required, undefined);
    for (const { op } of operations) {
      for (const prm of op.parameters ?? []) if (prm.in === 'query' && prm.schema.default !== undefined) assert.notEqual(prm.required, true, op.operationId);
    }
    const push = operations.find((o) => o.op.operationId === 'pushProducts')!.op;
    assert.ok(push.requestBody.content['application/json'].schema.anyOf);
    const upload = operations.find((o) => o.op.operationId === 'createImport')!.op;
    assert.equal(upload.requestBody.content['multipart/form-data'].schema.properties.file.format, 'binary');
  });

  it('declares the statuses the specs name, with their envelopes and headers, and no status ranges', () => {
    for (const { op } of operations)
      assert.deepEqual(
        Object.keys(op.responses).filter((s) => /X/.test(s)),
        [],
        op.operationId,
      );
    const byId = (id: string) => operations.find((o) => o.op.operationId === id)!.op;
    const pimError = { $ref: '#/components/schemas/PimError' };
    const getProduct = byId('getProduct');
    for (const status of ['400', '401', '403', '404', '429', '500']) {
      assert.deepEqual(getProduct.responses[status].content['application/json'].schema, pimError, status);
    }
    assert.ok(getProduct.responses['429'].headers['Retry-After']);
    assert.ok(getProduct.responses['200'].headers['X-RateLimit-Remaining']);
    const connect = byId('connectShop');
    for (const status of ['400', '401', '404', '409', '500', '503']) assert.ok(connect.responses[status], `connect answers ${status}`);
    assert.deepEqual(document.components.schemas.ConnectorError.properties.code.enum, Object.keys(CONNECTOR_ERROR_STATUS));
    assert.ok(byId('exportProductsCsv').responses['200'].content['text/csv']);
    assert.ok(byId('exportProductsCsv').responses['200'].headers['Content-Disposition']);
    assert.ok(byId('getMediaFile').responses['200'].content['image/png']);
  });

  it('declares who may call each operation', () => {
    const schemes = Object.keys(document.components.securitySchemes);
    assert.deepEqual(schemes.sort(), ['adminToken', 'apiKey', 'apiSecret', 'connectorToken', 'consoleSession', 'csrfToken']);
    const byId = (id: string) => operations.find((o) => o.op.operationId === id)!.op;
    assert.deepEqual(byId('createProduct').security, [{ apiKey: [] }, { consoleSession: [], csrfToken: [] }]);
    assert.deepEqual(byId('listProducts').security, [{ apiKey: [] }, { consoleSession: [] }]);
    assert.deepEqual(byId('verifyApiKey').security, [{ apiKey: [], apiSecret: [] }]);
    assert.deepEqual(byId('pushProducts').security, [{ connectorToken: [] }, { consoleSession: [], csrfToken: [] }]);
    assert.ok(byId('pushProducts').parameters.some((p: Json) => p.name === 'X-Integration-Id' && p.in === 'header'));
    assert.deepEqual(byId('getSystemStatus').security, []);
    assert.deepEqual(byId('adminListShops').security, [{ adminToken: [] }]);
  });
});
