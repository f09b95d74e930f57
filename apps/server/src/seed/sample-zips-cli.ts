/**
 * npx tsx apps/server/src/seed/sample-zips-cli.ts [folder]
 *
 * Writes the studies upload samples and templates of docs/data-formats.md into the folder
 * (docs/data-formats by default): studies-clean.zip, studies-with-errors.zip, the corrected results
 * file of the sample with errors, request_form_template.xlsx and scale_template.scale.csv.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildSampleZips, buildTemplates } from './sample-zips.ts';

const folder = path.resolve(process.argv[2] ?? 'docs/data-formats');
await mkdir(folder, { recursive: true });
const samples = buildSampleZips();
const templates = buildTemplates();
const files: [string, Buffer | string][] = [
  ['studies-clean.zip', samples.clean],
  ['studies-with-errors.zip', samples.withErrors],
  [path.basename(samples.badResultsPath), samples.fixedResults],
  ['request_form_template.xlsx', templates.requestForm],
  ['scale_template.scale.csv', templates.scaleFile],
];
for (const [name, data] of files) await writeFile(path.join(folder, name), data);
console.log(`Wrote ${files.map(([name]) => name).join(', ')} to ${folder}`);
console.log(
  `The sample with errors holds ${samples.expected.length} problems in ${samples.errorCmis.join(' and ')}.`,
);
