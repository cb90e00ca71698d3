// The reference lists' pure parts: a form's values, the field a server message belongs to, and the channel values the
// API knows. No React, no API.

export type Values = Record<string, string>;

/** The publishing channels the API accepts in PUT /api/channels (`value`). */
export const CHANNEL_VALUES = ['web', 'mobile', 'api', 'marketplace', 'social', 'email'] as const;
export type ChannelValue = (typeof CHANNEL_VALUES)[number];

/**
 * The form field a validation message names: `name` → name, `channels[2].label` → label, `options[0]` → options;
 * null when it names none of them (the message then goes in the form's banner).
 */
export function fieldFor(raw: string | undefined, keys: readonly string[]): string | null {
  if (!raw) return null;
  const parts = raw.split(/[.[\]]+/).filter((p) => p !== '' && !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) if (keys.includes(parts[i]!)) return parts[i]!;
  return null;
}

/** A two-letter country code as the API wants it (upper case), or null when left empty. */
export function countryOrNull(text: string | undefined): string | null {
  const code = (text ?? '').trim().toUpperCase();
  return code === '' ? null : code;
}

/** A VAT rate typed with a comma or a % sign, as the API's decimal string ("19,5 %" → "19.5"). */
export function normalizeRate(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s*%$/, '').replace(',', '.');
}

/** Every field of the form, empty. */
export const emptyValues = (keys: readonly string[]): Values => Object.fromEntries(keys.map((k) => [k, '']));

/** The channels' own names (the server's defaults for their labels). */
export const CHANNEL_NAMES: Record<ChannelValue, string> = {
  web: 'Web',
  mobile: 'Mobile',
  api: 'API',
  marketplace: 'Marketplace',
  social: 'Social',
  email: 'Email',
};

/** A stored rate ("7.5000") as people write it: two decimals at least, no trailing zeros past them ("7.50"). */
export function formatRate(rate: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(rate.trim());
  if (!match) return rate;
  const decimals = (match[2] ?? '').replace(/0+$/, '').padEnd(2, '0');
  return `${match[1]}.${decimals}`;
}
