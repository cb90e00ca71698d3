// The organization page's pure parts: the default currency as its select and its "other" box hold it, and back.
// No React, no API.

/** The currencies most shops sell in, offered first; any other ISO 4217 code can be typed. */
export const COMMON_CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'JPY',
  'CNY',
  'HKD',
  'SGD',
  'INR',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'TRY',
  'AED',
  'BRL',
  'MXN',
  'ZAR',
  'KRW',
  'VND',
] as const;

/** The select's value for "not set" and for "another currency". */
export const NOT_SET = '';
export const OTHER = 'other';

export interface CurrencyInput {
  /** a code of COMMON_CURRENCIES, NOT_SET or OTHER */
  choice: string;
  /** what is typed in the box when choice is OTHER */
  other: string;
}

/** The inputs of a stored default currency. */
export function currencyInputOf(code: string | null | undefined): CurrencyInput {
  if (!code) return { choice: NOT_SET, other: '' };
  return (COMMON_CURRENCIES as readonly string[]).includes(code) ? { choice: code, other: '' } : { choice: OTHER, other: code };
}

/** The code to store (null: not set), or why the typed one cannot be one. */
export function currencyFromInput(input: CurrencyInput): { value: string | null; error: string | null } {
  if (input.choice === NOT_SET) return { value: null, error: null };
  const code = (input.choice === OTHER ? input.other : input.choice).trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return { value: null, error: 'must be three letters, such as EUR (ISO 4217)' };
  return { value: code, error: null };
}

/** "EUR · Euro" in the merchant's language; the code alone when the browser does not know it. */
export function currencyLabel(code: string, locale?: string): string {
  try {
    const name = new Intl.DisplayNames(locale, { type: 'currency' }).of(code);
    return name && name !== code ? `${code} · ${name}` : code;
  } catch {
    return code;
  }
}

/** The languages box ("de, fr-CA"): the codes to store, each once, or why one cannot be a language code. */
export function languagesFromInput(text: string): { value: string[]; error: string | null } {
  const codes = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  const wrong = codes.find((code) => !/^[a-z]{2,3}(-[A-Z]{2})?$/.test(code));
  if (wrong) return { value: [], error: `“${wrong}” is not a language code such as de or fr-CA` };
  return { value: codes, error: null };
}
