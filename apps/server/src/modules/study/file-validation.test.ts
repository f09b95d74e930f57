import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildDocx, buildPdf, buildXlsx } from '../../seed/documents.ts';
import { buildZip } from '../../seed/zip.ts';
import { bufferSource, readEntry, readZipDirectory } from '../fileprocess/zip-reader.ts';
import {
  hasBlockingErrors,
  listZip,
  parseCsv,
  validateStudyFile,
  type FileToCheck,
} from './file-validation.ts';

const HEADER = 'respondent_id,product_code,gender,age,ethnicity,social_class,country,Q1,Q2\n';
const csv = (text: string, fileName = 'results.csv', slotName?: string): FileToCheck => ({
  bytes: Buffer.from(text, 'utf8'),
  fileName,
  slotName,
  folder: 'results',
});
const summary = async (file: FileToCheck) =>
  (await validateStudyFile(file)).map((item) => `${item.level}: ${item.high_msg}`);

describe('documents', () => {
  it('accepts real pdf, docx and xlsx files', async () => {
    const files: FileToCheck[] = [
      { bytes: buildPdf([{ text: 'Report' }]), fileName: 'r.pdf', folder: 'report' },
      { bytes: buildDocx([{ text: 'Questionnaire' }]), fileName: 'q.docx', folder: 'questionnaire' },
      { bytes: buildXlsx([{ name: 'S', rows: [['a']] }]), fileName: 's.xlsx', folder: 'screener' },
      {
        bytes: Buffer.concat([
          Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
          Buffer.alloc(504),
        ]),
        fileName: 'old.doc',
        folder: 'protocol',
      },
    ];
    for (const file of files) expect(await validateStudyFile(file), file.fileName).toEqual([]);
  });

  it('refuses a pdf without its header, and warns when the end marker is missing', async () => {
    const errors = await validateStudyFile({
      bytes: Buffer.from('hello'),
      fileName: 'r.pdf',
      folder: 'report',
    });
    expect(errors).toEqual([
      {
        id: 1,
        level: 'error',
        high_msg: 'The file is not a valid PDF',
        msg: 'r.pdf has no %PDF- header in its first 1024 bytes, so it is not a PDF.',
        event: 'validation',
        error_file: 'r.pdf',
      },
    ]);
    expect(hasBlockingErrors(errors)).toBe(true);
    const cut = buildPdf([{ text: 'x' }]).subarray(0, 200);
    const warnings = await validateStudyFile({ bytes: cut, fileName: 'r.pdf', folder: 'report' });
    expect(warnings.map((item) => [item.level, item.high_msg])).toEqual([
      ['warning', 'The PDF may be incomplete'],
    ]);
    expect(hasBlockingErrors(warnings)).toBe(false);
  });

  it('refuses an OOXML name on bytes that are not its package', async () => {
    expect(
      await summary({ bytes: Buffer.from('plain text'), fileName: 'q.docx', folder: 'questionnaire' }),
    ).toEqual(['error: The file is not a valid Word document']);
    const truncated = buildDocx([{ text: 'x' }]).subarray(0, 100);
    expect(await summary({ bytes: truncated, fileName: 'q.docx', folder: 'questionnaire' })).toEqual([
      'error: The file is not a valid Word document',
    ]);
    const plainZip = buildZip([{ name: 'notes.txt', data: 'x' }]);
    const [noTypes] = await validateStudyFile({ bytes: plainZip, fileName: 'q.pptx', folder: 'report' });
    expect(noTypes?.msg).toBe(
      'q.pptx is a zip file but not an Office document: it has no [Content_Types].xml.',
    );
    const [wrongKind] = await validateStudyFile({
      bytes: buildDocx([{ text: 'x' }]),
      fileName: 'deck.pptx',
      folder: 'report',
    });
    expect(wrongKind?.msg).toBe(
      'deck.pptx is a Word document (.docx) with a .pptx name. Upload it with its own extension.',
    );
    expect(
      await summary({ bytes: buildDocx([{ text: 'x' }]), fileName: 'old.doc', folder: 'report' }),
    ).toEqual(['error: The file is not a valid Word 97-2003 document']);
  });

  it('lists the entries of a zip and rejects cut ones', () => {
    const zip = buildZip([
      { name: 'a.txt', data: 'a' },
      { name: 'dir/b.txt', data: 'b' },
    ]);
    expect(listZip(zip)).toEqual({ names: ['a.txt', 'dir/b.txt'], encrypted: false });
    expect(listZip(zip.subarray(0, zip.length - 5))).toBeNull();
    expect(listZip(Buffer.from('PK'))).toBeNull();
  });
});

describe('results files', () => {
  it('accepts a data file in the documented layout, in csv and xlsx', async () => {
    expect(await validateStudyFile(csv(`${HEADER}R1,P1,female,25-34,white,B,UK,4,5\n`))).toEqual([]);
    const xlsx = buildXlsx([
      {
        name: 'Results',
        rows: [HEADER.trim().split(','), ['R1', 'P1', 'female', '25-34', 'white', 'B', 'UK', 4, 5]],
      },
    ]);
    expect(await validateStudyFile({ bytes: xlsx, fileName: 'results.xlsx', folder: 'results' })).toEqual([]);
  });

  it('reads workbooks saved by spreadsheet programs (shared strings, several sheets)', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes');
    const sheet = workbook.addWorksheet('Results');
    sheet.addRow(HEADER.trim().split(','));
    sheet.addRow(['R1', 'P1', 'female', '25-34', 'white', 'B', 'UK', 4, 5]);
    sheet.addRow(['', 'P2', 'male', '35-44', 'white', 'C1', 'UK', 3, 2]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const problems = await validateStudyFile({ bytes, fileName: 'saved.xlsx', folder: 'results' });
    expect(problems.map((item) => item.msg)).toEqual([
      'sheet Results of saved.xlsx: row 3 has an empty respondent_id (column A) and will be skipped.',
    ]);
  });

  it('reads a workbook whose zip stores its sheets before xl/workbook.xml', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Results');
    sheet.addRow(HEADER.trim().split(','));
    sheet.addRow(['', 'P2', 'male', '35-44', 'white', 'C1', 'UK', 3, 2]);
    const saved = Buffer.from(await workbook.xlsx.writeBuffer());
    const source = bufferSource(saved);
    const budget = { remaining: 10 * 1024 * 1024 };
    const entries = await Promise.all(
      (await readZipDirectory(source))
        .filter((entry) => !entry.directory)
        .map(async (entry) => ({ name: entry.name, data: await readEntry(source, entry, budget) })),
    );
    // Relations and shared strings first, then the sheets, the workbook part last.
    const last = (name: string) =>
      name === 'xl/workbook.xml' ? 2 : name.startsWith('xl/worksheets/') ? 1 : 0;
    const bytes = buildZip([...entries].sort((a, b) => last(a.name) - last(b.name)));
    const problems = await validateStudyFile({ bytes, fileName: 'reordered.xlsx', folder: 'results' });
    expect(problems.map((item) => item.msg)).toEqual([
      'sheet Results of reordered.xlsx: row 2 has an empty respondent_id (column A) and will be skipped.',
    ]);
  });

  it('is an error without the respondent id column, a warning without the other expected columns', async () => {
    const errors = await validateStudyFile(csv('id,product_code,Q1\n1,P1,4\n'));
    expect(errors.map((item) => [item.level, item.high_msg, item.msg])).toEqual([
      [
        'error',
        'The results file has no respondent_id column',
        'results.csv: row 1 must name a respondent_id column (found id, product_code, Q1).',
      ],
      [
        'warning',
        'The results file lacks expected columns',
        'results.csv: no gender, age, ethnicity, social_class, country columns; those breakdowns will be missing.',
      ],
    ]);
    const onlyWarnings = await validateStudyFile(csv('Respondent ID,product_code,Q1\nR1,P1,4\n'));
    expect(onlyWarnings.map((item) => item.level)).toEqual(['warning']);
  });

  it('names the sheet and rows of xlsx problems', async () => {
    const xlsx = buildXlsx([
      {
        name: 'Data',
        rows: [
          ['respondent_id', 'product_code', 'gender', 'age', 'ethnicity', 'social_class', 'country', 'Q1'],
          [null, 'P1', 'f', '30', 'x', 'B', 'UK', 3],
        ],
      },
    ]);
    const [problem] = await validateStudyFile({ bytes: xlsx, fileName: 'r.xlsx', folder: 'results' });
    expect(problem).toMatchObject({
      level: 'warning',
      high_msg: 'Rows without a respondent_id',
      msg: 'sheet Data of r.xlsx: row 2 has an empty respondent_id (column A) and will be skipped.',
    });
  });

  it('refuses files that cannot be parsed', async () => {
    expect(await summary(csv(`${HEADER}"R1,P1\n`))).toEqual(['error: The results file cannot be read']);
    expect(await summary({ ...csv(''), bytes: Buffer.from([0x50, 0x4b, 0, 0, 1]) })).toEqual([
      'error: The results file cannot be read',
    ]);
    expect(await summary({ ...csv(''), bytes: Buffer.from('not a zip'), fileName: 'r.xlsx' })).toEqual([
      'error: The file is not a valid Excel workbook',
    ]);
    expect(await summary(csv(`${HEADER}R1,P1,f,30,x,B,UK,1,2,3,4\n`))).toEqual([
      'error: Rows do not match the header',
    ]);
    expect(await summary(csv('respondent_id,Q1,q1\nR1,1,2\n'))).toEqual([
      'error: Column names repeat',
      'warning: The results file lacks expected columns',
    ]);
  });

  it('checks a scale file against the scale layout', async () => {
    const scale =
      'question_id,text,type,scale_min,scale_max,labels,metric\nQ1,Liking,numerical,1,9,,liking\n';
    expect(await validateStudyFile(csv(scale, 'upload.csv', 'CMI_results.scale.csv'))).toEqual([]);
    expect(await summary(csv('question,text\nQ1,x\n', 'r.scale.csv'))).toEqual([
      'error: The scale file has no question_id column',
      'warning: The scale file lacks expected columns',
      'warning: The scale file has unknown columns',
    ]);
  });

  it('reads quoted cells with commas, quotes and line breaks, CRLF rows and trailing separators', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\n1,2,\n';
    expect(parseCsv(text).rows).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x, y', 'say "hi"', 'two\nlines'] },
      { line: 5, cells: ['1', '2', ''] },
    ]);
    expect(parseCsv('a,"b').unclosedQuoteAt).toBe(1);
  });

  it('names the first rows of a problem and counts the rest', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => `,P${i},f,30,x,B,UK,1,2`).join('\n');
    const [problem] = await validateStudyFile(csv(`${HEADER}${rows}\n`));
    expect(problem?.msg).toBe(
      'results.csv: rows 2, 3, 4, 5, 6 and 3 more have an empty respondent_id (column A) and will be skipped.',
    );
  });

  it('reads semicolon csv and warns about Latin-1 text', async () => {
    expect(parseCsv('a;b\n1;2\n').rows.map((row) => row.cells)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    const latin1 = Buffer.from(`${HEADER}R1,P1,f,30,x,B,Espa\u00f1a,1,2\n`, 'latin1');
    expect(await summary({ ...csv(''), bytes: latin1 })).toEqual(['warning: The results file is not UTF-8']);
  });
});

describe('table limits', () => {
  it('refuses a results file wider than the upload limit with a message naming it', async () => {
    const header = ['respondent_id', ...Array.from({ length: 2_500 }, (_, i) => `q${i}`)].join(',');
    const [problem] = await validateStudyFile({
      bytes: Buffer.from(`${header}\n1\n`),
      fileName: 'wide.csv',
      folder: 'results',
    });
    expect(problem).toMatchObject({
      level: 'error',
      high_msg: 'The results file is too large',
      msg: expect.stringMatching(/^wide\.csv has more than 2,000 columns/),
    });
  });
});
