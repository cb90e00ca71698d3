// The Metafield object of products and collections (their rows have the same columns).
import { dateTime } from './connection.js';

interface MetafieldFields {
  id: number;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** `jsonValue` parses what JSON holds (lists, json, numbers, booleans); any other type answers the string. */
export function metafieldObject(row: MetafieldFields, ownerType: 'PRODUCT' | 'COLLECTION'): Record<string, unknown> {
  let jsonValue: unknown = row.value;
  if (row.type.startsWith('list.') || row.type === 'json' || /integer|decimal|boolean/.test(row.type)) {
    try {
      jsonValue = JSON.parse(row.value);
    } catch {
      // kept as the string
    }
  }
  return {
    __typename: 'Metafield',
    id: `gid://shopify/Metafield/${row.id}`,
    legacyResourceId: String(row.id),
    namespace: row.namespace,
    key: row.key,
    type: row.type,
    value: row.value,
    jsonValue,
    ownerType,
    description: null,
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.updatedAt),
  };
}
