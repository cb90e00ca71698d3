// The Shopify sandbox's own schema and migrations (sandbox/sandbox.module.ts applies them where the sandbox
// runs): `npx drizzle-kit generate --config drizzle.sandbox.config.ts`. Production's are drizzle.config.ts.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/sandbox/*.tables.ts',
  out: './src/sandbox/migrations',
});
