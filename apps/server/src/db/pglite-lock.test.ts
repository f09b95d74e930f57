import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockFileOf, lockPgliteDir, pgliteHolder } from './pglite-lock.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'accord-lock-'));
const dataDir = path.join(root, 'db');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The start time /proc gives a process, as the lock file keeps it. */
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe('the embedded database folder lock', () => {
  it('is taken by one process, written beside the folder and released on close', () => {
    const release = lockPgliteDir(dataDir);
    expect(lockFileOf(dataDir)).toBe(path.join(root, 'db.pid'));
    expect(readFileSync(lockFileOf(dataDir), 'utf8').split(' ')[0]).toBe(String(process.pid));
    // The holder may reopen its own folder.
    expect(pgliteHolder(dataDir)).toBeNull();
    release();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
  });

  it('refuses a folder held by another live process', () => {
    writeFileSync(lockFileOf(dataDir), `${process.ppid} ${startOf(process.ppid)}\n`);
    expect(pgliteHolder(dataDir)).toBe(process.ppid);
    expect(() => lockPgliteDir(dataDir)).toThrow(`is open in process ${process.ppid}`);
  });

  it('takes over a file left by a process that ended, or whose id another process now has', () => {
    writeFileSync(lockFileOf(dataDir), '2147483646\n');
    expect(pgliteHolder(dataDir)).toBeNull();
    writeFileSync(lockFileOf(dataDir), `${process.ppid} 1\n`);
    expect(pgliteHolder(dataDir)).toBeNull();
    lockPgliteDir(dataDir)();
  });
});
