// A sandbox store's Admin GraphQL endpoint over real HTTP, for the sandbox's own tests.
import assert from 'node:assert/strict';

export type Json = Record<string, any>;

/** The whole answer (data, errors, extensions) of one call; the HTTP status must be 200, as Shopify answers GraphQL. */
export async function sandboxCall(url: string, token: string, query: string, variables: Json = {}): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
    body: JSON.stringify({ query, variables }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

/** The data of one call that must have no top-level errors. */
export async function sandboxData(url: string, token: string, query: string, variables: Json = {}): Promise<Json> {
  const body = await sandboxCall(url, token, query, variables);
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data;
}

/**
 * Holds the sandbox's bulk runs before their next line while `gate` is set (to watch an operation RUNNING). An app
 * takes it at construction: harness(target, env, { sandbox: { bulk: { pause: pause.check } } }).
 */
export class BulkPause {
  gate: Promise<void> | null = null;
  readonly check = (): Promise<void> | null => this.gate;
}
