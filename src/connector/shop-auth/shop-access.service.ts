// A shop's access as the connector sees it: the storefront side of an integration (with its token source), the scopes
// the shop granted against the ones the bridge needs, how it is connected (for GET /api/status and the console), and
// who owns it (POST /api/connect succeeds only for the owner: docs/connect-a-store.md, "Who may connect a shop").
import type { SecretBox } from '../../lib/secret-box.js';
import type { StorefrontAuthorization } from '../../storefront/port/authorization.js';
import { StorefrontError } from '../../storefront/port/errors.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import { ymdHis } from '../timestamps.js';
import type { ShopAuthRepository } from './shop-auth.repository.js';
import type { AuthMethod, ShopAuthRow } from './shop-columns.js';
import type { ShopTokens } from './shop-tokens.js';

/** How a shop is connected, as GET /api/status (`storefront_access`) and the console show it. */
export interface AccessView {
  method: AuthMethod;
  /** `ok`, or `reauthorization_required` once a renewal failed for good. */
  status: 'ok' | 'reauthorization_required';
  error: string | null;
  /** When the access token expires (Y-m-d H:i:s, UTC); null: it does not. */
  token_expires_at: string | null;
  /** The scopes the shop granted as last read; null: not read yet. */
  granted_scopes: string[] | null;
  /** The scopes the bridge needs that the shop has not granted (empty when none, or not read yet). */
  missing_scopes: string[];
}

export class ShopAccessService {
  constructor(
    private readonly deps: {
      repo: ShopAuthRepository;
      tokens: ShopTokens;
      box: SecretBox;
      auth: StorefrontAuthorization;
      storefront: Pick<StorefrontPort, 'shopHealth'>;
      log?: { warn(obj: object, msg: string): void };
    },
  ) {}

  forIntegration(integrationId: number): Promise<StorefrontShop | null> {
    return this.deps.tokens.forIntegration(integrationId);
  }

  /** Whether `token` is a session token of the app installed on the shop (its own app's id and secret). */
  async sessionTokenValid(domain: string, token: string): Promise<boolean> {
    const row = await this.deps.repo.findByDomain(domain);
    if (!row?.clientId || !row.clientSecretEncrypted) return false;
    return this.deps.auth.sessionTokenValid(token, { clientId: row.clientId, clientSecret: this.deps.box.open(row.clientSecretEncrypted) }, domain);
  }

  /** Keeps the scopes the shop granted, as a health check read them (currentAppInstallation.accessScopes). */
  async recordScopes(integrationId: number, scopes: string[]): Promise<void> {
    const row = await this.deps.repo.findByIntegration(integrationId);
    if (row && !sameScopes(row.grantedScopes, scopes)) await this.deps.repo.saveGrantedScopes(row.id, scopes);
  }

  /** At connect: the scopes read once (with the shop's health), never failing the connect (the status names what is missing). */
  async checkScopesAfterConnect(integrationId: number): Promise<void> {
    try {
      const shop = await this.forIntegration(integrationId);
      const health = shop ? await this.deps.storefront.shopHealth(shop, { timeoutMs: 5_000 }) : null;
      if (health?.scopes) await this.recordScopes(integrationId, health.scopes);
    } catch (err) {
      if (!(err instanceof StorefrontError)) throw err;
      this.deps.log?.warn({ err, integrationId }, "the shop's access scopes could not be read at connect");
    }
  }

  async viewForIntegration(integrationId: number): Promise<AccessView | null> {
    const row = await this.deps.repo.findByIntegration(integrationId);
    return row ? this.view(row) : null;
  }

  view(row: ShopAuthRow): AccessView {
    return {
      method: row.authMethod,
      status: row.authStatus,
      error: row.authError,
      token_expires_at: row.authMethod === 'access_token' ? null : ymdHis(row.accessTokenExpiresAt),
      granted_scopes: row.grantedScopes,
      missing_scopes: row.grantedScopes ? this.deps.auth.missingScopes(row.grantedScopes) : [],
    };
  }
}

const sameScopes = (a: string[] | null, b: string[]) => a !== null && a.length === b.length && a.every((s, i) => s === b[i]);
