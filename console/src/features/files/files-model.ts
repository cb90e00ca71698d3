// The import and export page's pure parts: where an import stands in words and as a share, and the export's link with
// the filters chosen. No React, no API.

export type ImportState = 'queued' | 'running' | 'completed' | 'failed';

export interface ImportCounts {
  state: ImportState;
  rows_total: number;
  rows_done: number;
}

/** Still moving: the page asks again every second. */
export const isActive = (state: ImportState) => state === 'queued' || state === 'running';

/** Share of the rows done, 0 to 100 (a finished import is 100 even with no rows). */
export function percentDone(view: ImportCounts): number {
  if (view.state === 'completed') return 100;
  if (view.rows_total <= 0) return 0;
  return Math.min(100, Math.round((view.rows_done / view.rows_total) * 100));
}

export const STATE_LABELS: Record<ImportState, string> = {
  queued: 'Waiting to start',
  running: 'Importing',
  completed: 'Finished',
  failed: 'Failed',
};

export interface ExportFilters {
  search?: string;
  status?: string;
  brand?: string;
  category?: string;
  channel?: string;
}

/** GET /api/exports/products.csv with the format and the filters that are set (empty ones left out). */
export function exportUrl(format: 'ours' | 'shopify', filters: ExportFilters = {}): string {
  const query = new URLSearchParams({ format });
  for (const key of ['search', 'status', 'brand', 'category', 'channel'] as const) {
    const value = filters[key]?.trim();
    if (value) query.set(key, value);
  }
  return `/api/exports/products.csv?${query}`;
}

/** A file size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
