// The PIM API as the catalogue-file commands use it: whose catalogue (--api-key, or --org with a temporary key the
// admin token issues and revokes whatever happens), the client, and a session that undoes what it must on Ctrl-C.
import type { ClientConfig } from '../config.js';
import { adminRequest } from './admin-client.js';
import { CliError, CliUsageError } from './errors.js';

export interface AuthOptions {
  org?: number;
  apiKey?: string;
}

export type Auth = { kind: 'org'; org: number } | { kind: 'key'; apiKey: string };

/** Exactly one of --org and --api-key (PIMBRIDGE_API_KEY stands in for --api-key; an explicit --org wins over it). */
export function resolveAuth(o: AuthOptions, env: NodeJS.ProcessEnv = process.env): Auth {
  if (o.org !== undefined && o.apiKey !== undefined) throw new CliUsageError('give either --org ID or --api-key KEY, not both');
  if (o.org !== undefined) return { kind: 'org', org: o.org };
  const apiKey = (o.apiKey ?? env.PIMBRIDGE_API_KEY)?.trim();
  if (o.apiKey !== undefined && !apiKey) throw new CliUsageError('--api-key is empty');
  if (!apiKey) {
    throw new CliUsageError('say whose catalogue: --api-key KEY (or PIMBRIDGE_API_KEY), or --org ID to use a temporary key issued with the admin token');
  }
  return { kind: 'key', apiKey };
}

/** A promise that never settles (a race's side that waits for a signal). */
export const never = () => new Promise<never>(() => {});
/** Why a request failed, in the network layer's words when it has any. */
export const causeOf = (err: unknown) => {
  const e = err as { cause?: { code?: string; message?: string }; message?: string };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
};

/** The PIM API as one organization (X-API-KEY), answers in the envelope `{status, data, error}`. */
export class PimClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  url(pathAndQuery: string): string {
    return `${this.baseUrl}${pathAndQuery}`;
  }

  /** A fetch whose failures are CliErrors: unreachable (transient), or the server's own message for a non-2xx answer. */
  async request(pathAndQuery: string, init: RequestInit & { duplex?: 'half' } = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(this.url(pathAndQuery), {
        ...init,
        headers: { 'x-api-key': this.apiKey, ...(init.headers as Record<string, string> | undefined) },
      } as RequestInit);
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') throw new CliError(`Pimbridge at ${this.baseUrl} did not answer in time`, true);
      throw new CliError(`Cannot reach Pimbridge at ${this.baseUrl} (${causeOf(err)}); is the server running?`, true);
    }
    if (!res.ok) throw await answerError(res);
    return res;
  }

  async data<T>(pathAndQuery: string, init: RequestInit & { duplex?: 'half' } = {}): Promise<T> {
    const res = await this.request(pathAndQuery, { signal: AbortSignal.timeout(30_000), ...init });
    let payload: { status?: number; data?: T; error?: string };
    try {
      payload = (await res.json()) as typeof payload;
    } catch (err) {
      throw new CliError(
        `${res.status}: the answer of ${pathAndQuery.split('?')[0]} is not JSON (${causeOf(err)}); is ${this.baseUrl} a Pimbridge server?`,
        true,
      );
    }
    if (payload.status !== 1) throw new CliError(`${res.status}: ${payload.error ?? 'the request failed'}`);
    return payload.data as T;
  }
}

/** A non-2xx answer as one line: `400: <the server's message>`; 5xx and 429 are transient (worth another try). */
async function answerError(res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    message = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : undefined;
  } catch {
    message = undefined;
  }
  message ??= text.trim().split('\n')[0]?.slice(0, 200) || res.statusText;
  const hint = res.status === 401 ? ' (check the API key, or use --org with the admin token)' : '';
  return new CliError(`${res.status}: ${message}${hint}`, res.status >= 500 || res.status === 429);
}

export interface Session {
  pim: PimClient;
  /** Set by the command: what to undo or say when Ctrl-C arrives (stop the bar, remove a half-written file). */
  onInterrupt: (() => string | undefined) | null;
  interrupted: boolean;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `use` with a PIM client. With --org, a temporary key is issued first and revoked after, whatever happens:
 * success, an error, or a signal (the handler revokes, then exits 130 for SIGINT, 143 for SIGTERM).
 */
export async function withPim<T>(client: () => ClientConfig, auth: Auth, keyName: string, use: (session: Session) => Promise<T>): Promise<T> {
  const config = client();
  const session: Session = { pim: null as unknown as PimClient, onInterrupt: null, interrupted: false };
  let issuing: Promise<{ id: number; api_key: string } | null> = Promise.resolve(null);
  let revoking: Promise<void> | null = null;
  const revoke = (): Promise<void> =>
    (revoking ??= issuing.then(
      async (key) => {
        if (!key) return;
        try {
          await adminRequest(config, 'DELETE', `/admin/api-keys/${key.id}`);
          if (session.interrupted) process.stderr.write(`The temporary API key ${key.id} is revoked.\n`);
        } catch (err) {
          process.stderr.write(
            `Could not revoke the temporary API key ${key.id} (${(err as Error).message}); revoke it with: pimbridge key revoke ${key.id}\n`,
          );
        }
      },
      () => {},
    ));
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (session.interrupted) process.exit(code); // a second Ctrl-C: leave at once
    session.interrupted = true;
    let note: string | undefined;
    try {
      note = session.onInterrupt?.();
    } catch {
      // best effort
    }
    process.stderr.write(`Interrupted${auth.kind === 'org' ? '; revoking the temporary API key…' : '.'}\n${note ? `${note}\n` : ''}`);
    void revoke().finally(() => process.exit(code));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    if (auth.kind === 'key') session.pim = new PimClient(config.baseUrl, auth.apiKey);
    else {
      issuing = adminRequest<{ id: number; api_key: string }>(config, 'POST', `/admin/organizations/${auth.org}/api-keys`, { name: keyName });
      const key = (await issuing)!;
      if (session.interrupted) return await never();
      session.pim = new PimClient(config.baseUrl, key.api_key);
    }
    return await use(session);
  } finally {
    if (!session.interrupted) {
      await revoke();
      for (const s of SIGNALS) process.off(s, onSignal);
    }
  }
}
