// sharp (libvips), loaded with the first image and not at start: it costs resident memory that most processes never
// need. libvips' operation cache is off: it would keep up to 50 MB of decoded images for reuse, and every image we
// decode (an upload, a download, a search query) is decoded once.
import type SharpModule from 'sharp';

let sharpModule: Promise<typeof SharpModule> | undefined;

export const loadSharp = (): Promise<typeof SharpModule> =>
  (sharpModule ??= import('sharp').then((m) => {
    m.default.cache(false);
    return m.default;
  }));
