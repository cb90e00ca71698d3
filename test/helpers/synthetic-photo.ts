// Photo-like test images made with sharp, no files needed: a gradient background, soft overlapping shapes and sensor-like
// noise, all drawn from a seeded generator so that a seed always gives the same picture (and different seeds clearly
// different ones). Used by the image-search tests and benchmark.
import sharp from 'sharp';
import { mulberry32 } from '../../src/lib/prng.js';

/** A JPEG (quality 92) of `width` × `height` pixels. */
export async function syntheticPhoto(seed: number, width = 800, height = 600): Promise<Buffer> {
  const r = mulberry32(seed);
  const color = () => `rgb(${Math.floor(r() * 256)},${Math.floor(r() * 256)},${Math.floor(r() * 256)})`;
  const gradients = [0, 1, 2].map(
    (i) =>
      `<linearGradient id="g${i}" x1="${r()}" y1="${r()}" x2="${r()}" y2="${r()}"><stop offset="0" stop-color="${color()}"/><stop offset="1" stop-color="${color()}"/></linearGradient>`,
  );
  const shapes: string[] = [];
  for (let i = 0; i < 14; i++) {
    const x = r() * width;
    const y = r() * height;
    const s = (0.05 + r() * 0.3) * Math.min(width, height);
    const fill = r() < 0.5 ? color() : `url(#g${i % 3})`;
    const opacity = 0.6 + r() * 0.4;
    const kind = Math.floor(r() * 3);
    if (kind === 0) shapes.push(`<circle cx="${x}" cy="${y}" r="${s}" fill="${fill}" opacity="${opacity}"/>`);
    else if (kind === 1)
      shapes.push(
        `<rect x="${x - s}" y="${y - s / 2}" width="${2 * s}" height="${s}" fill="${fill}" opacity="${opacity}" transform="rotate(${r() * 90} ${x} ${y})"/>`,
      );
    else shapes.push(`<polygon points="${x},${y - s} ${x + s},${y + s} ${x - s},${y + s * r()}" fill="${fill}" opacity="${opacity}"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>${gradients.join('')}
      <linearGradient id="bg" x1="0" y1="0" x2="${r()}" y2="1"><stop offset="0" stop-color="${color()}"/><stop offset="1" stop-color="${color()}"/></linearGradient>
      <filter id="soft"><feGaussianBlur stdDeviation="${1 + r() * 2}"/></filter></defs>
    <rect width="100%" height="100%" fill="url(#bg)"/><g filter="url(#soft)">${shapes.join('')}</g></svg>`;
  const pixels = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  // Noise of about ±12 grey levels per channel (sum of three uniforms: roughly Gaussian).
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.max(0, Math.min(255, pixels[i] + Math.round((r() + r() + r() - 1.5) * 16)));
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The same picture resized to `factor` of its width and saved as JPEG at `quality`. */
export async function resizedJpeg(image: Buffer, factor: number, quality: number): Promise<Buffer> {
  const { width } = await sharp(image).metadata();
  return sharp(image)
    .resize(Math.round(width! * factor))
    .jpeg({ quality })
    .toBuffer();
}

/** The picture with `areaShare` of its area trimmed evenly off the four edges (0.05: a 5 % crop). */
export async function croppedJpeg(image: Buffer, areaShare: number): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  const keep = Math.sqrt(1 - areaShare);
  const w = Math.round(width! * keep);
  const h = Math.round(height! * keep);
  return sharp(image)
    .extract({ left: Math.round((width! - w) / 2), top: Math.round((height! - h) / 2), width: w, height: h })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export const asWebp = (image: Buffer) => sharp(image).webp({ quality: 75 }).toBuffer();
export const asPng = (image: Buffer) => sharp(image).png().toBuffer();
export const asGif = (image: Buffer) => sharp(image).gif().toBuffer();
