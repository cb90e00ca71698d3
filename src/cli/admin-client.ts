// A thin HTTP client of the admin API, for the CLI.
import type { ClientConfig } from '../config.js';

export class AdminClientError extends Error {}

export async function adminRequest<T>(client: ClientConfig, method: string, path: string, body?: unknown): Promise<T> {
  if (!client.adminToken) {
    throw new AdminClientError('No admin token: set ADMIN_TOKEN, pass --admin-token, or run from the directory holding data/secrets.json');
  }
  let res: Response;
  try {
    res = await fetch(`${client.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${client.adminToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new AdminClientError(`Cannot reach Pimbridge at ${client.baseUrl} (${(err as Error).message}); is the server running?`);
  }
  if (res.status === 204) return undefined as T;
  const payload = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new AdminClientError(`${res.status}: ${payload.error ?? res.statusText}`);
  return payload as T;
}
