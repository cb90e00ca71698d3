// The query key of products' completeness (GET /api/products/completeness?ids=…): under every list of products, so that
// a change of any product (productListsChanged), of an attribute or of the catalogue's languages reads it again.
// Pure: console/test/completeness-model.test.ts checks it.
import { productKeys } from '../products/keys';

export const completenessKeys = {
  all: [...productKeys.lists(), 'completeness'] as const,
  /** The completeness of these products (a page of the list, or the one product of the editor). */
  of: (ids: readonly number[]) => [...completenessKeys.all, ids.join(',')] as const,
};
