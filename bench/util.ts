// Small helpers every benchmark uses: a free loopback port, a statement on the PostgreSQL server as its admin, a JSON
// request that must succeed, a random integer.
import { createServer } from 'node:net';
import pg from 'pg';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One statement (CREATE DATABASE, DROP DATABASE …) on a connection of its own. */
export async function adminSql(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client(adminUrl);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The JSON answer of a request that must succeed (anything else throws with the answer's body). */
export async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, init);
  const body = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${body}`);
  return JSON.parse(body) as T;
}

/**
 * The environment of a Pimbridge server the benchmark starts: nothing inherited that could change its configuration,
 * LOG_LEVEL as the benchmark was given it (info by default, as in production), and rate limits high enough that the
 * limiter runs on every request but never rejects one.
 */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    PIM_RATE_LIMIT_READ: '10000000',
    PIM_RATE_LIMIT_WRITE: '9999999',
    ...extra,
  };
}

/** An integer from lo to hi, both included. */
export const rand = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
