// The Shopify adapter's table: each shop's cost budget shared by the deployment's processes when there is no Redis
// (shared-budget.ts, its only reader and writer, in raw SQL). No other table refers to it.
import { doublePrecision, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Each shop's Shopify cost budget as every process of the deployment estimates it together (storefront/shopify/
 * shared-budget.ts), when there is no Redis: the bucket's size and restore rate as the shop last reported them, and the
 * points available at `at_ms` (ms since the epoch, the callers' clock; below 0 while callers wait their turn).
 */
export const shopBudgets = pgTable('shop_budgets', {
  domain: text('domain').primaryKey(),
  maximum: doublePrecision('maximum').notNull(),
  restoreRate: doublePrecision('restore_rate').notNull(),
  available: doublePrecision('available').notNull(),
  atMs: doublePrecision('at_ms').notNull(),
});
