// What a route's schema cannot say to Fastify but the OpenAPI document must: a request body the route reads itself
// (a multipart upload, or JSON its service checks so that it can answer the spec's own error codes), and answers that
// are not JSON (CSV files, images). Declared in the route's `config.openapi`; only the document reads it.
import type { TSchema } from '@sinclair/typebox';

type Json = Record<string, unknown>;

/** An OpenAPI response object (description, content by media type, headers). */
export interface DocumentedAnswer {
  description: string;
  content?: Record<string, { schema: Json }>;
  headers?: Record<string, { description: string; schema: Json }>;
}

export interface RouteDocs {
  /** The request body by media type, e.g. `{ 'application/json': PushBody }` or `{ 'multipart/form-data': Form }`. */
  body?: Record<string, TSchema | Json>;
  /** Whether the body may be left out (default: required). */
  bodyOptional?: boolean;
  /** Answers that are not JSON, by status. */
  responses?: Record<number, DocumentedAnswer>;
  /** Statuses this route answers beyond those every route of its API does (e.g. 409 on a unique field). */
  errors?: number[];
  /**
   * The document's schema of a path parameter the route reads more leniently, so as to answer the spec's own not-found
   * (e.g. `{ integrationId: { type: 'integer', minimum: 1 } }` where Fastify takes any string and a non-numeric one is
   * the spec's 404), by parameter name.
   */
  params?: Record<string, Record<string, unknown>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: RouteDocs;
  }
}

/** A file download: the media type's body as bytes, with its Content-Disposition when it is an attachment. */
export function fileAnswer(description: string, mediaType: string, attachment = true): DocumentedAnswer {
  return {
    description,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
    ...(attachment ? { headers: { 'Content-Disposition': { description: 'attachment; filename="…"', schema: { type: 'string' } } } } : {}),
  };
}

/** A POST that takes no arguments: the body may be left out, or be `{}` (clients that always send JSON). */
export const NO_BODY: RouteDocs = {
  body: { 'application/json': { type: 'object', maxProperties: 0, description: 'nothing: leave the body out or send {}' } },
  bodyOptional: true,
};

/** A route that takes no arguments and does not read a body either: whatever is sent is ignored. */
export const IGNORED_BODY: RouteDocs = {
  body: { '*/*': { description: 'ignored: the operation takes no arguments (leave the body out)' } },
  bodyOptional: true,
};
