// Connector test setup: a harness whose app also listens on a real port, so that the connector's live credential
// check reaches the real PIM of the same app over HTTP; plus shops made through the admin API and connector calls.
import type { Response as InjectResponse } from 'light-my-request';
import net from 'node:net';
import type { ServiceOverrides } from '../../src/server/services.js';
import { harness, type DatabaseTarget, type Harness, type Tenant } from './harness.js';

export interface ConnectorHarness extends Harness {
  /** http://127.0.0.1:port of this app (its PIM). */
  pimUrl: string;
  /** A shopify shop through POST /admin/shops; returns its domain. */
  shop(domain?: string): Promise<string>;
  /** A tenant (organization + key) and a shop, connected; returns the connect answer's data. */
  connected(domain?: string): Promise<{ tenant: Tenant; domain: string; integrationId: number; token: string }>;
  /** inject() against the connector: optional bearer token, JSON body (a string body is sent as is). */
  call(method: string, url: string, token?: string | null, payload?: unknown, headers?: Record<string, string>): Promise<InjectResponse>;
}

/** A free TCP port on 127.0.0.1 (for a PUBLIC_URL that must be known before the app is built). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let shops = 0;

export async function connectorHarness(
  target: DatabaseTarget,
  env: Record<string, string> = {},
  port = 0,
  services: ServiceOverrides = {},
): Promise<ConnectorHarness> {
  const h = await harness(target, env, services);
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
  const shop: ConnectorHarness['shop'] = async (domain = `shop-${process.pid}-${++shops}.myshopify.com`) => {
    const res = await h.admin('POST', '/admin/shops', { domain, platform: 'shopify', access_token: `shpat_test_${shops}` });
    if (res.statusCode !== 201) throw new Error(`shop add failed: ${res.statusCode} ${res.body}`);
    return domain;
  };
  return {
    ...h,
    pimUrl,
    call,
    shop,
    async connected(domain) {
      const tenant = await h.tenant();
      const d = await shop(domain);
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
  };
}
