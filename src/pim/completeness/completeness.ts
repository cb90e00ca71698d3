// A product's completeness, worked out from the facts the repository reads (pure: no database, unit-testable).
// Per publishing channel of the product: the attributes that channel requires (is_required ones on every channel, and
// those naming the channel in required_channels) that the product leaves empty, and, per language of the organization,
// the translated fields it lacks (the name, and the description when the product has one). The score is the share of
// those items that are filled, rounded down, so that 100 means nothing is missing.

/** An attribute definition that some channel requires. */
export interface RequiredAttribute {
  id: number;
  code: string;
  name: string;
  is_required: boolean;
  required_channels: string[];
}

/** What a product's completeness is worked out from. */
export interface CompletenessFacts {
  id: number;
  channels: string[];
  attributes: Record<string, unknown>;
  has_description: boolean;
  /** The product's translations: which of the counted fields each has (non-blank). */
  translations: { locale: string; name: boolean; description: boolean }[];
}

export type TranslatedField = 'name' | 'description';

export interface ChannelCompleteness {
  channel: string;
  score: number;
  required: number;
  filled: number;
  missing_attributes: { id: number; code: string; name: string }[];
  missing_translations: { locale: string; fields: TranslatedField[] }[];
}

export interface ProductCompleteness {
  product_id: number;
  score: number | null;
  languages: string[];
  channels: ChannelCompleteness[];
}

/** A value that counts as given: not null, not blank text, not an empty list (false and 0 are values). */
export function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

const percent = (filled: number, required: number) => (required === 0 ? 100 : Math.floor((filled * 100) / required));

export function completenessOf(product: CompletenessFacts, definitions: RequiredAttribute[], languages: string[]): ProductCompleteness {
  const fields: TranslatedField[] = product.has_description ? ['name', 'description'] : ['name'];
  const byLocale = new Map(product.translations.map((t) => [t.locale, t]));
  const missingTranslations = languages
    .map((locale) => {
      const t = byLocale.get(locale);
      return { locale, fields: fields.filter((field) => !t?.[field]) };
    })
    .filter((m) => m.fields.length > 0);
  const missingCount = missingTranslations.reduce((n, m) => n + m.fields.length, 0);

  const channels = product.channels.map((channel): ChannelCompleteness => {
    const needed = definitions.filter((d) => d.is_required || d.required_channels.includes(channel));
    const missingAttributes = needed.filter((d) => !isFilled(product.attributes[d.code])).map(({ id, code, name }) => ({ id, code, name }));
    const required = needed.length + languages.length * fields.length;
    const filled = required - missingAttributes.length - missingCount;
    return { channel, score: percent(filled, required), required, filled, missing_attributes: missingAttributes, missing_translations: missingTranslations };
  });
  const required = channels.reduce((n, c) => n + c.required, 0);
  const filled = channels.reduce((n, c) => n + c.filled, 0);
  return { product_id: product.id, score: channels.length === 0 ? null : percent(filled, required), languages, channels };
}
