import { describe, expect, it } from 'vitest';
import { displayFileName, hasHiddenCharacters } from './file-names.ts';

describe('displayFileName', () => {
  it('keeps the base name without paths, control characters or direction overrides', () => {
    expect(displayFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(displayFileName('../../etc/passwd')).toBe('passwd');
    expect(displayFileName('a\u0000b\r\n\u0007.pdf')).toBe('ab.pdf');
    expect(displayFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(displayFileName('  \u0001 ')).toBe('upload');
    expect(displayFileName('dir/..')).toBe('upload');
  });
  it('cuts a long name to 255 characters, keeping the extension', () => {
    const name = displayFileName(`${'x'.repeat(400)}.xlsx`);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.xlsx')).toBe(true);
  });
  it('tells names with hidden characters', () => {
    expect(hasHiddenCharacters('a\tb')).toBe(true);
    expect(hasHiddenCharacters('résumé.pdf')).toBe(false);
  });
});
