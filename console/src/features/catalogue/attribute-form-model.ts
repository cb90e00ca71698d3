// The attribute form's reading of its fields: the options textarea (one per line) to the API's list and back, and a
// server message placed beside the field it names. Pure: no React, no API.
import type { Channel } from '../products/product-model';

export const ATTRIBUTE_TYPES = ['text', 'textarea', 'number', 'boolean', 'date', 'select', 'multiselect'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export const TYPE_LABELS: Record<AttributeType, string> = {
  text: 'Text',
  textarea: 'Long text',
  number: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  select: 'One of a list',
  multiselect: 'Several of a list',
};

export const hasOptions = (type: string) => type === 'select' || type === 'multiselect';

/** One option a line; blank lines and surrounding spaces dropped, the first of duplicates kept. */
export function parseOptions(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const option = line.trim();
    if (option) seen.add(option);
  }
  return [...seen];
}

export const optionsText = (options: readonly string[]) => options.join('\n');

/** A code from a name, as a suggestion: lower case, words joined by `_`, ASCII letters and digits only, a letter first. */
export function suggestCode(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);
}

export interface AttributeDraft {
  code: string;
  name: string;
  type: AttributeType;
  options: string;
  is_required: boolean;
  /** The publishing channels whose products need a value to be complete. */
  required_channels: string[];
}

/**
 * The channels the form offers: the organization's, then any the attribute names that the organization no longer has
 * (so that it can be taken off), each with its label.
 */
export function channelChoices(configured: readonly { value: string; label: string }[], required: readonly string[]) {
  const known = new Set(configured.map((c) => c.value));
  return [...configured.map(({ value, label }) => ({ value, label })), ...required.filter((v) => !known.has(v)).map((value) => ({ value, label: value }))];
}

/** The body of a POST or PUT: options only for the select types (the server refuses them on the others). */
export function attributeBody(draft: AttributeDraft) {
  return {
    code: draft.code.trim(),
    name: draft.name.trim(),
    type: draft.type,
    is_required: draft.is_required,
    // The form offers the organization's channels and those the attribute named: publishing channels, all of them.
    required_channels: draft.required_channels as Channel[],
    options: hasOptions(draft.type) ? parseOptions(draft.options) : [],
  };
}

/** The form field a validation message belongs to (`options[2]` → `options`), or null for the banner. */
export function attributeField(field: string | undefined): keyof AttributeDraft | null {
  if (!field) return null;
  const head = field.replace(/[[.].*$/, '');
  return head === 'code' || head === 'name' || head === 'type' || head === 'options' || head === 'is_required' || head === 'required_channels' ? head : null;
}
