/**
 * npx tsx bench/export-cost.ts --database-url URL [--rounds N] [--tab fragrances|summaries] [--out FILE]
 *
 * What one search export costs, part by part, without HTTP or other callers in the way: the
 * database's rows of every fragrance (or study) as the researcher's export asks for them
 * (SearchRepository.exportRows; wall time), then the workbook written from them on this thread as
 * the worker thread writes it (lib/xlsx-writer-report.ts; reading, sorting and writing the rows,
 * the process's CPU time, zlib's threads included, and the wall time until zlib has deflated the last byte), `--rounds`
 * times; prints each part's median, the file's bytes and SHA-1 (the same rows give the same bytes
 * at a fixed date), and writes the last file to `--out`. Reads only.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { StudySearchQuery } from '@accord/contracts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { delimitedRows, writeReportXlsx } from '../apps/server/src/lib/xlsx-writer-report.ts';
import { compileFilters } from '../apps/server/src/modules/search/search-filters.ts';
import { FRAGRANCE_COLUMNS, STUDY_COLUMNS } from '../apps/server/src/modules/search/search.presenter.ts';
import { createSearchRepository } from '../apps/server/src/modules/search/search.repository.ts';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    rounds: { type: 'string', default: '7' },
    tab: { type: 'string', default: 'fragrances' },
    out: { type: 'string' },
  },
});
if (!values['database-url']) throw new Error('--database-url is needed.');
const tab = values.tab === 'summaries' ? 'summaries' : 'fragrances';
const columns = tab === 'summaries' ? STUDY_COLUMNS : FRAGRANCE_COLUMNS;
const database = await openDatabase({ databaseUrl: values['database-url'], migrate: false, poolSize: 2 });
const repository = createSearchRepository(database.db);
const compiled = compileFilters(StudySearchQuery.parse({}) as Parameters<typeof compileFilters>[0]);
const firstOther = columns.findIndex((column) => !column.identifies);
const table = {
  columns: columns.map((column) => ({
    header: column.header,
    kind: column.kind ?? 'text',
    width: column.width,
  })),
  keyColumns: firstOther === -1 ? columns.length : firstOther,
};
const header = {
  title: 'Study search',
  source: [{ label: 'Search', value: 'All studies' }],
  author: 'researcher@accord.test',
  date: new Date('2026-01-01T00:00:00Z'),
  harmonised: false,
};

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const query: number[] = [];
const cpu: number[] = [];
const wall: number[] = [];
let bytes = 0;
let digest = '';
let file: Buffer = Buffer.alloc(0);
for (let round = 0; round < Number(values.rounds); round += 1) {
  const queried = performance.now();
  const found = await repository.exportRows(
    tab,
    compiled,
    sql`true`,
    columns.map((column) => column.key),
  );
  query.push(performance.now() - queried);
  const pieces: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pieces.push(chunk);
      done();
    },
  });
  const finished = new Promise((resolve) => sink.on('finish', resolve));
  const started = performance.now();
  const before = process.cpuUsage();
  const rows = delimitedRows(found.text);
  if (!rows) throw new Error('The rows did not read as delimited text.');
  await writeReportXlsx(sink, tab, header, { ...table, rows }, false);
  await finished;
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
  wall.push(performance.now() - started);
  file = Buffer.concat(pieces);
  bytes = file.length;
  digest = createHash('sha1').update(file).digest('hex');
}
console.log(
  `${tab}: ${Number(values.rounds)} rounds; query p50 ${median(query).toFixed(0)} ms; ` +
    `file written: CPU p50 ${median(cpu).toFixed(0)} ms (least ${Math.min(...cpu).toFixed(0)}), wall p50 ${median(wall).toFixed(0)} ms; ` +
    `${bytes} bytes, sha1 ${digest}`,
);
if (values.out) writeFileSync(values.out, file);
await database.close();
