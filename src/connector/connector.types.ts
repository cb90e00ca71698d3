// Who is calling a connector route, once the bearer token has been checked (see connector.plugin.ts).
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes nest: admin ⊃ write ⊃ read. */
export function scopeAllows(granted: Scope, required: Scope): boolean {
  return SCOPES.indexOf(granted) >= SCOPES.indexOf(required);
}

export interface ConnectorPrincipal {
  integrationId: number;
  tokenId: number;
  scope: Scope;
}

/**
 * Route access, declared in each route's `config`: `{ access: 'public' }` or `{ access: 'read' | 'write' | 'admin' }`
 * (the role the spec's Access column names), or `{ access: 'account' }`: a console session, no integration named. The authentication hook reads it; a route without it is refused.
 */
export type RouteAccess = 'public' | 'account' | Scope;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The HTTP status of VALIDATION_FAILED on this route when not 400: the spec answers it with 503 on integration/update. */
    validationFailedStatus?: number;
  }
  interface FastifyRequest {
    connector: ConnectorPrincipal | null;
  }
}
