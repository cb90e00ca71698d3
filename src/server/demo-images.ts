// The demo catalogue's pictures, drawn at first start (no network, no bundled files): one WebP per colour of a product,
// the garment's silhouette in that colour on a soft ground. Shapes only, no text, so no font is needed.
import sharp from 'sharp';

const SIZE = 600;

/** The demo's colour names as paint. */
const PAINT: Record<string, string> = {
  Navy: '#1f2a4d',
  Oat: '#d9c7a3',
  White: '#f4f4f1',
  Black: '#1b1b1b',
  Olive: '#5b6b2f',
  Indigo: '#2e3a7a',
  Brown: '#6b4226',
  Grey: '#8a8d91',
  Mustard: '#d4a017',
  Sky: '#8ec5e8',
  Sand: '#cdb68a',
  Natural: '#e8dcc4',
  Charcoal: '#3a3d42',
  Orange: '#e8702a',
};

/** Silhouettes in a 600 × 600 box, by product type. */
const SHAPES: Record<string, string> = {
  top: '<path d="M190 110 L250 90 Q300 130 350 90 L410 110 L510 195 L455 255 L420 228 L420 510 L180 510 L180 228 L145 255 L90 195 Z"/>',
  bottom: '<path d="M195 90 L405 90 L430 510 L330 510 L300 230 L270 510 L170 510 Z"/>',
  shoe: '<path d="M225 90 L330 90 L330 360 Q345 390 420 405 Q490 420 495 480 L495 510 L210 510 L210 450 Z"/>',
  bag: '<path d="M165 225 L435 225 L465 510 L135 510 Z"/><path d="M225 225 Q225 120 300 120 Q375 120 375 225" fill="none" stroke-width="22"/>',
};
const SHAPE_OF_TYPE: Record<string, keyof typeof SHAPES> = {
  Knitwear: 'top',
  Tops: 'top',
  Outerwear: 'top',
  Bottoms: 'bottom',
  Footwear: 'shoe',
  Accessories: 'bag',
};

/** A picture of a product of `type` in `colour` (a name of PAINT; anything else is drawn grey). */
export function demoImage(type: string, colour: string): Promise<Buffer> {
  const paint = PAINT[colour] ?? PAINT.Grey;
  const shape = SHAPES[SHAPE_OF_TYPE[type] ?? 'bag'];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 600 600">
  <rect width="600" height="600" fill="#f3f1ec"/>
  <ellipse cx="300" cy="530" rx="200" ry="18" fill="#000" opacity="0.08"/>
  <g fill="${paint}" stroke="${paint}" stroke-linejoin="round">${shape}</g>
</svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}
