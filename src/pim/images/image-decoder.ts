// Decodes untrusted image bytes: only JPEG, PNG, WebP and GIF are accepted, whatever a header or file name claims,
// and the whole image must decode. Also computes the 64-bit perceptual hash that image search compares.
import { loadSharp } from '../../lib/sharp.js';

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

export interface DecodedImage {
  mimeType: ImageMime;
  width: number;
  height: number;
  /** 64-bit DCT perceptual hash as a signed bigint (fits PostgreSQL int8). */
  phash: bigint;
}

const FORMATS: Record<string, ImageMime> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

/** Decompression bombs: refuse images over 50 megapixels before decoding them. */
const MAX_PIXELS = 50_000_000;

export class ImageDecodeError extends Error {}

export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  const sharp = await loadSharp();
  try {
    ({ format, width, height } = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata());
  } catch {
    throw new ImageDecodeError('the file is not a JPEG, PNG, WebP or GIF image');
  }
  const mimeType = format ? FORMATS[format] : undefined;
  if (!mimeType || !width || !height) throw new ImageDecodeError('the file is not a JPEG, PNG, WebP or GIF image');
  if (width * height > MAX_PIXELS) throw new ImageDecodeError(`the image is larger than ${MAX_PIXELS / 1_000_000} megapixels`);
  try {
    return { mimeType, width, height, phash: await perceptualHash(bytes) };
  } catch {
    throw new ImageDecodeError(`the file claims to be ${mimeType} but does not decode`);
  }
}

const SIZE = 32;
const LOW = 8;
/** cos((2x + 1) u π / 2N) for the 8 lowest frequencies, computed once. */
const COS = Array.from({ length: LOW }, (_, u) => Float64Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))));

/**
 * pHash: the image as 32×32 grey levels, its 2-D DCT, and one bit per coefficient of the 8×8 lowest frequencies:
 * above their median or not. Low frequencies survive resizing, re-encoding and small crops; the DC term is left out
 * of the median so overall brightness does not shift every bit.
 */
export async function perceptualHash(bytes: Buffer): Promise<bigint> {
  const sharp = await loadSharp();
  const pixels = await sharp(bytes, { limitInputPixels: MAX_PIXELS, animated: false })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  // Separable DCT: rows first (32 rows × 8 frequencies), then columns.
  const rows = new Float64Array(SIZE * LOW);
  for (let y = 0; y < SIZE; y++) {
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += pixels[y * SIZE + x] * COS[u][x];
      rows[y * LOW + u] = sum;
    }
  }
  const coefficients = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v++) {
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += rows[y * LOW + u] * COS[v][y];
      coefficients[v * LOW + u] = sum;
    }
  }
  const median = [...coefficients.subarray(1)].sort((a, b) => a - b)[(LOW * LOW - 1) >> 1];
  let hash = 0n;
  for (let i = 0; i < LOW * LOW; i++) hash = (hash << 1n) | (coefficients[i] > median ? 1n : 0n);
  return BigInt.asIntN(64, hash);
}

/** Number of differing bits between two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (x) {
    x &= x - 1n;
    count++;
  }
  return count;
}
