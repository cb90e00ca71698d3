// "Connect a Shopify store"'s pure helpers: the store address as a shop domain, the install's address, where sign-in
// returns to, the ways in as a merchant names them, and which field a refusal of POST /api/shops belongs to.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accessMethodWord, connectErrorField, installHref, isServerPath, safeNext, scopeList, storeDomain } from '../src/features/bridge/connect-model.ts';

test('a store address is made a shop domain the way merchants type it', () => {
  assert.equal(storeDomain(''), '');
  assert.equal(storeDomain('   '), '');
  assert.equal(storeDomain('acme.myshopify.com'), 'acme.myshopify.com');
  assert.equal(storeDomain('  Acme.MyShopify.com  '), 'acme.myshopify.com');
  assert.equal(storeDomain('https://acme.myshopify.com/admin/products?x=1'), 'acme.myshopify.com');
  assert.equal(storeDomain('acme.myshopify.com/'), 'acme.myshopify.com');
  assert.equal(storeDomain('acme'), 'acme.myshopify.com');
  assert.equal(storeDomain('my-shop-2'), 'my-shop-2.myshopify.com');
  assert.equal(storeDomain('https://admin.shopify.com/store/acme/products'), 'acme.myshopify.com');
  assert.equal(storeDomain('admin.shopify.com/store/acme'), 'acme.myshopify.com');
  // Anything else is the server's to judge (it says what is wrong).
  assert.equal(storeDomain('www.acme.com'), 'www.acme.com');
  assert.equal(storeDomain('not a store'), 'not a store');
});

test("an install's address names the shop, encoded", () => {
  assert.equal(installHref('acme.myshopify.com'), '/shopify/install?shop=acme.myshopify.com');
  assert.equal(installHref('a&b=c'), '/shopify/install?shop=a%26b%3Dc');
  assert.equal(isServerPath(installHref('acme.myshopify.com')), true);
});

test("sign-in returns to a path of this site only; /shopify/ paths are the server's", () => {
  assert.equal(safeNext(null), '/products');
  assert.equal(safeNext(''), '/products');
  assert.equal(safeNext('/bridge/3?installed=1'), '/bridge/3?installed=1');
  assert.equal(safeNext('/shopify/install?shop=acme.myshopify.com'), '/shopify/install?shop=acme.myshopify.com');
  assert.equal(safeNext('//evil.example/x'), '/products');
  assert.equal(safeNext('/\\evil.example/x'), '/products');
  assert.equal(safeNext('https://evil.example/'), '/products');
  assert.equal(isServerPath('/shopify/install?shop=a'), true);
  assert.equal(isServerPath('/bridge'), false);
  assert.equal(isServerPath('/products/shopify/1'), false);
});

test('the ways in, as a merchant names them', () => {
  assert.equal(accessMethodWord('authorization_code'), 'Installed app');
  assert.equal(accessMethodWord('client_credentials'), 'Own store app');
  assert.equal(accessMethodWord('access_token'), 'Legacy token');
  assert.equal(accessMethodWord('something_new'), 'something_new');
});

test("a refusal of POST /api/shops is shown beside the field it is about (the server's messages)", () => {
  assert.equal(connectErrorField('"www.acme.com" is not a Shopify store address such as acme.myshopify.com', 'own'), 'domain');
  assert.equal(
    connectErrorField('acme.myshopify.com is connected to another Pimbridge account: its owner must remove it first (or ask the operator)', 'legacy'),
    'domain',
  );
  assert.equal(connectErrorField('The store did not give an access token for these credentials: invalid_client', 'own'), 'client_secret');
  assert.equal(connectErrorField('Unknown client_id', 'own'), 'client_id');
  assert.equal(connectErrorField('The access token was refused (401)', 'legacy'), 'access_token');
  assert.equal(connectErrorField('Another connection of this shop finished first: open the console to see it', 'own'), null);
});

test('missing scopes read as a list', () => {
  assert.equal(scopeList([]), '');
  assert.equal(scopeList(['write_files']), 'write_files');
  assert.equal(scopeList(['write_files', 'read_locales']), 'write_files and read_locales');
  assert.equal(scopeList(['a', 'b', 'c']), 'a, b and c');
});
