import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildZip } from '../../seed/zip.ts';
import {
  bufferSource,
  looksLikeZip,
  readEntry,
  readZipDirectory,
  safeEntryName,
  UnsafeZipError,
} from './zip-reader.ts';

/** Rewrites one field of every central directory entry of a zip built by buildZip. */
function patchCentral(zip: Buffer, patch: (entry: Buffer, at: number) => void): Buffer {
  const copy = Buffer.from(zip);
  const eocd = copy.length - 22;
  let at = copy.readUInt32LE(eocd + 16);
  const count = copy.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i++) {
    patch(copy, at);
    at += 46 + copy.readUInt16LE(at + 28) + copy.readUInt16LE(at + 30) + copy.readUInt16LE(at + 32);
  }
  return copy;
}

const list = (zip: Buffer, limits?: { maxEntries: number; maxUnpackedBytes: number }) =>
  readZipDirectory(bufferSource(zip), limits);

describe('safeEntryName', () => {
  it('keeps ordinary relative names and normalises separators', () => {
    expect(safeEntryName('CMI-1/results/a.csv')).toBe('CMI-1/results/a.csv');
    expect(safeEntryName('CMI-1\\report\\r.pdf')).toBe('CMI-1/report/r.pdf');
    expect(safeEntryName('./CMI-1//x.pdf')).toBe('CMI-1/x.pdf');
  });
  it('refuses names that escape the folder or are absolute', () => {
    expect(() => safeEntryName('../etc/passwd')).toThrow(/outside the zip's folder/);
    expect(() => safeEntryName('CMI-1/../../x')).toThrow(/outside the zip's folder/);
    expect(() => safeEntryName('/etc/passwd')).toThrow(/absolute path/);
    expect(() => safeEntryName('C:/Windows/x')).toThrow(/absolute path/);
  });
});

describe('readZipDirectory', () => {
  it('lists the entries of a safe zip and unpacks them', async () => {
    const zip = buildZip([
      { name: 'CMI-1/request_form.xlsx', data: 'form' },
      { name: 'CMI-1/results/r.csv', data: 'a,b\n1,2\n' },
    ]);
    const entries = await list(zip);
    expect(entries.map((e) => e.name)).toEqual(['CMI-1/request_form.xlsx', 'CMI-1/results/r.csv']);
    const text = await readEntry(bufferSource(zip), entries[1]!, { remaining: 1000 });
    expect(text.toString()).toBe('a,b\n1,2\n');
  });

  it('refuses a zip-slip entry before unpacking anything', async () => {
    const zip = buildZip([{ name: '../../evil.sh', data: 'rm -rf /' }]);
    await expect(list(zip)).rejects.toThrow(
      new UnsafeZipError('The zip entry "../../evil.sh" points outside the zip\'s folder.'),
    );
  });

  it('refuses links', async () => {
    const zip = patchCentral(buildZip([{ name: 'CMI-1/link', data: '/etc/passwd' }]), (b, at) => {
      b.writeUInt16LE((3 << 8) | 20, at + 4); // made by Unix
      b.writeUInt32LE((0o120777 << 16) >>> 0, at + 38);
    });
    await expect(list(zip)).rejects.toThrow('The zip entry "CMI-1/link" is a link.');
  });

  it('refuses nested zips, too many entries and too many declared bytes', async () => {
    await expect(list(buildZip([{ name: 'CMI-1/inner.zip', data: 'x' }]))).rejects.toThrow(/nested zips/);
    const three = buildZip([
      { name: 'a/1', data: 'x' },
      { name: 'a/2', data: 'x' },
      { name: 'a/3', data: 'x' },
    ]);
    await expect(list(three, { maxEntries: 2, maxUnpackedBytes: 100 })).rejects.toThrow(
      'The zip holds 3 entries; at most 2 are accepted.',
    );
    const big = buildZip([{ name: 'a/big.csv', data: 'x'.repeat(5000) }]);
    await expect(list(big, { maxEntries: 10, maxUnpackedBytes: 1000 })).rejects.toThrow(
      /unpacks to more than/,
    );
  });

  it('stops an entry that inflates beyond its declared size (a zip bomb with a lying header)', async () => {
    const zip = patchCentral(buildZip([{ name: 'a/bomb.csv', data: '0'.repeat(1_000_000) }]), (b, at) => {
      b.writeUInt32LE(100, at + 24); // declares 100 bytes
    });
    const entries = await list(zip);
    await expect(readEntry(bufferSource(zip), entries[0]!, { remaining: 10_000_000 })).rejects.toThrow(
      /unpacks to more than it declares/,
    );
  });

  it('refuses what is not a zip', async () => {
    expect(looksLikeZip(Buffer.from('%PDF-1.4'))).toBe(false);
    expect(looksLikeZip(buildZip([{ name: 'a/b', data: 'c' }]))).toBe(true);
    await expect(list(Buffer.from('hello, this is plain text and not a zip at all'))).rejects.toThrow(
      'The file is not a zip archive.',
    );
  });

  it('keeps deflate data intact across chunks', async () => {
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => String(i % 10)).join(''));
    const zip = buildZip([{ name: 'a/long.csv', data }]);
    const entries = await list(zip);
    const out = await readEntry(bufferSource(zip), entries[0]!, { remaining: 1e9 });
    expect(out.equals(data)).toBe(true);
    expect(deflateRawSync(out).length).toBeGreaterThan(0);
  });
});
