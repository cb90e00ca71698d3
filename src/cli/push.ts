// `pimbridge push <id...> [--dry-run]`: POST /api/products/push (the connector API) with a connector token, printing one
// line per product; with --dry-run, `?dry_run=true`: the fields each product would change, nothing written. Exit codes:
// 0 every product succeeded (or would), 1 some failed or the request failed, 2 usage.
import { CliError, CliUsageError } from './errors.js';

export interface PushCommandOptions {
  token?: string;
  dryRun?: boolean;
  json?: boolean;
}

interface Change {
  field: string;
  storefront: unknown;
  pim: unknown;
}

interface PushAnswer {
  status: string;
  message: string;
  code?: string;
  data?: {
    sync_log_id: number;
    results: {
      status: string;
      message: string;
      pim_product_id: number | null;
      method?: string;
      changes?: Change[];
      validation_errors?: string[];
    }[];
  };
}

const show = (v: unknown) => (v === null || v === undefined ? '∅' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v));

export async function pushCommand(
  baseUrl: string,
  ids: string[],
  o: PushCommandOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const token = o.token ?? process.env.PIMBRIDGE_API_TOKEN;
  if (!token) throw new CliUsageError('a connector token is required: --token or PIMBRIDGE_API_TOKEN');
  const products = ids.map((id) => {
    if (!/^\d+$/.test(id) || Number(id) < 1) throw new CliUsageError(`not a PIM product id: ${id}`);
    return { id: Number(id) };
  });
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/api/products/push${o.dryRun ? '?dry_run=true' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ products }),
    });
  } catch (err) {
    throw new CliError(`${baseUrl} could not be reached: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => null)) as PushAnswer | null;
  if (!body) throw new CliError(`${baseUrl} answered HTTP ${res.status} without JSON`);
  if (o.json) {
    out(JSON.stringify(body, null, 2));
  } else if (!body.data) {
    out(`error: ${body.message}${body.code ? ` (${body.code})` : ''}`);
  } else {
    for (const r of body.data.results) {
      if (r.status !== 'success') {
        out(`${r.pim_product_id ?? '?'}: error: ${r.message}`);
        for (const e of r.validation_errors ?? []) out(`  - ${e}`);
        continue;
      }
      out(`${r.pim_product_id}: ${r.method}${o.dryRun ? ` (${r.changes?.length ?? 0} change(s))` : ''}: ${r.message}`);
      for (const c of r.changes ?? []) out(`  ${c.field}: ${show(c.storefront)} → ${show(c.pim)}`);
    }
    out(`${body.message} (sync log ${body.data.sync_log_id})`);
  }
  return res.status === 200 ? 0 : 1;
}
