// Multi-index hashing over 64-bit perceptual hashes: the hash is cut into four 16-bit chunks (src/pim/pim.tables.ts
// indexes each). Two hashes within Hamming distance d differ in at most floor(d / 4) bits of at least one chunk
// (pigeonhole), so the rows whose chunk k lies within that radius of the query's chunk k, for any k, are a superset of
// the matches; the exact distance is checked on those rows only.
import { PHASH_CHUNK_SHIFTS } from '../pim.tables.js';

/** Past this chunk radius (max_distance ≥ 16) the lookups match so many rows that one pass over all of them is cheaper. */
export const MAX_CHUNK_RADIUS = 3;

/** The four 16-bit chunks of a hash (signed or not), in the order of PHASH_CHUNK_SHIFTS. */
export function chunksOf(hash: bigint): number[] {
  const unsigned = BigInt.asUintN(64, hash);
  return PHASH_CHUNK_SHIFTS.map((shift) => Number((unsigned >> BigInt(shift)) & 0xffffn));
}

/** Every 16-bit value within `radius` bits of `value` (1, 17, 137 or 697 values for radius 0–3). */
export function ballAround(value: number, radius: number): number[] {
  const out = [value];
  const flip = (from: number, x: number, left: number) => {
    for (let bit = from; bit < 16; bit++) {
      const y = x ^ (1 << bit);
      out.push(y);
      if (left > 1) flip(bit + 1, y, left - 1);
    }
  };
  if (radius > 0) flip(0, value, radius);
  return out;
}

/** The chunk values to look up for a search within `maxDistance` of `hash`, or null when a full pass is cheaper. */
export function chunkLookups(hash: bigint, maxDistance: number): number[][] | null {
  const radius = Math.floor(maxDistance / PHASH_CHUNK_SHIFTS.length);
  if (radius > MAX_CHUNK_RADIUS) return null;
  return chunksOf(hash).map((chunk) => ballAround(chunk, radius));
}
