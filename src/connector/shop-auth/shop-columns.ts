// A row of the connector's `shops` table as its two repositories read it, written once: the operator's register
// (shop-registry.repository.ts, the admin API's way to the table) reads a shop without its secrets; the connector's own
// SQL for a shop's access (shop-auth.repository.ts) reads all of it, the sealed tokens and the renewal too.
import { sql } from 'drizzle-orm';
import { shops } from '../connector.tables.js';

export type AuthMethod = 'access_token' | 'client_credentials' | 'authorization_code';
export type AuthStatus = 'ok' | 'reauthorization_required';

/** A shop as the register shows it: who owns it, how its token is obtained and how that goes, no secret. */
export interface ShopRow {
  id: number;
  domain: string;
  platform: string;
  apiBaseUrl: string | null;
  organizationId: number | null;
  authMethod: AuthMethod;
  accessTokenExpiresAt: Date | null;
  tokenRenewals: number;
  authStatus: AuthStatus;
  createdAt: Date;
}

/** A grant as stored: the tokens sealed. */
export interface SealedGrant {
  accessTokenEncrypted: string;
  accessTokenExpiresAt: Date | null;
  refreshTokenEncrypted: string | null;
  refreshTokenExpiresAt: Date | null;
  grantedScopes: string[] | null;
}

/** A shop's way in, as stored: how the token was obtained, the app's credentials and the grant (sealed). */
export interface ShopAccess extends SealedGrant {
  authMethod: AuthMethod;
  clientId: string | null;
  clientSecretEncrypted: string | null;
}

/** The whole row: the register's view, the way in, the last renewal and why the shop must be authorized again. */
export interface ShopAuthRow extends ShopRow, ShopAccess {
  tokenRenewedAt: Date | null;
  authError: string | null;
}

/** The columns of a ShopRow. */
export const shopColumns = {
  id: shops.id,
  domain: shops.domain,
  platform: shops.platform,
  apiBaseUrl: shops.apiBaseUrl,
  organizationId: shops.organizationId,
  authMethod: sql<AuthMethod>`${shops.authMethod}`,
  accessTokenExpiresAt: shops.accessTokenExpiresAt,
  tokenRenewals: shops.tokenRenewals,
  authStatus: sql<AuthStatus>`${shops.authStatus}`,
  createdAt: shops.createdAt,
};

/** The columns of a ShopAuthRow: ShopRow's and the rest. */
export const shopAuthColumns = {
  ...shopColumns,
  clientId: shops.clientId,
  clientSecretEncrypted: shops.clientSecretEncrypted,
  accessTokenEncrypted: shops.accessTokenEncrypted,
  refreshTokenEncrypted: shops.refreshTokenEncrypted,
  refreshTokenExpiresAt: shops.refreshTokenExpiresAt,
  tokenRenewedAt: shops.tokenRenewedAt,
  authError: shops.authError,
  grantedScopes: shops.grantedScopes,
};

/** What storing a new grant sets beside it: renewed now, status ok, the error cleared, the renewal lease released. */
export const grantStored = () => ({ tokenRenewedAt: sql`now()`, authStatus: 'ok', authError: null, renewalOwner: null, renewalUntil: null }) as const;
