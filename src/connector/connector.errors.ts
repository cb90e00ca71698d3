// The connector's error model: every enveloped error is {status: "error", message, code} with the HTTP status the
// spec gives its code. Services throw ConnectorError; the connector's error handler renders it.
export const CONNECTOR_ERROR_STATUS = {
  AUTHENTICATION_FAILED: 401,
  INVALID_JSON: 400,
  MISSING_FIELD: 400,
  SHOP_NOT_FOUND: 404,
  INTEGRATION_EXISTS: 409,
  /** 400 on connect; update passes 503 explicitly (the spec's rule). */
  VALIDATION_FAILED: 400,
  INVALID_CREDENTIALS: 401,
  CONNECTION_FAILED: 503,
  NO_UPDATES: 400,
  NO_PRODUCTS: 400,
  BATCH_SIZE_EXCEEDED: 400,
  MAPPING_NOT_FOUND: 404,
  INTERNAL_ERROR: 500,
  // Beyond the spec (documented in docs/connector-api.md): a valid token whose scope is too narrow, and unknown token ids.
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  /** POST /api/sync/full while one is queued or running (the answer carries it in `data`). */
  SYNC_IN_PROGRESS: 409,
  /** The public routes' own per-IP limit (CONNECTOR_PUBLIC_RATE_LIMIT), with Retry-After. */
  RATE_LIMITED: 429,
} as const;

export type ConnectorErrorCode = keyof typeof CONNECTOR_ERROR_STATUS;

export class ConnectorError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ConnectorErrorCode,
    message: string,
    statusCode?: number,
    /** Extra response headers (the authentication limit's X-RateLimit-*, the public limit's Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
    this.statusCode = statusCode ?? CONNECTOR_ERROR_STATUS[code];
  }
}
