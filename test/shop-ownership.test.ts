// Who may connect a shop: only its owner organization (the organization_id it was registered for), proven by one of
// that organization's own PIM keys checked in process. Anyone else — and anyone at all for a shop with no owner — gets
// the answer of a shop that does not exist (404 SHOP_NOT_FOUND): never the owner's integration (active or not), never
// INTEGRATION_EXISTS, whatever PIM address it gives, even one that answers 200 to everything.
import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import type { Response as InjectResponse } from 'light-my-request';
import { after, before, describe, it } from 'node:test';
import { TokenRepository } from '../src/connector/auth/token.repository.js';
import { MappingRepository } from '../src/connector/mappings/mapping.repository.js';
import { connectorHarness, type ConnectorHarness } from './helpers/connector.js';
import { integrationOfShop, mappingOf } from './helpers/connector-reads.js';
import { databaseTargets, type Tenant } from './helpers/harness.js';
import { serveHttp, type TestServer } from './helpers/servers.js';

const YES = '{"status":1,"data":{"organization":{"id":1,"name":"x","active":true}},"error":null}';

for (const target of databaseTargets()) {
  describe(`shop ownership on connect (${target.name})`, () => {
    let h: ConnectorHarness;
    /** A PIM that says yes to any key: the address an attacker controls. */
    let yes: TestServer;
    let unknownShop = 0;

    before(async () => {
      // Private addresses allowed (the harness's default, said here): the yes-man on 127.0.0.1 is not refused for its address.
      h = await connectorHarness(target, { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' });
      yes = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(YES));
    });
    after(async () => {
      await yes.close();
      await h.close();
    });

    const connect = (domain: string, who: Pick<Tenant, 'apiKey' | 'apiSecret'>, pimBaseUrl = h.pimUrl) =>
      h.call('POST', '/api/connect', null, { shop_domain: domain, pim_base_url: pimBaseUrl, pim_api_key: who.apiKey, pim_api_secret: who.apiSecret });
    /** The shop's integration, if it has one (no route shows a shop's integration to anyone but its tokens). */
    const integrationOf = (domain: string) => integrationOfShop(h.database.db, domain);

    /** The answer is the one an unknown shop gets (only the domain in the message differs): nothing of the owner's integration. */
    async function assertLikeUnknownShop(res: InjectResponse, domain: string, who: Tenant): Promise<void> {
      assert.equal(res.statusCode, 404, res.body);
      const nowhere = `nowhere-${process.pid}-${++unknownShop}.myshopify.com`;
      const unknown = (await connect(nowhere, who)).json();
      assert.equal(unknown.code, 'SHOP_NOT_FOUND');
      assert.deepEqual(res.json(), { ...unknown, message: unknown.message.replace(nowhere, domain) });
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'message', 'status']);
      assert.ok(!res.body.includes('integration'), res.body);
    }

    it("B cannot take A's inactive integration after A disconnects; A reconnects to the same integration and mappings", async () => {
      const a = await h.connected();
      await new MappingRepository(h.database.db).insertPending(a.integrationId, 7001);
      assert.equal((await h.call('POST', '/api/disconnect', a.token)).statusCode, 200);
      const b = await h.tenant();

      // B with its own valid key, against this PIM and against a PIM that says yes to anything; and with A's key but a wrong secret.
      const hitsBefore = yes.hits.length;
      await assertLikeUnknownShop(await connect(a.domain, b), a.domain, b);
      await assertLikeUnknownShop(await connect(a.domain, b, yes.url), a.domain, b);
      await assertLikeUnknownShop(await connect(a.domain, { apiKey: a.tenant.apiKey, apiSecret: 'sk_wrong' }, yes.url), a.domain, b);
      assert.equal(yes.hits.length, hitsBefore, 'the PIM address B gave was never asked');

      // A's integration is as A left it: inactive, A's key, no live token, its mapping.
      const row = (await integrationOf(a.domain))!;
      assert.equal(row.id, a.integrationId);
      assert.equal(row.isActive, false);
      assert.equal(row.pimBaseUrl, h.pimUrl);
      assert.equal((await h.app.services.connector.integrations.pimConnectionOf(a.integrationId))?.apiKey, a.tenant.apiKey);
      assert.deepEqual(await new TokenRepository(h.database.db).listLive(a.integrationId), []);

      const again = await connect(a.domain, a.tenant);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().data.integration_id, a.integrationId, 'the same integration id');
      assert.notEqual(await mappingOf(h, again.json().data.api_token, 7001), null, 'mappings kept');
      assert.equal((await h.call('GET', '/api/tokens', again.json().data.api_token)).statusCode, 200);
    });

    it('B cannot claim a shop registered for A and never connected, even with a PIM address that answers 200 to anything', async () => {
      // The yes-man is a working PIM address: the owner connecting through it succeeds (so only ownership stops B below).
      const c = await h.tenant();
      const decoy = await h.shop(undefined, c.organizationId);
      const hitsBefore = yes.hits.length;
      const through = await connect(decoy, c, yes.url);
      assert.equal(through.statusCode, 200, through.body);
      assert.deepEqual(yes.hits.slice(hitsBefore), ['/api/auth/verify']);

      const a = await h.tenant();
      const domain = await h.shop(undefined, a.organizationId);
      const b = await h.tenant();
      const asked = yes.hits.length;
      await assertLikeUnknownShop(await connect(domain, b, yes.url), domain, b);
      await assertLikeUnknownShop(await connect(domain, { apiKey: 'pk_anything', apiSecret: 'sk_anything' }, yes.url), domain, b);
      await assertLikeUnknownShop(await connect(domain, b), domain, b);
      assert.equal(yes.hits.length, asked, 'the PIM address B gave was never asked');
      assert.equal(await integrationOf(domain), null, 'no integration made');

      const owner = await connect(domain, a);
      assert.equal(owner.statusCode, 200, owner.body);
      assert.equal(owner.json().data.shop_domain, domain);
    });

    it("B gets SHOP_NOT_FOUND, not INTEGRATION_EXISTS, for another owner's active integration; A's stays untouched", async () => {
      const a = await h.connected();
      const b = await h.tenant();
      await assertLikeUnknownShop(await connect(a.domain, b), a.domain, b);
      await assertLikeUnknownShop(await connect(a.domain, b, yes.url), a.domain, b);
      // The owner itself is told the integration exists.
      const own = await connect(a.domain, a.tenant);
      assert.equal(own.statusCode, 409, own.body);
      assert.equal(own.json().code, 'INTEGRATION_EXISTS');
      assert.equal((await integrationOf(a.domain))?.isActive, true);
      assert.equal((await h.app.services.connector.integrations.pimConnectionOf(a.integrationId))?.apiKey, a.tenant.apiKey);
      assert.equal((await h.call('GET', '/api/tokens', a.token)).statusCode, 200, "A's token still works");
    });

    it('a shop with no owner connects for nobody until PATCH /admin/shops/{id} gives it one', async () => {
      const a = await h.tenant();
      const domain = await h.shop(undefined, a.organizationId);
      // As a shop registered before owners existed (no route takes an owner away).
      await h.database.db.execute(sql`update shops set organization_id = null where domain = ${domain}`);
      const shop = (await h.admin('GET', '/admin/shops')).json().shops.find((s: { domain: string }) => s.domain === domain);
      assert.equal(shop.organization_id, null);
      await assertLikeUnknownShop(await connect(domain, a), domain, a);
      await assertLikeUnknownShop(await connect(domain, a, yes.url), domain, a);
      assert.equal(await integrationOf(domain), null);

      assert.equal((await h.admin('PATCH', `/admin/shops/${shop.id}`, { organization_id: a.organizationId })).statusCode, 200);
      const res = await connect(domain, a);
      assert.equal(res.statusCode, 200, res.body);
    });
  });
}
