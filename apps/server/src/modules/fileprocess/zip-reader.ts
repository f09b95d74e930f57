/**
 * A zip reader that trusts nothing. It reads the central directory only (random access), refuses an
 * archive before anything is unpacked when an entry escapes its folder, has an absolute path, is a
 * link, is encrypted, or is itself a zip, or when there are too many entries or their declared sizes
 * add up to too much; then it inflates one entry at a time as a stream and stops an entry that
 * inflates beyond what it declared (a lying header) or beyond the archive's byte budget.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import {
  STUDIES_ZIP_MAX_ENTRIES,
  STUDIES_ZIP_MAX_PATH_LENGTH,
  STUDIES_ZIP_MAX_UNPACKED_BYTES,
} from '@accord/contracts';
import { hasHiddenCharacters } from '../../lib/file-names.ts';

/** An archive the reader refuses; the message says why, for the user. */
export class UnsafeZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeZipError';
  }
}

export interface ZipEntryInfo {
  /** Slash-separated path inside the archive, without a trailing slash. */
  name: string;
  directory: boolean;
  compressedSize: number;
  size: number;
  method: number;
  crc32: number;
  localHeaderOffset: number;
}

export interface ZipLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: STUDIES_ZIP_MAX_ENTRIES,
  maxUnpackedBytes: STUDIES_ZIP_MAX_UNPACKED_BYTES,
};

/** Bytes at any offset of the archive. */
export interface RandomAccess {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

export function bufferSource(bytes: Buffer): RandomAccess {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    close: async () => undefined,
  };
}

export async function fileSource(filePath: string): Promise<RandomAccess> {
  const handle: FileHandle = await open(filePath, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      await handle.read(buffer, 0, buffer.length, offset);
      return buffer;
    },
    close: () => handle.close(),
  };
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EOCD_LOCATOR = 0x07064b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** Whether the bytes start like a zip archive (a local header or an empty archive's end record). */
export function looksLikeZip(head: Uint8Array): boolean {
  if (head.length < 4) return false;
  const b = Buffer.from(head.buffer, head.byteOffset, 4);
  const signature = b.readUInt32LE(0);
  return signature === LOCAL || signature === EOCD;
}

/** Checks one entry name; answers the normalised name or throws why it is unsafe. */
export function safeEntryName(raw: string): string {
  // Each folder or file name is stored as such on disk, where a name has at most 255 bytes.
  if (
    raw.length > STUDIES_ZIP_MAX_PATH_LENGTH ||
    raw.split(/[\\/]/).some((part) => Buffer.byteLength(part) > 255)
  )
    throw new UnsafeZipError(
      `The zip entry "${raw.slice(0, 60)}…" has a path of ${raw.length} characters; at most ${STUDIES_ZIP_MAX_PATH_LENGTH} are accepted.`,
    );
  if (hasHiddenCharacters(raw))
    throw new UnsafeZipError(
      `The zip entry "${raw.replace(/\p{Cc}/gu, '?')}" has control characters in its name.`,
    );
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name))
    throw new UnsafeZipError(`The zip entry "${raw}" has an absolute path.`);
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.some((part) => part === '..'))
    throw new UnsafeZipError(`The zip entry "${raw}" points outside the zip's folder.`);
  if (parts.length === 0) throw new UnsafeZipError(`The zip entry "${raw}" has no name.`);
  return parts.join('/');
}

/** Entries whose content is itself an archive are refused (nested zips). */
const NESTED_ARCHIVE = /\.(zip|jar|7z|rar|tar|tgz|gz|bz2|xz)$/i;

/** Lists the entries after checking every one of them; throws UnsafeZipError for an unsafe archive. */
export async function readZipDirectory(
  source: RandomAccess,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ZipEntryInfo[]> {
  if (source.size < 22) throw new UnsafeZipError('The file is not a zip archive.');
  const tailLength = Math.min(source.size, 22 + 0xffff);
  const tail = await source.read(source.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new UnsafeZipError('The file is not a zip archive.');
  if (eocd >= 20 && tail.readUInt32LE(eocd - 20) === ZIP64_EOCD_LOCATOR)
    throw new UnsafeZipError('The zip uses the ZIP64 format, which is only needed beyond the size limit.');
  const disk = tail.readUInt16LE(eocd + 4);
  const entryCount = tail.readUInt16LE(eocd + 10);
  const directorySize = tail.readUInt32LE(eocd + 12);
  const directoryOffset = tail.readUInt32LE(eocd + 16);
  if (disk !== 0) throw new UnsafeZipError('Split (multi-part) zip archives are not accepted.');
  if (entryCount > limits.maxEntries)
    throw new UnsafeZipError(
      `The zip holds ${entryCount} entries; at most ${limits.maxEntries} are accepted.`,
    );
  if (directoryOffset + directorySize > source.size)
    throw new UnsafeZipError('The zip archive is damaged (its directory lies beyond its end).');

  const directory = await source.read(directoryOffset, directorySize);
  const entries: ZipEntryInfo[] = [];
  const seen = new Set<string>();
  let declared = 0;
  let at = 0;
  for (let i = 0; i < entryCount; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL)
      throw new UnsafeZipError('The zip archive is damaged (bad directory entry).');
    const madeBy = directory.readUInt16LE(at + 4) >> 8;
    const flags = directory.readUInt16LE(at + 8);
    const method = directory.readUInt16LE(at + 10);
    const crc32 = directory.readUInt32LE(at + 16);
    const compressedSize = directory.readUInt32LE(at + 20);
    const size = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const externalAttributes = directory.readUInt32LE(at + 38);
    const localHeaderOffset = directory.readUInt32LE(at + 42);
    const rawName = directory
      .subarray(at + 46, at + 46 + nameLength)
      .toString(flags & 0x800 ? 'utf8' : 'latin1');
    at += 46 + nameLength + extraLength + commentLength;

    if (compressedSize === 0xffffffff || size === 0xffffffff || localHeaderOffset === 0xffffffff)
      throw new UnsafeZipError('The zip uses the ZIP64 format, which is only needed beyond the size limit.');
    const unixMode = externalAttributes >>> 16;
    const isDirectoryName = rawName.endsWith('/') || rawName.endsWith('\\');
    const name = safeEntryName(rawName);
    // Unix-made entries carry their file type: only regular files and folders are accepted.
    if (madeBy === 3 && unixMode !== 0) {
      const type = unixMode & S_IFMT;
      if (type === S_IFLNK) throw new UnsafeZipError(`The zip entry "${name}" is a link.`);
      if (type !== S_IFREG && type !== S_IFDIR && type !== 0)
        throw new UnsafeZipError(`The zip entry "${name}" is not a regular file.`);
    }
    if (flags & 0x1) throw new UnsafeZipError(`The zip entry "${name}" is encrypted.`);
    const directoryEntry = isDirectoryName || (madeBy === 3 && (unixMode & S_IFMT) === S_IFDIR);
    if (!directoryEntry && NESTED_ARCHIVE.test(name))
      throw new UnsafeZipError(`The zip entry "${name}" is itself an archive; nested zips are not accepted.`);
    if (!directoryEntry && method !== 0 && method !== 8)
      throw new UnsafeZipError(`The zip entry "${name}" uses an unsupported compression method.`);
    const key = name.toLowerCase();
    if (!directoryEntry && seen.has(key)) throw new UnsafeZipError(`The zip holds "${name}" twice.`);
    seen.add(key);
    declared += size;
    if (declared > limits.maxUnpackedBytes)
      throw new UnsafeZipError(
        `The zip unpacks to more than ${formatBytes(limits.maxUnpackedBytes)}, the most accepted.`,
      );
    entries.push({
      name,
      directory: directoryEntry,
      compressedSize,
      size,
      method,
      crc32,
      localHeaderOffset,
    });
  }
  return entries;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
  return `${bytes} bytes`;
}

/** A byte budget shared by all the entries unpacked from one archive. */
export interface UnpackBudget {
  remaining: number;
}

/**
 * The entry's content as a stream, inflated chunk by chunk. The stream errors with UnsafeZipError
 * when it inflates beyond its declared size or the budget (then nothing more is read).
 */
export async function openEntry(
  source: RandomAccess,
  entry: ZipEntryInfo,
  budget: UnpackBudget,
): Promise<Readable> {
  const header = await source.read(entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL)
    throw new UnsafeZipError(`The zip archive is damaged (entry "${entry.name}").`);
  const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (dataStart + entry.compressedSize > source.size)
    throw new UnsafeZipError(`The zip archive is damaged (entry "${entry.name}" is cut short).`);

  const CHUNK = 256 * 1024;
  let offset = dataStart;
  const end = dataStart + entry.compressedSize;
  const compressed = new Readable({
    async read() {
      try {
        if (offset >= end) {
          this.push(null);
          return;
        }
        const chunk = await source.read(offset, Math.min(CHUNK, end - offset));
        offset += chunk.length;
        this.push(chunk);
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
  let produced = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      produced += chunk.length;
      budget.remaining -= chunk.length;
      if (produced > entry.size)
        return callback(
          new UnsafeZipError(`The zip entry "${entry.name}" unpacks to more than it declares (a zip bomb).`),
        );
      if (budget.remaining < 0)
        return callback(new UnsafeZipError('The zip unpacks to more than the most accepted (a zip bomb).'));
      callback(null, chunk);
    },
  });
  const onError = (error: Error) => guard.destroy(error);
  if (entry.method === 0) {
    compressed.on('error', onError);
    return compressed.pipe(guard);
  }
  const inflate = createInflateRaw();
  compressed.on('error', onError);
  inflate.on('error', (error) =>
    guard.destroy(new UnsafeZipError(`The zip entry "${entry.name}" cannot be unpacked: ${error.message}.`)),
  );
  return compressed.pipe(inflate).pipe(guard);
}

/** The whole content of a (small) entry. */
export async function readEntry(
  source: RandomAccess,
  entry: ZipEntryInfo,
  budget: UnpackBudget,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(source, entry, budget)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
