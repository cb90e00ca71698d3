// Every resolver module of the sandbox. Issue 5 adds products (productSet, productByIdentifier, productDelete) and
// locations as modules of their own here.
import { shopResolvers } from './shop.js';
import type { ResolverModule, RootResolver } from './types.js';

const modules: ResolverModule[] = [shopResolvers];

function merge(kind: 'query' | 'mutation'): Readonly<Record<string, RootResolver>> {
  const out: Record<string, RootResolver> = {};
  for (const m of modules) {
    for (const [name, fn] of Object.entries(m[kind] ?? {})) {
      if (out[name]) throw new Error(`sandbox resolver ${kind}.${name} is defined twice`);
      out[name] = fn;
    }
  }
  return Object.freeze(out);
}

export const queryRoot = merge('query');
export const mutationRoot = merge('mutation');
