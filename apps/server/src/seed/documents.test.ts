import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDocx, buildPdf, buildXlsx, csvLine, wrapText } from './documents.ts';
import { crc32 } from './zip.ts';

/** Reads the entries of a zip through its central directory, checking each CRC. */
function unzip(zip: Buffer): Map<string, string> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = inflateRawSync(zip.subarray(dataStart, dataStart + size));
    expect(crc32(data)).toBe(crc);
    files.set(name, data.toString('utf8'));
    at += 46 + nameLength;
  }
  return files;
}

describe('documents', () => {
  it('writes a PDF whose cross-reference table points at its objects', () => {
    const pdf = buildPdf([{ text: 'Report (draft) \\ Fougère', size: 16 }, { text: 'Line two' }]);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`));
    expect(text).toContain('(Report \\(draft\\) \\\\ Foug\xe8re) Tj');
  });

  it('writes docx and xlsx packages with valid entries', () => {
    const docx = unzip(buildDocx([{ text: 'Title & more', heading: true }, { text: 'Body' }]));
    expect([...docx.keys()]).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    expect(docx.get('word/document.xml')).toContain('Title &amp; more');
    const xlsx = unzip(
      buildXlsx([
        {
          name: 'Study',
          rows: [
            ['field', 'value'],
            ['year', 2020],
          ],
        },
      ]),
    );
    expect(xlsx.get('xl/worksheets/sheet1.xml')).toContain('<c r="B2"><v>2020</v></c>');
    expect(xlsx.get('xl/workbook.xml')).toContain('name="Study"');
  });

  it('wraps PDF text at spaces', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
  });

  it('quotes CSV cells only when needed', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 3, null])).toBe('a,"b,c","say ""hi""",3,\n');
  });
});
