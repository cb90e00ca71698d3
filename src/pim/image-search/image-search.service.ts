// Image search: the upload's perceptual hash against every stored image of the organization; each matching product
// once, with its closest image, closest first.
import { badRequest } from '../../http/errors.js';
import { decodeImage, ImageDecodeError } from '../images/image-decoder.js';
import type { ProductRepository } from '../products/product.repository.js';
import type { ProductView } from '../products/product.schemas.js';
import type { ImageSearchRepository } from './image-search.repository.js';
import { IMAGE_FIELD } from './image-search.schemas.js';

export interface ImageSearchInput {
  image: Buffer;
  maxDistance: number;
  limit: number;
}

export interface ImageSearchHit extends ProductView {
  match: { media_id: number; distance: number; similarity: number };
}

/** 1 − distance / 64, to 4 decimal places. */
export const similarity = (distance: number) => Math.round((1 - distance / 64) * 10_000) / 10_000;

export class ImageSearchService {
  constructor(
    private readonly index: ImageSearchRepository,
    private readonly products: ProductRepository,
  ) {}

  async search(organizationId: number, input: ImageSearchInput): Promise<{ products: ImageSearchHit[]; total: number }> {
    let hash: bigint;
    try {
      hash = (await decodeImage(input.image)).phash;
    } catch (err) {
      if (err instanceof ImageDecodeError) throw badRequest(`field '${IMAGE_FIELD}': ${err.message}`);
      throw err;
    }
    const { matches, total } = await this.index.search(organizationId, hash, input.maxDistance, input.limit);
    const found = new Map(
      (
        await this.products.findMany(
          organizationId,
          matches.map((m) => m.product_id),
        )
      ).map((p) => [p.id, p]),
    );
    const products = matches.flatMap(({ product_id, media_id, distance }) => {
      const product = found.get(product_id);
      return product ? [{ ...product, match: { media_id, distance, similarity: similarity(distance) } }] : [];
    });
    return { products, total };
  }
}
