/**
 * Where uploaded and study files live. The app only sees this interface, so an S3-compatible store
 * can replace the local folder without touching the features.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Writes a stream's bytes without holding them; answers how many were written. */
  putStream(key: string, stream: Readable): Promise<number>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  size(key: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** Every stored file whose key starts with `prefix` (a folder, ending with a slash), with its time. */
  list(prefix: string): AsyncIterable<StoredEntry>;
}

export interface StoredEntry {
  key: string;
  size: number;
  modifiedAt: Date;
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
    async putStream(key, stream) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      let written = 0;
      stream.on('data', (chunk: Buffer) => {
        written += chunk.length;
      });
      try {
        await pipeline(stream, createWriteStream(full));
      } catch (error) {
        await rm(full, { force: true });
        throw error;
      }
      return written;
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
    async *list(prefix) {
      const folder = resolve(prefix.replace(/\/+$/, '') || '.');
      let names: string[];
      try {
        names = await readdir(folder, { recursive: true });
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return;
        throw error;
      }
      for (const name of names) {
        const full = path.join(folder, name);
        const info = await stat(full).catch(() => null);
        if (!info?.isFile()) continue;
        yield {
          key: path.relative(path.resolve(root), full).split(path.sep).join('/'),
          size: info.size,
          modifiedAt: info.mtime,
        };
      }
    },
  };
}
