// Completeness in the merchant's words: the score's label and tone, and each channel's missing items as a checklist.
// Pure: no React, no API (console/test/completeness-model.test.ts).
import type { operations } from '../../api/schema';

/** A product's completeness as the API answers it (generated from the OpenAPI document, so it cannot drift). */
export type ProductCompleteness = operations['getProductCompleteness']['responses'][200]['content']['application/json']['data'];
export type ChannelCompleteness = ProductCompleteness['channels'][number];

/** "80 %", or null when the product is on no channel (nothing to be complete for). */
export const scoreText = (score: number | null) => (score === null ? null : `${score} %`);

export const scoreTone = (score: number) => (score >= 100 ? 'ok' : score >= 50 ? 'warn' : 'error');

const FIELD_WORDS: Record<string, string> = { name: 'name', description: 'description' };

/** A language's missing translated fields: "the name and the description". */
export function fieldsText(fields: readonly string[]): string {
  const words = fields.map((f) => `the ${FIELD_WORDS[f] ?? f}`);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The language's name in the merchant's language when the browser knows it: "German (de)". */
export function languageName(code: string, locale?: string): string {
  try {
    const name = new Intl.DisplayNames(locale, { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

export type ChecklistItem =
  | { kind: 'attribute'; key: string; name: string; code: string }
  | { kind: 'translation'; key: string; locale: string; fields: string[] };

/** A channel's missing items, attributes first (by code), then translations by language. */
export function checklistOf(channel: ChannelCompleteness): ChecklistItem[] {
  return [
    ...channel.missing_attributes.map((a): ChecklistItem => ({ kind: 'attribute', key: `a-${a.code}`, name: a.name, code: a.code })),
    ...channel.missing_translations.map((t): ChecklistItem => ({ kind: 'translation', key: `t-${t.locale}`, locale: t.locale, fields: t.fields })),
  ];
}

/** What the list's cell says on hover and to a screen reader: "80 % complete: 2 things missing on Web". */
export function scoreSummary(result: ProductCompleteness, labelOf: (channel: string) => string = (c) => c): string {
  if (result.score === null) return 'On no channel';
  const missing = result.channels
    .map((c) => ({ c, n: c.required - c.filled }))
    .filter(({ n }) => n > 0)
    .map(({ c, n }) => `${n} missing on ${labelOf(c.channel)}`);
  return missing.length === 0 ? 'Complete on every channel' : `${result.score} % complete: ${missing.join(', ')}`;
}
