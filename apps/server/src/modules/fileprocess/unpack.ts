/**
 * Unpacking a studies zip: every entry is checked by the zip reader, then inflated one at a time into
 * file storage under the process's folder. A file whose content is itself a zip (other than the
 * office formats, which are zip containers) is refused like a nested zip.
 */
import { Readable } from 'node:stream';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { ZipFile } from './study-zip.ts';
import {
  bufferSource,
  readEntry,
  readZipDirectory,
  UnsafeZipError,
  type RandomAccess,
  type ZipLimits,
  DEFAULT_ZIP_LIMITS,
} from './zip-reader.ts';

const OFFICE_CONTAINERS = /\.(docx|xlsx|pptx)$/i;
const ZIP_MAGIC = 0x04034b50;

export interface UnpackedFile {
  path: string;
  size: number;
}

/** Checks and inflates every file entry; `write` receives each file's bytes in turn. */
export async function unpackZip(
  source: RandomAccess,
  write: (file: UnpackedFile, bytes: Buffer) => Promise<void>,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<UnpackedFile[]> {
  const entries = await readZipDirectory(source, limits);
  const budget = { remaining: limits.maxUnpackedBytes };
  const files: UnpackedFile[] = [];
  for (const entry of entries) {
    if (entry.directory) continue;
    const bytes = await readEntry(source, entry, budget);
    if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_MAGIC && !OFFICE_CONTAINERS.test(entry.name))
      throw new UnsafeZipError(
        `The zip entry "${entry.name}" is itself a zip; nested zips are not accepted.`,
      );
    const file = { path: entry.name, size: bytes.length };
    await write(file, bytes);
    files.push(file);
  }
  return files;
}

/** The files of a zip held in memory (tests and small checks). */
export async function unpackToMemory(zip: Buffer, limits?: ZipLimits): Promise<ZipFile[]> {
  const out: ZipFile[] = [];
  await unpackZip(
    bufferSource(zip),
    async (file, bytes) => {
      out.push(memoryFile(file.path, bytes));
    },
    limits,
  );
  return out;
}

export function memoryFile(path: string, bytes: Buffer): ZipFile {
  return {
    path,
    size: bytes.length,
    read: async () => bytes,
    stream: async () => Readable.from([bytes]),
  };
}

/** Files of an unpacked zip kept in storage under `prefix`. */
export function storedFiles(storage: FileStorage, prefix: string, files: UnpackedFile[]): ZipFile[] {
  return files.map((file) => ({
    path: file.path,
    size: file.size,
    read: () => storage.get(`${prefix}/${file.path}`),
    stream: async () => storage.stream(`${prefix}/${file.path}`),
  }));
}
