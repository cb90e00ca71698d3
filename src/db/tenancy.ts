// The tenant table: every organization's row, which the rows of every module hang off (organization_id, directly or
// through a parent row). Platform, not a module's: each module's tables file refers to it and any module reads it.
// The admin API creates, deactivates and deletes organizations (admin/organization.repository.ts); the PIM sets the
// two catalogue settings kept here, the default currency and the catalogue's languages
// (pim/organization/organization.repository.ts).
// docs/architecture.md, "Tables and their owners".
import { sql } from 'drizzle-orm';
import { boolean, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
  /** The currency of products and files that name none (ISO 4217); set once by the organization, never guessed. */
  defaultCurrency: text('default_currency'),
  /** The languages the catalogue is translated into beyond its base text (`de`, `fr-CA`): every channel needs them (completeness). */
  languages: text('languages').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
