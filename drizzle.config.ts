// Production's schema: the tenant table (platform) and each module's tables files (docs/architecture.md, "Tables and
// their owners"); `npx drizzle-kit generate` into src/db/migrations. The sandbox's are drizzle.sandbox.config.ts.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/tenancy.ts', './src/admin/*.tables.ts', './src/pim/*.tables.ts', './src/connector/*.tables.ts', './src/storefront/shopify/*.tables.ts'],
  out: './src/db/migrations',
});
