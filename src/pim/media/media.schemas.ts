import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Text } from '../pim.schemas.js';

export const Media = Type.Object({
  id: Type.Integer(),
  product_id: Type.Integer(),
  url: Type.String({ description: 'public URL of the stored file (PUBLIC_URL/media/{key}); no API key needed' }),
  alt_text: Nullable(Type.String()),
  position: Type.Integer({ description: "0-based place among the product's media" }),
  mime_type: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size_bytes: Type.Integer(),
  created_at: Type.String(),
});
export type MediaView = Static<typeof Media>;

export const MediaList = Type.Object({
  product_id: Type.Integer(),
  media: Type.Array(Media),
  total: Type.Integer(),
});

export const MediaParams = Type.Object({ id: Id(), mediaId: Id() });

export const MAX_POSITION = 100_000;
export const MAX_ALT_TEXT = 1000;

export const MediaCreate = Type.Object(
  {
    file_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'http(s) URL of a JPEG, PNG, WebP or GIF image (at most 20 MB) on a public address',
    }),
    alt_text: Type.Optional(Nullable(Text(MAX_ALT_TEXT))),
    position: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_POSITION,
        description: 'where to insert (0 = first); later media move up one; past the end or absent: appended',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MediaCreateInput = Static<typeof MediaCreate>;

export const MediaUpdate = Type.Object(
  {
    alt_text: Type.Optional(Nullable(Text(MAX_ALT_TEXT))),
    position: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_POSITION, description: 'the new place (0 = first); the media between move one place; past the end: last' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, errorMessage: { minProperties: 'must name at least one field to change' } },
);
export type MediaUpdateInput = Static<typeof MediaUpdate>;

/** GET /media/{key}: the key is checked by the route's own pattern, never used as a path before that. */
export const MediaFileParams = Type.Object({ key: Type.String({ maxLength: 100 }) });
