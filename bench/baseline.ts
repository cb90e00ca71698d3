// The baseline: a bare Fastify + pg server doing the benchmark's three reads in one SQL query each, with no
// authentication, rate limit, logging, validation or response schema.
// Started by bench/run.ts as its own process: BASELINE_PORT, DATABASE_URL and ORG_ID in the environment.
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.env.BASELINE_PORT);
const organizationId = Number(process.env.ORG_ID);
// The same pool settings as Pimbridge's (src/db/client.ts): pg's default 10 s idle timeout would close the
// connections while the other server is measured and make the baseline reconnect at the start of each run.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20, idleTimeoutMillis: 30_000 });

/** The product's own columns (search_text, an internal generated column, left out). */
const COLUMNS = `p.id, p.sku, p.slug, p.name, p.description, p.short_description, p.product_type, p.price, p.sale_price,
  p.cost_price, p.currency, p.status, p.stock, p.ean, p.vat_rate_id, p.brand_id, p.supplier_id, p.publishing_channels,
  p.product_condition, p.attributes, p.created_at, p.updated_at`;

/** A page of 20 and the total in one statement: the window counts narrow rows, only the page's rows are read whole. */
const pageQuery = (filter: string) => `
  SELECT ${COLUMNS}, page.total::int AS total
  FROM (SELECT id, count(*) OVER () AS total FROM products
        WHERE organization_id = $1 ${filter} ORDER BY id LIMIT 20 OFFSET $2) page
  JOIN products p ON p.id = page.id
  ORDER BY p.id`;
const LIST = pageQuery('');
const SEARCH = pageQuery('AND search_text LIKE $3');

const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/products/:id', async (req, reply) => {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM products p WHERE p.id = $1`, [Number(req.params.id)]);
  if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
  return rows[0];
});

const page = (rows: { total: number }[]) => ({ products: rows, total: rows[0]?.total ?? 0 });

app.get<{ Querystring: { page?: string } }>('/products', async (req) => {
  const offset = (Number(req.query.page ?? 1) - 1) * 20;
  return page((await pool.query(LIST, [organizationId, offset])).rows);
});

app.get<{ Querystring: { q: string; page?: string } }>('/search', async (req) => {
  const offset = (Number(req.query.page ?? 1) - 1) * 20;
  return page((await pool.query(SEARCH, [organizationId, offset, `%${req.query.q.toLowerCase()}%`])).rows);
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`baseline listening on ${port}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => pool.end())
        .finally(() => process.exit(0)),
  );
}
