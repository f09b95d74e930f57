/**
 * Where uploaded and study files live. The app only sees this interface, so an S3-compatible store
 * can replace the local folder without touching the features.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  size(key: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

/** Keys are relative slash-separated paths; anything that would leave the root is refused. */
export function createLocalFileStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  };
  return {
    async put(key, bytes) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, bytes);
    },
    get: (key) => readFile(resolve(key)),
    stream: (key) => createReadStream(resolve(key)),
    async size(key) {
      return (await stat(resolve(key))).size;
    },
    async exists(key) {
      try {
        await stat(resolve(key));
        return true;
      } catch {
        return false;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
  };
}
