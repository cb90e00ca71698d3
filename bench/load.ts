// Bulk-loads a realistic catalogue for one organization straight into PostgreSQL with INSERT … SELECT generate_series:
// reference data (brands, suppliers, VAT rates, a category tree), products with names and descriptions built from a
// small vocabulary, category links, translations and variants. Every choice is a function of the row number, so two
// runs load the same data.
import pg from 'pg';
import type { BridgeStack } from '../test/helpers/bridge-processes.js';

/** A word that appears in no vocabulary list below; products whose number is RARE_OFFSET modulo RARE_EVERY carry it. */
export const RARE_TERM = 'kestrel';
const RARE_EVERY = 200; // 1 in 200 = 0.5 % of the products
const RARE_OFFSET = 37;

const words = (list: string) =>
  `ARRAY[${list
    .split(' ')
    .map((w) => `'${w.replace(/_/g, ' ')}'`)
    .join(',')}]`;
const ADJECTIVES = words(
  'classic modern vintage rugged lightweight premium essential organic recycled heritage urban alpine coastal everyday technical relaxed tailored compact insulated waterproof',
);
const MATERIALS = words('merino cotton linen denim leather canvas wool cashmere nylon bamboo hemp suede fleece silk corduroy');
const NOUNS = words(
  'sweater shirt jacket jeans boots beanie vest tote socks scarf gloves hoodie parka chinos sneakers belt backpack cardigan blazer shorts skirt dress coat cap trousers',
);
const FEATURES = words(
  'reinforced_seams a_relaxed_fit hidden_pockets a_brushed_lining flatlock_stitching a_two-way_zip taped_seams a_ribbed_hem horn_buttons an_adjustable_hood a_soft_handfeel contrast_piping a_dropped_shoulder a_storm_flap breathable_panels',
);
const USES = words(
  'city_commutes weekend_hikes long_travel_days office_wear cold_mornings festival_season layering_in_autumn coastal_walks everyday_errands mountain_trips',
);
const CARE = words('machine_wash_at_30_degrees hand_wash_only dry_clean_only wash_inside_out do_not_tumble_dry');
const COLORS = words('navy oat black white olive indigo brown grey mustard sky sand charcoal');
const SIZES = words('S M L');

/** `list[1 + (expr mod length)]`: a deterministic pick from an SQL array literal. */
const pick = (list: string, expr: string) => `(${list})[1 + ((${expr}) % array_length(${list}, 1))]`;

export interface LoadedCatalogue {
  products: number;
  /** Products whose search text contains RARE_TERM, counted after the load. */
  rareMatches: number;
  firstProductId: number;
  lastProductId: number;
  variants: number;
  translations: number;
  categoryLinks: number;
}

/**
 * `predatesConnection`: the products are dated a week back, as a catalogue that exists when a store is first connected
 * (the delta sync leaves it to a full sync or an adoption).
 */
export async function loadCatalogue(
  db: pg.Client,
  organizationId: number,
  count: number,
  options: { predatesConnection?: boolean } = {},
): Promise<LoadedCatalogue> {
  const org = organizationId;
  await db.query('BEGIN');
  await db.query(`INSERT INTO brands (organization_id, name) SELECT $1, 'Brand ' || chr(64 + g) || ' Outfitters' FROM generate_series(1, 20) g`, [org]);
  await db.query(`INSERT INTO suppliers (organization_id, name) SELECT $1, 'Supplier ' || g FROM generate_series(1, 5) g`, [org]);
  await db.query(
    `INSERT INTO vat_rates (organization_id, name, rate, country_code)
     VALUES ($1, 'Standard', 19, 'DE'), ($1, 'Reduced', 7, 'DE'), ($1, 'Standard', 20, 'FR')`,
    [org],
  );
  // Eight top-level categories with four children each.
  await db.query(`INSERT INTO categories (organization_id, name, position) SELECT $1, 'Department ' || g, g FROM generate_series(1, 8) g`, [org]);
  await db.query(
    `INSERT INTO categories (organization_id, parent_id, name, description, position)
     SELECT $1, c.id, c.name || ' / Line ' || g, 'Products of line ' || g, g
     FROM categories c CROSS JOIN generate_series(1, 4) g WHERE c.organization_id = $1 AND c.parent_id IS NULL`,
    [org],
  );
  // The database is fresh, so each reference table's ids are consecutive from its minimum.
  const { rows: ids } = await db.query<{ brand: number; supplier: number; vat: number; leaf: number; leaves: number }>(
    `SELECT (SELECT min(id) FROM brands WHERE organization_id = $1) AS brand,
            (SELECT min(id) FROM suppliers WHERE organization_id = $1) AS supplier,
            (SELECT min(id) FROM vat_rates WHERE organization_id = $1) AS vat,
            (SELECT min(id) FROM categories WHERE organization_id = $1 AND parent_id IS NOT NULL) AS leaf,
            (SELECT count(*)::int FROM categories WHERE organization_id = $1 AND parent_id IS NOT NULL) AS leaves`,
    [org],
  );
  const ref = ids[0];

  // Products. `g` is the row number; primes spread the picks so the words do not move in lockstep.
  const name = `initcap(${pick(ADJECTIVES, 'g * 7')} || ' ' || ${pick(MATERIALS, 'g * 11')} || ' ' || ${pick(NOUNS, 'g * 13')})
      || CASE WHEN g % ${RARE_EVERY} = ${RARE_OFFSET} THEN ' ${RARE_TERM[0].toUpperCase()}${RARE_TERM.slice(1)} Edition' ELSE '' END`;
  await db.query(
    `INSERT INTO products (organization_id, sku, slug, name, description, short_description, product_type, price, sale_price,
       cost_price, currency, status, stock, ean, vat_rate_id, brand_id, supplier_id, publishing_channels, product_condition,
       attributes, created_at, updated_at)
     SELECT $1, 'PB-' || lpad(g::text, 6, '0'), regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g') || '-' || g, name,
       '<p>A ' || ${pick(ADJECTIVES, 'g * 17')} || ' ' || ${pick(NOUNS, 'g * 13')} || ' in ' || ${pick(MATERIALS, 'g * 11')}
         || ' with ' || ${pick(FEATURES, 'g * 19')} || ' and ' || ${pick(FEATURES, 'g * 23 + 5')} || '.</p><p>Designed for '
         || ${pick(USES, 'g * 29')} || ', in ' || ${pick(COLORS, 'g * 31')} || '. Care: ' || ${pick(CARE, 'g')} || '.</p>',
       name || ' in ' || ${pick(COLORS, 'g * 31')},
       initcap(${pick(NOUNS, 'g * 13')}), price, CASE WHEN g % 5 = 0 THEN round(price * 0.8, 2) END, round(price * 0.45, 2), 'EUR',
       CASE WHEN g % 20 = 0 THEN 'archived' WHEN g % 7 = 0 THEN 'draft' ELSE 'active' END,
       (g * 13) % 200, ean12 || ((10 - (ean_sum % 10)) % 10)::text,
       ${ref.vat} + g % 3, CASE WHEN g % 20 = 3 THEN NULL ELSE ${ref.brand} + g % 20 END, ${ref.supplier} + g % 5,
       CASE g % 3 WHEN 0 THEN '{web}'::text[] WHEN 1 THEN '{web,mobile}'::text[] ELSE '{web,marketplace}'::text[] END,
       CASE WHEN g % 50 = 0 THEN 'refurbished' ELSE 'new' END,
       jsonb_build_object('material', ${pick(MATERIALS, 'g * 11')}, 'color', ${pick(COLORS, 'g * 31')}, 'season', CASE g % 2 WHEN 0 THEN 'SS' ELSE 'AW' END),
       now() - make_interval(mins => $2 - g), now() - make_interval(mins => ($2 - g) / 2)
     FROM (
       SELECT g, ${name} AS name, (9.99 + (g * 37) % 490)::numeric(19, 4) AS price,
         -- GTIN-13: twelve data digits and their check digit (weights 1,3,1,3… from the left).
         '400' || lpad(g::text, 9, '0') AS ean12,
         (SELECT sum(substr('400' || lpad(g::text, 9, '0'), k, 1)::int * CASE WHEN k % 2 = 0 THEN 3 ELSE 1 END)
          FROM generate_series(1, 12) k) AS ean_sum
       FROM generate_series(1, $2::int) g) s`,
    [org, count],
  );
  const { rows: range } = await db.query<{ first: number; last: number }>('SELECT min(id) AS first, max(id) AS last FROM products WHERE organization_id = $1', [
    org,
  ]);
  const { first, last } = range[0];

  // One leaf category per product, a second one for 30 % of them.
  const links = await db.query(
    `INSERT INTO product_categories (product_id, category_id)
     SELECT p.id, ${ref.leaf} + (p.id % ${ref.leaves}) FROM products p WHERE p.organization_id = $1
     UNION ALL
     SELECT p.id, ${ref.leaf} + ((p.id + 7) % ${ref.leaves}) FROM products p WHERE p.organization_id = $1 AND p.id % 10 < 3`,
    [org],
  );
  // German names for 20 % of the products, French for 5 %.
  const translations = await db.query(
    `INSERT INTO product_translations (product_id, locale, name, description)
     SELECT id, 'de', name || ' (DE)', description FROM products WHERE organization_id = $1 AND id % 5 = 0
     UNION ALL
     SELECT id, 'fr', name || ' (FR)', description FROM products WHERE organization_id = $1 AND id % 20 = 0`,
    [org],
  );
  // Three size variants for 20 % of the products.
  const variants = await db.query(
    `INSERT INTO variants (organization_id, product_id, sku, name, price, stock_quantity, stock_status, position, attributes)
     SELECT $1, p.id, p.sku || '-' || s.size, p.name || ' / ' || s.size, p.price, (p.stock + s.n) % 40,
       CASE WHEN (p.stock + s.n) % 40 = 0 THEN 'out_of_stock' ELSE 'in_stock' END, s.n,
       jsonb_build_array(jsonb_build_object('attribute_name', 'Size', 'value', s.size))
     FROM products p CROSS JOIN unnest(${SIZES}) WITH ORDINALITY AS s(size, n)
     WHERE p.organization_id = $1 AND p.id % 5 = 1`,
    [org],
  );
  if (options.predatesConnection) {
    await db.query(`UPDATE products SET created_at = created_at - interval '7 days', updated_at = updated_at - interval '7 days' WHERE organization_id = $1`, [
      org,
    ]);
  }
  await db.query('COMMIT');
  // Planner statistics for the fresh rows (the trigram index's selectivity estimate depends on them), and the
  // visibility map that autovacuum would set within a minute of a bulk insert anyway: without it index-only scans
  // (the list's count) visit the heap, and the figures would depend on whether autovacuum had run yet.
  await db.query('VACUUM ANALYZE');

  const { rows: rare } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE organization_id = $1 AND search_text LIKE $2`, [
    org,
    `%${RARE_TERM}%`,
  ]);
  return {
    products: count,
    rareMatches: rare[0].n,
    firstProductId: first,
    lastProductId: last,
    variants: variants.rowCount ?? 0,
    translations: translations.rowCount ?? 0,
    categoryLinks: links.rowCount ?? 0,
  };
}

/** The catalogue loaded into a bridge stack's own PIM (PostgreSQL), dated before its shop was connected. */
export async function loadIntoBridge(s: Pick<BridgeStack, 'bridgeDatabaseUrl' | 'tenant'>, count: number): Promise<LoadedCatalogue> {
  if (!s.bridgeDatabaseUrl) throw new Error('the bridge runs on PGlite: the catalogue is loaded into PostgreSQL only');
  const db = new pg.Client(s.bridgeDatabaseUrl);
  await db.connect();
  try {
    return await loadCatalogue(db, s.tenant.organizationId, count, { predatesConnection: true });
  } finally {
    await db.end();
  }
}
