/// <reference types="node" />
// `npm run stats -- FILE`: reads a JSON array of cases in the format of the reference files
// (shared/reference/stats-cases.json and stats-cases-2.json; `expected` is not needed) and prints one JSON line per case,
// {"id": ..., "result": {...}}, whose result has the keys of the reference's `expected`. Numbers that
// are undefined for the data (NaN, infinities) print as null. A malformed case prints
// {"id": ..., "error": "..."} and the command ends with exit code 1 after the other cases.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertStatsCase, computeStatsCase } from './reference-cases.ts';

/** Runs every case of `text` (a JSON array) and returns the output lines and whether all succeeded. */
export function runStatsCases(text: string): { lines: string[]; ok: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error('The file must hold a JSON array of cases');
  const lines: string[] = [];
  let ok = true;
  parsed.forEach((entry: unknown, index) => {
    const id =
      typeof entry === 'object' && entry !== null && 'id' in entry ? (entry as { id: unknown }).id : null;
    try {
      assertStatsCase(entry, index);
      lines.push(JSON.stringify({ id: entry.id, result: computeStatsCase(entry) }));
    } catch (error) {
      ok = false;
      lines.push(JSON.stringify({ id, error: (error as Error).message }));
    }
  });
  return { lines, ok };
}

function main(argv: readonly string[]): number {
  const file = argv[0];
  if (file === undefined || argv.length > 1) {
    process.stderr.write('Usage: npm run stats -- FILE   (FILE: a JSON array of statistics cases)\n');
    return 2;
  }
  // npm runs root scripts from the repository root; INIT_CWD is where the command was typed.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    process.stderr.write(`Cannot read ${path}: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const { lines, ok } = runStatsCases(text);
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    return ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
}

if (
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)
) {
  process.exitCode = main(process.argv.slice(2));
}
