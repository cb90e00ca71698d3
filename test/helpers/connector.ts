// Connector test setup: a harness whose app also listens on a real port, so that the connector's live credential
// check reaches the real PIM of the same app over HTTP; plus shops made through the admin API and connector calls.
import type { Response as InjectResponse } from 'light-my-request';
import type net from 'node:net';
import type { ServiceOverrides } from '../../src/server/services.js';
import { ADMIN_API_VERSION } from '../../src/storefront/shopify/api-version.js';
import { harness, type DatabaseTarget, type Harness, type Tenant } from './harness.js';
import { sandboxData, type Json } from './sandbox-graphql.js';

export interface ConnectorHarness extends Harness {
  /** http://127.0.0.1:port of this app (its PIM). */
  pimUrl: string;
  /** A shopify shop through POST /admin/shops, owned by `organizationId` (a new organization when absent); returns its domain. */
  shop(domain?: string, organizationId?: number): Promise<string>;
  /** A tenant (organization + key) and a shop, connected; returns the connect answer's data. */
  connected(domain?: string): Promise<{ tenant: Tenant; domain: string; integrationId: number; token: string }>;
  /**
   * A tenant and a built-in sandbox store (needs SHOPIFY_SANDBOX=true), connected; with `gql` on the store's Admin
   * GraphQL API over real HTTP (it fails on top-level errors) to read back what the bridge wrote.
   */
  sandboxConnected(domain?: string): Promise<SandboxConnection>;
  /**
   * The sandbox store fetches media from loopback and private addresses too (PATCH /admin/sandbox/stores/{domain}
   * `allow_private_media_sources`): what a suite needs whose images are on 127.0.0.1 (its PIM's media, a local image
   * server). Without it the store, as Shopify, fetches from public addresses only.
   */
  allowPrivateMediaSources(domain: string): Promise<void>;
  /** inject() against the connector: optional bearer token, JSON body (a string body is sent as is). */
  call(method: string, url: string, token?: string | null, payload?: unknown, headers?: Record<string, string>): Promise<InjectResponse>;
}

export interface SandboxConnection {
  tenant: Tenant;
  domain: string;
  integrationId: number;
  token: string;
  /** The store's Admin API access token. */
  accessToken: string;
  /** The store's Admin GraphQL URL. */
  graphqlUrl: string;
  gql<T = Json>(query: string, variables?: Json): Promise<T>;
}

export { freePort } from './free-port.js';

let shops = 0;

export async function connectorHarness(
  target: DatabaseTarget,
  env: Record<string, string> = {},
  port = 0,
  services: ServiceOverrides = {},
): Promise<ConnectorHarness> {
  // The PIM these tests connect to is this app on 127.0.0.1 at a port picked now, not PUBLIC_URL (unless a suite sets
  // both): a private address, which the connector refuses by default. The suites opt in, as an operator would, with
  // CONNECTOR_ALLOW_PRIVATE_NETWORKS; a suite that tests the refusal sets it to false.
  const h = await harness(target, { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', ...env }, services);
  await h.app.listen({ port, host: '127.0.0.1' });
  const pimUrl = `http://127.0.0.1:${(h.app.server.address() as net.AddressInfo).port}`;
  const call: ConnectorHarness['call'] = (method, url, token, payload, headers = {}) =>
    h.app.inject({
      method: method as never,
      url,
      payload: payload as never,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
    }) as Promise<InjectResponse>;
  const shop: ConnectorHarness['shop'] = async (domain = `shop-${process.pid}-${++shops}.myshopify.com`, organizationId?: number) => {
    const owner = organizationId ?? (await h.tenant()).organizationId;
    const res = await h.admin('POST', '/admin/shops', { domain, platform: 'shopify', organization_id: owner, access_token: `shpat_test_${shops}` });
    if (res.statusCode !== 201) throw new Error(`shop add failed: ${res.statusCode} ${res.body}`);
    return domain;
  };
  return {
    ...h,
    pimUrl,
    call,
    shop,
    async allowPrivateMediaSources(domain) {
      const res = await h.admin('PATCH', `/admin/sandbox/stores/${domain}`, { allow_private_media_sources: true });
      if (res.statusCode !== 200) throw new Error(`sandbox store setting failed: ${res.statusCode} ${res.body}`);
    },
    async connected(domain) {
      const tenant = await h.tenant();
      const d = await shop(domain, tenant.organizationId);
      const res = await call('POST', '/api/connect', null, {
        shop_domain: d,
        pim_base_url: pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
      const data = res.json().data;
      return { tenant, domain: d, integrationId: data.integration_id, token: data.api_token };
    },
    async sandboxConnected(domain = `sandbox-${process.pid}-${++shops}.myshopify.com`) {
      const tenant = await h.tenant();
      const made = await h.admin('POST', '/admin/shops', { domain, platform: 'sandbox', organization_id: tenant.organizationId });
      if (made.statusCode !== 201) throw new Error(`sandbox store failed: ${made.statusCode} ${made.body}`);
      const accessToken = made.json().access_token as string;
      const graphqlUrl = `${pimUrl}/sandbox/shopify/${domain}/admin/api/${ADMIN_API_VERSION}/graphql.json`;
      const res = await call('POST', '/api/connect', null, {
        shop_domain: domain,
        pim_base_url: pimUrl,
        pim_api_key: tenant.apiKey,
        pim_api_secret: tenant.apiSecret,
      });
      if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
      const data = res.json().data;
      return {
        tenant,
        domain,
        integrationId: data.integration_id,
        token: data.api_token,
        accessToken,
        graphqlUrl,
        gql: async <T = Json>(query: string, variables: Json = {}) => (await sandboxData(graphqlUrl, accessToken, query, variables)) as T,
      };
    },
  };
}
