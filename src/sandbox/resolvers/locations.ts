// `locations`, `location`: each store has one active "Shop location" (made lazily, also for stores made before locations).
import type { LocationRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../gid.js';
import { connection, dateTime, page, type PageArgs } from './connection.js';
import type { ResolverModule, SandboxContext } from './types.js';

export const locationGid = (id: number) => `gid://shopify/Location/${id}`;

export function locationObject(row: LocationRow, primary = true): Record<string, unknown> {
  return {
    __typename: 'Location',
    id: locationGid(row.id),
    legacyResourceId: String(row.id),
    name: row.name,
    isActive: row.isActive,
    isPrimary: primary,
    activatable: false,
    deactivatable: false,
    deletable: false,
    fulfillsOnlineOrders: true,
    hasActiveInventory: true,
    hasUnfulfilledOrders: false,
    isFulfillmentService: false,
    shipsInventory: true,
    addressVerified: false,
    deactivatedAt: null,
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.createdAt),
  };
}

/**
 * `locations(sortKey: LocationSortKeys = NAME)`: sorted by name unless `sortKey: ID` (schema 2026-10, QueryRoot.locations'
 * default). A store has few locations: all are read and paged by position in that order.
 */
async function locations(args: Record<string, unknown>, ctx: SandboxContext) {
  const p = page(args as PageArgs);
  await ctx.products.ensureLocation(ctx.store.id);
  const all = await ctx.productRepo.locations(ctx.store.id, 0, 1000);
  const primary = all[0]?.id;
  if (args.sortKey !== 'ID') all.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  if (args.reverse === true) all.reverse();
  const rows = all.slice(p.afterKey, p.afterKey + p.fetch);
  return connection(
    p,
    rows,
    (r) => all.indexOf(r) + 1,
    (r) => locationObject(r, r.id === primary),
    p.afterKey > 0,
  );
}

async function location(args: Record<string, unknown>, ctx: SandboxContext) {
  await ctx.products.ensureLocation(ctx.store.id);
  const [primary] = await ctx.productRepo.locations(ctx.store.id, 0, 1);
  if (args.id == null) return primary ? locationObject(primary, true) : null;
  const id = gidNumber(args.id, 'Location');
  const row = id === null ? null : await ctx.productRepo.location(ctx.store.id, id);
  return row ? locationObject(row, row.id === primary?.id) : null;
}

export const locationResolvers: ResolverModule = {
  query: { locations, location },
};
