/**
 * The embedded database is one process's folder: PGlite does not stop a second process from opening
 * it, and two processes writing it corrupt it. Whoever opens a folder writes its process id to a
 * file beside it (`DATA_DIR/db.pid` for `DATA_DIR/db`, outside the data, so a dump never carries
 * it) and removes it on close; a folder whose id names a live process is
 * refused (a second server, a seed, a backup or restore while the server runs). A file left by a
 * process that died is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The lock file of a data folder. */
export const lockFileOf = (dataDir: string) =>
  path.join(path.dirname(path.resolve(dataDir)), `${path.basename(path.resolve(dataDir))}.pid`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process holding the folder, or null when none (or this one) does. */
export function pgliteHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(lockFileOf(dataDir), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  return alive(pid) ? pid : null;
}

/** Takes the folder for this process; answers the release. Throws when a live process holds it. */
export function lockPgliteDir(dataDir: string): () => void {
  const holder = pgliteHolder(dataDir);
  if (holder !== null)
    throw new Error(
      `The embedded database in ${dataDir} is open in process ${holder} (the Accord server?). ` +
        'Stop that process first: the embedded database serves one process at a time.',
    );
  const file = lockFileOf(dataDir);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
