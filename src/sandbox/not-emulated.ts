// The answer to a part of Shopify's API the sandbox does not emulate: a top-level NOT_IMPLEMENTED error naming it, so a
// client learns the sandbox's limit instead of reading a wrong answer (docs/sandbox/README.md).
import { GraphQLError } from 'graphql';

/** `throw notEmulated('productUpdate(media:)')`. */
export function notEmulated(what: string): GraphQLError {
  return new GraphQLError(`The Pimbridge sandbox does not emulate ${what} yet`, { extensions: { code: 'NOT_IMPLEMENTED' } });
}
