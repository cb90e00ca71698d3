// Migrations beside the production ones (src/db/migrations): a module's own, applied only where the module runs.

/**
 * A module's own migrations (the sandbox's, sandbox/migrations): their folder and the table in schema
 * `drizzle` that records which of them ran, apart from the production migrations' `__drizzle_migrations`. drizzle's
 * migrator applies each migration whose journal timestamp is newer than the last one recorded in that table.
 */
export interface MigrationSet {
  migrationsFolder: string;
  migrationsTable: string;
}
