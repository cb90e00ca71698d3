// Installing the app on a shop through Shopify's authorization code grant
// (https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant), for the
// console's signed-in organization, which then owns the shop:
//   begin:    a random `state`, bound to this browser (a cookie nonce) and to the organization, kept single use for
//             10 minutes; the merchant goes to the shop's consent page.
//   complete: the callback's query checked as the page says (the shop is a shop host name, the HMAC is the app's, the
//             timestamp is recent, the state is ours and this browser's); the code exchanged for an expiring offline
//             token (1 h, with a refresh token), stored sealed; the shop registered (or its access replaced) for the
//             organization; and the shop connected to the organization's PIM account with a key of its own.
import { randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { StorefrontAuthError, type StorefrontApp, type StorefrontAuthorization } from '../../storefront/port/authorization.js';
import { StorefrontError } from '../../storefront/port/errors.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import type { ConnectInput, ConnectProof } from '../integrations/integration.service.js';
import type { ShopAuthRepository } from './shop-auth.repository.js';
import type { ShopTokens } from './shop-tokens.js';

/** The browser's two pages of an install (install.routes.ts); the callback is the redirect URI Shopify is given. */
export const INSTALL_PATH = '/shopify/install';
export const CALLBACK_PATH = '/shopify/callback';

/** How long an install may take from begin to callback. */
const INSTALL_TTL_MS = 10 * 60_000;
/**
 * How far the callback's `timestamp` may be from now: @shopify/shopify-api's tolerance
 * (HMAC_TIMESTAMP_PERMITTED_CLOCK_TOLERANCE_SEC, 90 s); the authorization code page says to check it is recent.
 */
const CALLBACK_CLOCK_TOLERANCE_S = 90;

/** The app a shop is installed with: the sandbox store's own, or the Pimbridge app of SHOPIFY_API_KEY/SECRET. */
export interface InstallApp {
  app: StorefrontApp;
  platform: 'shopify' | 'sandbox';
  /** Where the shop's admin answers when it is not https://{domain} (a sandbox store). */
  apiBaseUrl: string | null;
}

/** An install refused; the message is for the merchant, in the page they land on. */
export class InstallError extends Error {
  override name = 'InstallError';
}

export interface ShopInstallDeps {
  repo: ShopAuthRepository;
  tokens: Pick<ShopTokens, 'seal'>;
  box: SecretBox;
  auth: StorefrontAuthorization;
  /** The app for a shop domain; null when none can be installed there (no SHOPIFY_API_KEY, not a sandbox store). */
  appFor(domain: string): Promise<InstallApp | null>;
  /** The connect, with proof of control of the shop (integration.service.ts). */
  connect(input: ConnectInput, proof: ConnectProof): Promise<{ integration_id: number }>;
  /** The integration of a shop, if any, and whether it is active. */
  integrationOf(shopId: number): Promise<{ id: number; isActive: boolean } | null>;
  /** The shop's health with a token: a legacy token is checked with it before anything is stored. */
  storefront: Pick<StorefrontPort, 'shopHealth'>;
  /** A new PIM API key of the organization for the integration (name, id and secret shown to nobody). */
  mintPimKey(organizationId: number, name: string): Promise<{ apiKey: string; apiSecret: string }>;
  now?: () => Date;
}

export class ShopInstallService {
  private readonly now: () => Date;

  constructor(
    private readonly deps: ShopInstallDeps,
    private readonly options: { publicUrl: string },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  get callbackUrl(): string {
    return `${this.options.publicUrl}${CALLBACK_PATH}`;
  }

  /** Starts an install for the organization: where to send the browser, and the nonce its cookie keeps. */
  async begin(rawDomain: string, organizationId: number): Promise<{ redirectUrl: string; browserNonce: string }> {
    const domain = rawDomain.trim().toLowerCase();
    const target = await this.deps.appFor(domain);
    if (!target || (target.platform === 'shopify' && !this.deps.auth.isShopHost(domain))) {
      throw new InstallError(
        this.deps.auth.isShopHost(domain)
          ? 'This server has no Shopify app to install (set SHOPIFY_API_KEY and SHOPIFY_API_SECRET), or connect the store with its client credentials'
          : `"${rawDomain.slice(0, 100)}" is not a Shopify store address such as acme.myshopify.com`,
      );
    }
    const existing = await this.deps.repo.findByDomain(domain);
    if (existing && existing.organizationId !== null && existing.organizationId !== organizationId) throw ownedByAnother(domain);
    const state = randomBytes(32).toString('base64url');
    const browserNonce = randomBytes(32).toString('base64url');
    await this.deps.repo.createInstall({
      stateHash: sha256Hex(state),
      browserHash: sha256Hex(browserNonce),
      organizationId,
      domain,
      expiresAt: new Date(this.now().getTime() + INSTALL_TTL_MS),
    });
    const redirectUrl = this.deps.auth.authorizeUrl({ domain, apiBaseUrl: target.apiBaseUrl }, target.app, { redirectUri: this.callbackUrl, state });
    return { redirectUrl, browserNonce };
  }

  /** The callback: checks, exchanges, registers and connects; the integration the merchant lands on. */
  async complete(query: Record<string, string>, browserNonce: string | undefined): Promise<{ integrationId: number; domain: string }> {
    const domain = (query.shop ?? '').toLowerCase();
    const target = domain ? await this.deps.appFor(domain) : null;
    if (!target || (target.platform === 'shopify' && !this.deps.auth.isShopHost(domain)))
      throw new InstallError('The callback names no shop this server can install on');
    if (!this.deps.auth.callbackSigned(query, target.app)) throw new InstallError("The callback's signature (hmac) is not the app's: start the install again");
    const timestamp = Number(query.timestamp);
    if (!Number.isFinite(timestamp) || Math.abs(this.now().getTime() / 1000 - timestamp) > CALLBACK_CLOCK_TOLERANCE_S) {
      throw new InstallError('The callback is too old (its timestamp): start the install again');
    }
    const install = query.state ? await this.deps.repo.takeInstall(sha256Hex(query.state)) : null;
    if (!install || !browserNonce || !safeEqual(install.browserHash, sha256Hex(browserNonce)) || install.domain !== domain) {
      throw new InstallError('This install was not started in this browser, or has expired: start it again from the console');
    }
    if (!query.code) throw new InstallError('The callback carries no authorization code');

    let grant: Awaited<ReturnType<StorefrontAuthorization['exchangeCode']>>;
    try {
      grant = await this.deps.auth.exchangeCode({ domain, apiBaseUrl: target.apiBaseUrl }, target.app, query.code);
    } catch (err) {
      if (err instanceof StorefrontAuthError) throw new InstallError(`The shop did not give an access token: ${err.message}`);
      throw err;
    }
    return this.registerAndConnect(install.organizationId, domain, target, {
      authMethod: 'authorization_code',
      clientId: target.app.clientId,
      clientSecretEncrypted: this.deps.box.seal(target.app.clientSecret),
      apiBaseUrl: target.apiBaseUrl,
      grant: this.deps.tokens.seal(grant),
    });
  }

  /**
   * The console's other two ways (POST /api/shops): the merchant's own store with a Dev Dashboard app's client id and
   * secret (client credentials grant: a token now, and its renewals later), or a legacy custom app's token. The
   * credentials are proof of control of the shop; the shop is registered for the organization and connected.
   */
  async connectOwnStore(
    organizationId: number,
    input: { domain: string; client_id?: string; client_secret?: string; access_token?: string },
  ): Promise<{ integrationId: number; domain: string }> {
    const domain = input.domain.trim().toLowerCase();
    const target = await this.deps.appFor(domain);
    // A sandbox store answers at its own address; any other is a Shopify store at https://{domain}.
    const apiBaseUrl = target?.platform === 'sandbox' ? target.apiBaseUrl : null;
    const platform = target?.platform ?? 'shopify';
    if (platform === 'shopify' && !this.deps.auth.isShopHost(domain)) {
      throw new InstallError(`"${input.domain.slice(0, 100)}" is not a Shopify store address such as acme.myshopify.com`);
    }
    const existing = await this.deps.repo.findByDomain(domain);
    if (existing && existing.organizationId !== null && existing.organizationId !== organizationId) throw ownedByAnother(domain);
    if (input.access_token !== undefined) {
      if (input.client_id !== undefined || input.client_secret !== undefined)
        throw new InstallError('Send either the access token or the client id and secret, not both');
      try {
        await this.deps.storefront.shopHealth({ domain, apiBaseUrl, accessToken: input.access_token }, { timeoutMs: 10_000 });
      } catch (err) {
        if (!(err instanceof StorefrontError)) throw err;
        throw new InstallError(err.kind === 'unauthorized' ? 'The store refused this access token' : `The store could not be reached: ${err.message}`);
      }
      const grant = { accessToken: input.access_token, scopes: [], expiresAt: null, refreshToken: null, refreshTokenExpiresAt: null };
      return this.registerAndConnect(
        organizationId,
        domain,
        { platform, apiBaseUrl },
        {
          authMethod: 'access_token',
          clientId: null,
          clientSecretEncrypted: null,
          apiBaseUrl,
          grant: this.deps.tokens.seal(grant),
        },
      );
    }
    if (!input.client_id || !input.client_secret) throw new InstallError("Send the app's client id and client secret, or a legacy access token");
    const app = { clientId: input.client_id, clientSecret: input.client_secret };
    let grant: Awaited<ReturnType<StorefrontAuthorization['clientCredentials']>>;
    try {
      grant = await this.deps.auth.clientCredentials({ domain, apiBaseUrl }, app);
    } catch (err) {
      if (err instanceof StorefrontAuthError) throw new InstallError(`The store did not give an access token for these credentials: ${err.message}`);
      throw err;
    }
    return this.registerAndConnect(
      organizationId,
      domain,
      { platform, apiBaseUrl },
      {
        authMethod: 'client_credentials',
        clientId: app.clientId,
        clientSecretEncrypted: this.deps.box.seal(app.clientSecret),
        apiBaseUrl,
        grant: this.deps.tokens.seal(grant),
      },
    );
  }

  /**
   * The shop registered for the organization (or its access replaced, when it is the organization's already), then
   * connected to the organization's PIM account (this server) with a key of its own that the organization can revoke.
   * A shop already connected keeps its integration, mappings and token.
   */
  private async registerAndConnect(
    organizationId: number,
    domain: string,
    target: Pick<InstallApp, 'platform' | 'apiBaseUrl'>,
    access: Parameters<ShopAuthRepository['replaceAccess']>[1],
  ): Promise<{ integrationId: number; domain: string }> {
    let shop = await this.deps.repo.findByDomain(domain);
    if (shop && shop.organizationId !== null && shop.organizationId !== organizationId) throw ownedByAnother(domain);
    if (shop) {
      await this.deps.repo.replaceAccess(shop.id, access);
      if (shop.organizationId === null) await this.deps.repo.setOwner(shop.id, organizationId);
    } else {
      shop = await this.deps.repo.create({ domain, platform: target.platform, organizationId, ...access });
      if (!shop) throw new InstallError('Another connection of this shop finished first: open the console to see it');
    }
    const current = await this.deps.integrationOf(shop.id);
    if (current?.isActive) return { integrationId: current.id, domain };
    const key = await this.deps.mintPimKey(organizationId, `Shopify: ${domain}`);
    const connected = await this.deps.connect(
      { shop_domain: domain, pim_base_url: this.options.publicUrl, pim_api_key: key.apiKey, pim_api_secret: key.apiSecret },
      { kind: 'shop', organizationId },
    );
    return { integrationId: connected.integration_id, domain };
  }
}

const ownedByAnother = (domain: string) =>
  new InstallError(`${domain} is connected to another Pimbridge account: its owner must remove it first (or ask the operator)`);
