// Where media files live. The service sees only MediaStorage, so an object store can replace the filesystem later.
// Keys are content addresses, `<sha256>.<ext>`: the same bytes always get the same key, and a key never changes content.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/private-files.js';

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface MediaStorage {
  /** Stores the bytes under the key, atomically: readers see the whole file or none. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The file as a stream, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export const MEDIA_EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' } as const;
export type MediaMime = keyof typeof MEDIA_EXTENSIONS;

const MIME_OF_EXTENSION: Record<string, MediaMime> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

/** The only shape a key can have: 64 lower-case hex digits, a dot, a known extension. Nothing else reaches the disk. */
export const MEDIA_KEY = /^[0-9a-f]{64}\.(jpg|png|webp|gif)$/;

export const mediaKey = (sha256: string, mime: MediaMime) => `${sha256}.${MEDIA_EXTENSIONS[mime]}`;

/** The content type of a valid key, null for anything that is not one. */
export function mimeOfKey(key: string): MediaMime | null {
  const match = MEDIA_KEY.exec(key);
  return match ? MIME_OF_EXTENSION[match[1]] : null;
}

function assertKey(key: string): void {
  if (!MEDIA_KEY.test(key)) throw new Error(`invalid media key: ${JSON.stringify(key.slice(0, 80))}`);
}

/**
 * Files under `root` (DATA_DIR/media), fanned out by the first two hex digits: `root/ab/ab12….jpg`. Directories are
 * created on the first write, so a server that never stores media never creates them.
 */
export class FileMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE }); // private, as all of DATA_DIR
    // Write a temporary file in the same directory, flush it, then rename over the target: a crash leaves either
    // the old state or the whole new file, never half of one.
    const temp = path.join(path.dirname(target), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      const file = await open(temp, 'wx', PRIVATE_FILE_MODE);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    // Open before answering: a file deleted meanwhile still streams whole (POSIX keeps it until it is closed).
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream({ autoClose: true }), size: info.size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}
