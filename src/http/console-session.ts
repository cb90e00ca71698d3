// Who a console request is, once its session cookie has been checked (server/console-session.ts). Every API module reads
// it: the PIM serves the session's organization, the connector the integrations of that organization's PIM account.
export interface ConsoleSession {
  organizationId: number;
  keyId: number;
  /** SHA-256 of every key of the organization, revoked ones included: which integrations use this PIM account. */
  accountKeyHashes: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session this request carries (cookie), or null: none, or an API key / bearer token was sent. */
    consoleSession: ConsoleSession | null;
    /** A session cookie came that no longer opens anything (expired, signed out, key revoked, organization inactive). */
    consoleSessionEnded: boolean;
  }
}
