import { Type, type Static } from '@sinclair/typebox';
import { Channel, DecimalInput, Id, Locale, Nullable, Pagination, StringEnum, Text } from '../pim.schemas.js';
import { IncludeParam } from './product-include.js';
import { SORT_KEYS, SORT_PATTERN } from './product-sort.js';
import { sellingInputFields, sellingViewFields, storefrontProductInputFields, storefrontProductViewFields } from './selling-fields.js';

export const PRODUCT_STATUSES = ['draft', 'active', 'archived', 'out_of_stock'] as const;
export const PRODUCT_CONDITIONS = ['new', 'used', 'refurbished'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

const Status = StringEnum(PRODUCT_STATUSES, 'product status');
const Named = Type.Object({ id: Type.Integer(), name: Type.String() });

export const Product = Type.Object(
  {
    id: Type.Integer(),
    sku: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    short_description: Nullable(Type.String()),
    product_type: Type.String(),
    price: Nullable(Type.String()),
    sale_price: Nullable(Type.String()),
    cost_price: Nullable(Type.String()),
    currency: Type.String(),
    status: Status,
    stock: Type.Integer(),
    in_stock: Type.Boolean(),
    ean: Nullable(Type.String()),
    vat_rate: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), rate: Type.String(), country_code: Type.String() })),
    brand: Nullable(Named),
    supplier: Nullable(Named),
    categories: Type.Array(Named),
    images: Type.Array(Type.String()),
    image_alts: Type.Array(Nullable(Type.String()), {
      description: "each image's alt text, in the order of `images` (null: none); beyond the spec, for the storefront push",
    }),
    publishing_channels: Type.Array(Channel),
    available_translations: Type.Array(Type.String()),
    product_condition: Type.String(),
    attributes: Type.Object({}, { additionalProperties: true }),
    ...storefrontProductViewFields,
    ...sellingViewFields,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Product' },
);
export type ProductView = Static<typeof Product>;

const ean = Type.String({
  pattern: '^\\d{8,14}$',
  errorMessage: 'must be a GTIN/EAN barcode of 8 to 14 digits',
});

const productFields = {
  name: Text(255, { minLength: 1 }),
  sku: Type.String({ minLength: 1, maxLength: 64, pattern: '^\\S(.*\\S)?$', errorMessage: 'must be 1-64 characters without leading or trailing spaces' }),
  slug: Type.String({
    minLength: 1,
    maxLength: 255,
    // A Shopify handle, exactly: letters of any script and digits, lower case, single hyphens (src/lib/slug.ts, SLUG).
    pattern: '^[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}\\p{N}]+(-[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}\\p{N}]+)*$',
    errorMessage: 'must be lower-case letters (of any script) and digits joined by single hyphens, as a Shopify handle',
  }),
  description: Nullable(Text(65_535)),
  short_description: Nullable(Text(5_000)),
  product_type: Text(64, { minLength: 1 }),
  price: Nullable(DecimalInput('regular price')),
  sale_price: Nullable(DecimalInput('sale price')),
  cost_price: Nullable(DecimalInput('cost price')),
  currency: Type.String({ pattern: '^[A-Z]{3}$', errorMessage: 'must be a three-letter ISO 4217 code such as "EUR"' }),
  status: Status,
  stock: Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 }),
  ean: Nullable(ean),
  brand_id: Nullable(Id()),
  supplier_id: Nullable(Id()),
  vat_rate_id: Nullable(Id()),
  category_ids: Type.Array(Id(), { maxItems: 500, uniqueItems: true }),
  publishing_channels: Type.Array(Channel, { maxItems: 6, uniqueItems: true }),
  product_condition: StringEnum(PRODUCT_CONDITIONS),
  attributes: Type.Record(Type.String(), Type.Unknown(), {
    maxProperties: 200,
    description: 'values keyed by product attribute code, checked against the definitions; in a PATCH the keys given are merged in and null removes one',
  }),
  ...storefrontProductInputFields,
  ...sellingInputFields,
};

const { name, sku, ...optional } = productFields;
export const ProductCreate = Type.Object({ name, sku, ...Type.Partial(Type.Object(optional)).properties }, { additionalProperties: false });
export type ProductCreateInput = Static<typeof ProductCreate>;

export const ProductPatch = Type.Partial(Type.Object(productFields), {
  additionalProperties: false,
  minProperties: 1,
  errorMessage: { minProperties: 'must name at least one field to change' },
});
export type ProductPatchInput = Static<typeof ProductPatch>;

export const ProductListQuery = Type.Object({
  search: Type.Optional(Text(200, { description: 'matches name, description and SKU' })),
  status: Type.Optional(Status),
  brand: Type.Optional(Id('brand id')),
  channel: Type.Optional(Channel),
  category: Type.Optional(Id('beyond the spec: only the products assigned to this category id')),
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; products changed at or after it' })),
  locale: Type.Optional(Locale),
  after_id: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description:
        'keyset paging (beyond the spec; page must then be 1): the products after this id, by id; with updated_since, ordered by (updated_at to the millisecond, id) and after (updated_since, after_id)',
      errorMessage: 'must be an integer >= 0',
    }),
  ),
  include: Type.Optional(IncludeParam),
  sort: Type.Optional(
    Type.String({
      pattern: SORT_PATTERN,
      description: `beyond the spec: the order of the list, one of ${SORT_KEYS.join(', ')}; a leading - for descending (ties by id); id when not given`,
      errorMessage: `must be one of ${SORT_KEYS.join(', ')}, optionally with a leading - for descending`,
    }),
  ),
  ids: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,10}(,[0-9]{1,10}){0,99}$',
      description: 'beyond the spec: only the products with these ids (comma-separated, at most 100); a push reads its batch in one call',
      errorMessage: 'must be up to 100 product ids, comma-separated',
    }),
  ),
});
export type ProductListQueryInput = Static<typeof ProductListQuery>;

export const LocaleQuery = Type.Object({ locale: Type.Optional(Locale) });
export const ProductGetQuery = Type.Object({ locale: Type.Optional(Locale), include: Type.Optional(IncludeParam) });

export const ProductList = Type.Object({ products: Type.Array(Type.Ref(Product)), pagination: Pagination });

export const TranslationParams = Type.Object({ id: Id(), locale: Locale });
export const TranslationBody = Type.Object(
  {
    name: Type.Optional(Nullable(Text(255, { minLength: 1 }))),
    description: Type.Optional(Nullable(Text(65_535))),
    short_description: Type.Optional(Nullable(Text(5_000))),
    seo_title: Type.Optional(Nullable(Text(255, { description: "the translated `seo_title` attribute (the storefront's SEO title in this locale)" }))),
    seo_description: Type.Optional(Nullable(Text(5_000, { description: "the translated `seo_description` attribute (the storefront's SEO description)" }))),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    errorMessage: { minProperties: 'must carry name, description, short_description, seo_title or seo_description' },
  },
);
export type TranslationInput = Static<typeof TranslationBody>;
export const Translation = Type.Object({
  product_id: Type.Integer(),
  locale: Type.String(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  short_description: Nullable(Type.String()),
  seo_title: Nullable(Type.String()),
  seo_description: Nullable(Type.String()),
});
