// Results of raw queries (db.execute), whichever driver answered.

/** Rows of a raw query, for pg (QueryResult) and PGlite (Results) alike. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
