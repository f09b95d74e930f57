/// <reference types="node" />
// The `npm run stats -- FILE` command: run as a real process on the SciPy reference file, every line
// must match the case's `expected` to a relative error below 1e-6; on the second reference file every
// line carries the case's expected keys and the values the reference test checks; edge cases print
// nulls, not NaN.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runStatsCases } from './cli.ts';
import { computeStatsCase, type StatsCase } from './reference-cases.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const referencePath = fileURLToPath(new URL('../reference/stats-cases.json', import.meta.url));
const secondReferencePath = fileURLToPath(new URL('../reference/stats-cases-2.json', import.meta.url));

interface OutputLine {
  id: unknown;
  result?: Record<string, number | number[] | null>;
  error?: string;
}

function runCommand(file: string): { status: number | null; lines: OutputLine[]; stderr: string } {
  const run = spawnSync('npm', ['run', '-s', 'stats', '--', file], { cwd: root, encoding: 'utf8' });
  const lines = run.stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as OutputLine);
  return { status: run.status, lines, stderr: run.stderr };
}

function expectClose(actual: unknown, expected: number, label: string): void {
  expect(typeof actual, `${label}: ${String(actual)} is not a number`).toBe('number');
  const value = actual as number;
  const allowed = expected === 0 ? 1e-12 : 1e-6 * Math.abs(expected);
  expect(Math.abs(value - expected), `${label}: got ${value}, expected ${expected}`).toBeLessThan(allowed);
}

function scratchFile(cases: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'accord-stats-')), 'cases.json');
  writeFileSync(path, JSON.stringify(cases));
  return path;
}

describe('npm run stats -- FILE', () => {
  it('prints one line per reference case whose result matches SciPy', () => {
    const cases = JSON.parse(readFileSync(referencePath, 'utf8')) as {
      id: string;
      expected: Record<string, number | number[]>;
    }[];
    const { status, lines } = runCommand(referencePath);
    expect(status).toBe(0);
    expect(lines.map((line) => line.id)).toEqual(cases.map((testCase) => testCase.id));
    cases.forEach((testCase, index) => {
      const result = lines[index]?.result ?? {};
      expect(Object.keys(result).sort()).toEqual(Object.keys(testCase.expected).sort());
      for (const [key, expected] of Object.entries(testCase.expected)) {
        if (Array.isArray(expected)) {
          const values = result[key] as number[];
          expect(values).toHaveLength(expected.length);
          expected.forEach((entry, at) => expectClose(values[at], entry, `${testCase.id}.${key}[${at}]`));
        } else expectClose(result[key], expected, `${testCase.id}.${key}`);
      }
    });
  }, 60_000);

  it('runs every case of the second reference file with its result keys', () => {
    const cases = JSON.parse(readFileSync(secondReferencePath, 'utf8')) as (StatsCase & {
      expected: Record<string, number | number[]>;
    })[];
    const { status, lines } = runCommand(secondReferencePath);
    expect(status).toBe(0);
    expect(lines.map((line) => line.id)).toEqual(cases.map((testCase) => testCase.id));
    cases.forEach((testCase, index) => {
      const result = lines[index]?.result ?? {};
      expect(Object.keys(result).sort()).toEqual(Object.keys(testCase.expected).sort());
      // The values are those reference.test.ts compares with SciPy and statsmodels.
      expect(result).toEqual(JSON.parse(JSON.stringify(computeStatsCase(testCase))));
    });
  }, 60_000);

  it('needs no expected values, and reports a malformed case without stopping the others', () => {
    const file = scratchFile([
      { id: 'bad', test: 'no_such_test' },
      { id: 'ok', test: 'two_proportion_z', k1: 30, n1: 50, k2: 20, n2: 50 },
    ]);
    const { status, lines } = runCommand(file);
    expect(status).toBe(1);
    expect(lines[0]).toEqual({ id: 'bad', error: 'bad: unknown test "no_such_test"' });
    expect(lines[1]?.id).toBe('ok');
    expectClose(lines[1]?.result?.statistic, 2, 'ok.statistic');
  }, 60_000);

  it('explains a missing or unreadable file', () => {
    const missing = runCommand('/nonexistent/cases.json');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('Cannot read /nonexistent/cases.json');
    const notArray = runCommand(scratchFile({ id: 'x' }));
    expect(notArray.status).toBe(2);
    expect(notArray.stderr).toContain('The file must hold a JSON array of cases');
    const usage = spawnSync('npm', ['run', '-s', 'stats'], { cwd: root, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run stats -- FILE');
  }, 60_000);
});

describe('edge cases through the case runner', () => {
  const run = (cases: unknown[]): OutputLine[] =>
    runStatsCases(JSON.stringify(cases)).lines.map((line) => JSON.parse(line) as OutputLine);

  it('gives nulls, never NaN, for an empty base and a single answer', () => {
    const [empty, single] = run([
      { id: 'empty', test: 'harmonized_boxes', values: [], scale_min: 1, scale_max: 9 },
      { id: 'single', test: 'harmonized_boxes', values: [9], scale_min: 1, scale_max: 9 },
    ]);
    expect(empty?.result).toEqual({
      n: 0,
      mean: null,
      variance: null,
      top_box: null,
      top_2_box: null,
      just_right: null,
      bottom_2_box: null,
      bottom_box: null,
    });
    expect(single?.result).toMatchObject({ n: 1, mean: 5, variance: null, top_box: 1, bottom_box: 0 });
  });

  it('reads null inputs as missing answers and drops them from the base', () => {
    const [boxes, welch] = run([
      { id: 'nan', test: 'harmonized_boxes', values: [1, null, 'NaN', 5], scale_min: 1, scale_max: 5 },
      { id: 'welch', test: 'welch_t', x: [1, 2, null, 3], y: [2, 3, 4] },
    ]);
    expect(boxes?.result).toMatchObject({ n: 2, mean: 3, top_box: 0.5, bottom_box: 0.5 });
    expectClose(welch?.result?.statistic, -1.224744871391589, 'welch.statistic');
  });

  it('has no statistic for zero variance with equal means, or all ties', () => {
    const [flat, ties, oneEach] = run([
      { id: 'flat', test: 'welch_t', x: [3, 3, 3], y: [3, 3] },
      { id: 'ties', test: 'mann_whitney', x: [2, 2, 2], y: [2, 2] },
      { id: 'one', test: 'student_t', x: [1], y: [2] },
    ]);
    expect(flat?.result).toEqual({ statistic: null, df: null, p_value: null });
    expect(ties?.result?.p_value).toBeNull();
    expect(oneEach?.result).toEqual({ statistic: null, df: null, p_value: null });
  });

  it('rejects a missing input with a message naming the case and field', () => {
    const [line] = run([{ id: 'no-y', test: 'pearson', x: [1, 2, 3] }]);
    expect(line).toEqual({ id: 'no-y', error: 'no-y: "y" is not a number array' });
  });
});
