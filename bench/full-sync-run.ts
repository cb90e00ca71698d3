// One full sync as the benchmarks start it: POST /api/sync/full, then GET /api/sync/full/{id} every 250 ms until it
// ends (completed or failed), within `timeoutMs`.
import type { BridgeStack } from '../test/helpers/bridge-processes.js';

export interface FullSyncEnd {
  status: string;
  mode: string;
  total: number;
  synced: number;
  failed: number;
  error: string | null;
}

export async function runFullSync(s: BridgeStack, timeoutMs = 15 * 60_000): Promise<{ data: FullSyncEnd; seconds: number }> {
  const started = performance.now();
  const res = await s.connector('POST', '/api/sync/full');
  if (res.status !== 200) throw new Error(`POST /api/sync/full: ${res.status} ${JSON.stringify(res.body)}`);
  for (;;) {
    const data = (await s.connector('GET', `/api/sync/full/${res.body.data.id}`)).body.data as FullSyncEnd;
    const seconds = (performance.now() - started) / 1000;
    if (data.status === 'completed' || data.status === 'failed') return { data, seconds };
    if (seconds * 1000 > timeoutMs) throw new Error(`the full sync did not end: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
