/**
 * Unpacking a studies zip: every entry is checked by the zip reader, then inflated one at a time, as a
 * stream, into file storage under the process's folder. A file whose content is itself a zip (other than the
 * office formats, which are zip containers) is refused like a nested zip.
 */
import { Readable } from 'node:stream';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { ZipFile } from './study-zip.ts';
import {
  bufferSource,
  openEntry,
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

/**
 * Checks and inflates every file entry; `write` receives each file's content as a stream in turn (no
 * entry is held whole) and answers how many bytes it stored.
 */
export async function unpackZip(
  source: RandomAccess,
  write: (path: string, content: Readable) => Promise<number>,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<UnpackedFile[]> {
  const entries = await readZipDirectory(source, limits);
  const budget = { remaining: limits.maxUnpackedBytes };
  const files: UnpackedFile[] = [];
  for (const entry of entries) {
    if (entry.directory) continue;
    const content = refuseNestedZip(entry.name, await openEntry(source, entry, budget));
    const size = await write(entry.name, content);
    files.push({ path: entry.name, size });
  }
  return files;
}

/** An entry's bytes, failing when they start like a zip (a nested zip) or when inflating fails. */
function refuseNestedZip(name: string, inflated: Readable): Readable {
  // The entry may fail before its reader starts (a lying header fails at once); the error is kept
  // on the stream (errored) and thrown by the loop below.
  inflated.on('error', () => undefined);
  async function* checked() {
    let head: Buffer | null = OFFICE_CONTAINERS.test(name) ? null : Buffer.alloc(0);
    for await (const chunk of inflated) {
      if (head === null) {
        yield chunk as Buffer;
        continue;
      }
      head = Buffer.concat([head, chunk as Buffer]);
      if (head.length < 4) continue;
      if (head.readUInt32LE(0) === ZIP_MAGIC)
        throw new UnsafeZipError(`The zip entry "${name}" is itself a zip; nested zips are not accepted.`);
      yield head;
      head = null;
    }
    if (head !== null && head.length > 0) yield head;
  }
  return Readable.from(checked(), { objectMode: false });
}

/** The files of a zip held in memory (tests and small checks). */
export async function unpackToMemory(zip: Buffer, limits?: ZipLimits): Promise<ZipFile[]> {
  const out: ZipFile[] = [];
  await unpackZip(
    bufferSource(zip),
    async (path, content) => {
      const chunks: Buffer[] = [];
      for await (const chunk of content) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      out.push(memoryFile(path, bytes));
      return bytes.length;
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
