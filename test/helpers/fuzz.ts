// Property-based fuzzing of every route of the PIM core API, the connector API and the admin API (routes read from the
// app's own OpenAPI document), with fast-check: bad methods, bad types, NUL bytes, huge and negative numbers, deep
// JSON, wrong content types, bad percent-encodings and bad UTF-8, unknown fields. Each answer must be below 500 (but
// the 503s the connector spec itself gives), in the route's own envelope, free of stack traces and SQL, and a refused
// write must leave the data as it was. test/fuzz.test.ts runs a few thousand cases; `npm run fuzz` many more.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Response as InjectResponse } from 'light-my-request';
import type { ConnectorHarness } from './connector.js';
import type { Tenant } from './harness.js';
import { sqlRows } from './sql.js';

type Family = 'pim' | 'connector' | 'admin';

interface Route {
  method: string;
  /** OpenAPI path: /api/products/{id} */
  path: string;
  family: Family;
  params: string[];
  query: string[];
  bodyFields: string[];
}

export interface FuzzFixture {
  tenant: Tenant;
  /** Bearer token of an integration the fuzz may break (disconnect, token revocation). */
  token: string;
  adminToken: string;
  /** Ids that exist (products, categories, …), so that some requests pass the lookup and reach deeper checks. */
  ids: number[];
}

const CONNECTOR_PATHS =
  /^\/api\/(connect|disconnect|integration\/|tokens|integrations$|status|system\/status|products\/(push|mappings|mapping\/.)|sync\/|adopt(\/|$)|drift(\/|$)|collections(\/|$)|shops\/?$)/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** The connector spec's own 503s: CONNECTION_FAILED on connect, VALIDATION_FAILED on update. */
const SPEC_503 = new Set(['CONNECTION_FAILED', 'VALIDATION_FAILED']);
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+|\b(select|insert into|update|delete from) .+\b(from|set|values|where)\b|syntax error at|violates .+ constraint|relation "|duplicate key/i;

/** The routes to fuzz, from the app's OpenAPI document (health probes left out). */
export function routesOf(spec: {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
    >
  >;
}): Route[] {
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    if (path === '/healthz' || path === '/readyz') continue;
    for (const [method, op] of Object.entries(ops)) {
      const family: Family = path.startsWith('/admin') ? 'admin' : CONNECTOR_PATHS.test(path) ? 'connector' : 'pim';
      const parameters = op.parameters ?? [];
      const body = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      routes.push({
        method: method.toUpperCase(),
        path,
        family,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: Object.keys(body),
      });
    }
  }
  return routes;
}

// ---------------------------------------------------------------------------------------------------------------------
// Generators

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  '2147483648',
  'null',
  'true',
  '[]',
  '{}',
  '💥',
  'é',
  '\uFFFF',
  '\uD800',
  "'; drop table products; --",
  '<script>',
  '../../etc/passwd',
  'x'.repeat(10_000),
);
/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) becomes its invalid UTF-8 bytes. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const nastyNumber = fc.constantFrom(-1, 0, -0, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 123456789012);

function jsonValue(fields: string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(nasty, nastyNumber, fc.boolean(), fc.constant(null), fc.string({ maxLength: 20 }), fc.integer());
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fields.length ? fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 }), tie('value'), {
        maxKeys: 5,
      }),
    ),
  }));
  return value;
}

/** An object of the route's own fields with one or more bad values, plus now and then an unknown field. */
function bodyObject(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const known = fields.length ? fc.dictionary(fc.constantFrom(...fields), jsonValue(fields), { minKeys: 1, maxKeys: fields.length }) : fc.constant({});
  return fc
    .tuple(known, fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), jsonValue([]), { maxKeys: 2 }), { nil: undefined }))
    .map(([a, b]) => ({ ...a, ...b }));
}

const deep = fc.integer({ min: 500, max: 5_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));

type Payload = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; bytes: Buffer | string; contentType?: string };

function payload(route: Route): fc.Arbitrary<Payload> {
  return fc.oneof(
    { weight: 5, arbitrary: bodyObject(route.bodyFields).map((value): Payload => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: jsonValue(route.bodyFields).map((value): Payload => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.oneof(
            deep,
            fc.constantFrom(
              '{',
              '{"a":}',
              'nul\u0000l',
              '{"name":"\\u0000"}',
              '[1,2',
              'true',
              '""',
              '{"__proto__":{"x":1}}',
              '{"constructor":{"prototype":{}}}',
            ),
            fc.constant(Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), // {"n":"<bad UTF-8>"}
          ),
          fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/json; charset=latin1',
            'application/xml',
            undefined,
          ),
        )
        .map(([bytes, contentType]): Payload => ({ kind: 'raw', bytes, contentType })),
    },
  );
}

/** A path segment: garbage, bad percent-encodings, or (now and then) an id that exists. */
function segment(fx: FuzzFixture, allowReal: boolean): fc.Arbitrary<string> {
  const bad = fc.oneof(nasty.map(enc), fc.constantFrom('%00', '%ff', '%', '%zz', '%C0%AF', '999999999', '-5', '0', '1e3', 'abc', '2147483648'));
  return allowReal && fx.ids.length ? fc.oneof(bad, fc.constantFrom(...fx.ids.map(String))) : bad;
}

function queryString(route: Route): fc.Arbitrary<string> {
  const name = fc.oneof(
    route.query.length ? fc.constantFrom(...route.query) : fc.constant('q'),
    fc.constantFrom('unknown', 'limit', 'page', '__proto__', '%00'),
  );
  const value = fc.oneof(nasty.map(enc), fc.constantFrom('%00', '%ff', '%', '-1', '1e999', '0', '101', 'a,b'));
  return fc.array(fc.tuple(name, value), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
}

interface Case {
  route: Route;
  method: string;
  url: string;
  payload: Payload;
  auth: 'valid' | 'none' | 'garbage';
}

function caseOf(routes: Route[], fx: FuzzFixture): fc.Arbitrary<Case> {
  return fc.constantFrom(...routes).chain((route) => {
    // Admin routes and deletions never get a real id: the fuzz must not revoke its own key or delete its own shop.
    const real = route.family !== 'admin' && route.method !== 'DELETE';
    const segments = fc.tuple(...route.params.map(() => segment(fx, real)));
    return fc.record({
      route: fc.constant(route),
      method: fc.oneof({ weight: 6, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      url: fc.tuple(route.params.length ? segments : fc.constant([] as string[]), queryString(route)).map(([values, query]) => {
        let url = route.path;
        for (const [i, name] of route.params.entries()) url = url.replace(`{${name}}`, values[i]);
        return url + query;
      }),
      payload: payload(route),
      auth: fc.constantFrom<Case['auth']>('valid', 'valid', 'valid', 'none', 'garbage'),
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Checks

function headersOf(c: Case, fx: FuzzFixture): Record<string, string> {
  const headers: Record<string, string> = {};
  const secret = c.auth === 'valid' ? null : c.auth === 'garbage' ? 'garbage\u00ff' : undefined;
  if (c.route.family === 'pim') {
    if (secret === null) headers['x-api-key'] = fx.tenant.apiKey;
    else if (secret) headers['x-api-key'] = 'garbage';
  } else {
    const token = c.route.family === 'admin' ? fx.adminToken : fx.token;
    if (secret === null) headers.authorization = `Bearer ${token}`;
    else if (secret) headers.authorization = 'Bearer garbage';
  }
  if (c.payload.kind === 'json') headers['content-type'] = 'application/json';
  if (c.payload.kind === 'raw' && c.payload.contentType) headers['content-type'] = c.payload.contentType;
  return headers;
}

const familyOfPath = (path: string): Family => (path.startsWith('/admin') ? 'admin' : CONNECTOR_PATHS.test(path) ? 'connector' : 'pim');

type RouteFinder = (method: string, path: string) => string | null;

/**
 * The family whose envelope an answer must carry: that of the route the router took (`/api/products/push` by DELETE is
 * the PIM's `/api/products/:id`), else that of the path (a wrong method is still that API's).
 */
function familyOf(c: Case, find: RouteFinder): Family {
  const path = c.url.split('?')[0];
  return familyOfPath(find(c.method, path) ?? path);
}

/**
 * The route pattern the router takes for a method and path (HEAD as GET), or null: among the routes whose pattern
 * matches, the one with the most static segments, as find-my-way prefers static segments to parameters.
 */
function routeFinder(routes: Route[]): RouteFinder {
  const compiled = routes.map((r) => ({
    method: r.method,
    path: r.path,
    re: new RegExp(
      `^${r.path
        .split('/')
        .map((part) => (part.startsWith('{') ? '[^/]+' : part))
        .join('/')}/?$`,
    ),
    statics: r.path.split('/').filter((part) => part && !part.startsWith('{')).length,
  }));
  return (method, path) => {
    const m = method === 'HEAD' ? 'GET' : method;
    const hits = compiled.filter((r) => r.method === m && r.re.test(path)).sort((a, b) => b.statics - a.statics);
    return hits[0]?.path ?? null;
  };
}

function checkAnswer(c: Case, res: InjectResponse, find: RouteFinder): void {
  const family = familyOf(c, find);
  const where = `${c.method} ${c.url.slice(0, 200)}`;
  const code = (() => {
    try {
      return (res.json() as { code?: string }).code;
    } catch {
      return undefined;
    }
  })();
  assert.ok(
    res.statusCode < 500 || (res.statusCode === 503 && family === 'connector' && SPEC_503.has(code ?? '')),
    `${where} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
  );
  assert.doesNotMatch(res.body, LEAK, `${where} leaked internals: ${res.body.slice(0, 300)}`);
  if (c.method === 'HEAD' || res.statusCode < 400) return;
  let body: Record<string, unknown>;
  try {
    body = res.json();
  } catch {
    assert.fail(`${where} answered ${res.statusCode} without JSON: ${res.body.slice(0, 200)}`);
  }
  const keys = Object.keys(body).sort().join(',');
  if (family === 'pim') {
    assert.equal(keys, 'data,error,status', `${where}: PIM envelope expected, got ${res.body.slice(0, 200)}`);
    assert.equal(body.status, 0);
    assert.equal(typeof body.error, 'string');
  } else if (family === 'admin') {
    assert.equal(keys, 'error', `${where}: admin error expected, got ${res.body.slice(0, 200)}`);
  } else {
    // The public status routes keep the spec's raw 404 ({error}); everything else is the connector envelope.
    const raw = res.statusCode === 404 && keys === 'error' && /^\/api\/status\/[^/?]+/.test(c.url);
    // SYNC_IN_PROGRESS (a full sync or an adoption of the integration open already) carries the open one in `data`.
    const inProgress = res.statusCode === 409 && body.code === 'SYNC_IN_PROGRESS' && (keys === 'code,data,message,status' || keys === 'code,message,status');
    assert.ok(raw || inProgress || keys === 'code,message,status', `${where}: connector envelope expected, got ${res.body.slice(0, 200)}`);
    if (!raw) assert.equal(body.status, 'error');
  }
}

/**
 * Row counts and last changes of every table of ours: equal before and after a refused write. Raw SQL: "nothing written
 * anywhere" is a property of the whole database, which no route shows.
 */
async function fingerprintQuery(h: ConnectorHarness): Promise<string> {
  const tables = await sqlRows<{ table_name: string; dated: boolean }>(
    h.database.db,
    sql.raw(`
    select c.table_name, bool_or(c.column_name = 'updated_at') as dated
    from information_schema.columns c join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' group by c.table_name order by c.table_name`),
  );
  const parts = tables.map(
    (r) => `(select count(*)::text${r.dated ? ` || '@' || coalesce(max(updated_at)::text, '')` : ''} from "${r.table_name}") as "${r.table_name}"`,
  );
  return `select ${parts.join(', ')}`;
}

export interface FuzzOptions {
  seed: number;
  numRuns: number;
  log?: (line: string) => void;
}

/** Runs the property; throws (with fast-check's seed and path) on the first counterexample. */
export async function fuzzRoutes(h: ConnectorHarness, fx: FuzzFixture, options: FuzzOptions): Promise<{ cases: number; byStatus: Record<number, number> }> {
  const routes = routesOf(h.app.swagger() as never);
  const fingerprintSql = await fingerprintQuery(h);
  const fingerprint = async () => (await sqlRows<Record<string, string>>(h.database.db, sql.raw(fingerprintSql)))[0];
  let baseline = await fingerprint();
  const find = routeFinder(routes);
  const byStatus: Record<number, number> = {};
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(caseOf(routes, fx), async (c) => {
      const body = c.payload.kind === 'json' ? JSON.stringify(c.payload.value) : c.payload.kind === 'raw' ? c.payload.bytes : undefined;
      const res = (await h.app.inject({ method: c.method as never, url: c.url, headers: headersOf(c, fx), payload: body as never })) as InjectResponse;
      cases++;
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      checkAnswer(c, res, find);
      // Every answer moves the baseline (a read may create defaults lazily, as the sandbox's publications are); a
      // refused write must not have moved it.
      const now = await fingerprint();
      const write = !['GET', 'HEAD', 'OPTIONS'].includes(c.method);
      const changed = Object.keys(now).filter((table) => now[table] !== baseline[table]);
      if (write && res.statusCode >= 400)
        assert.deepEqual(
          changed,
          [],
          `${c.method} ${c.url.slice(0, 200)} answered ${res.statusCode} but changed ${changed.map((t) => `${t} (${baseline[t]} → ${now[t]})`).join(', ')}`,
        );
      baseline = now;
    }),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: true, includeErrorInReport: true },
  );
  options.log?.(`fuzz: ${cases} requests over ${routes.length} routes, seed ${options.seed}; statuses ${JSON.stringify(byStatus)}`);
  return { cases, byStatus };
}
