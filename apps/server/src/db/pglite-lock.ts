/**
 * The embedded database is one process's folder: PGlite does not stop a second process from opening
 * it, and two processes writing it corrupt it. Whoever opens a folder writes its process id to a
 * file beside it (`DATA_DIR/db.pid` for `DATA_DIR/db`, outside the data, so a dump never carries
 * it) and removes it on close; a folder whose id names a live process is
 * refused (a second server, a seed, a backup or restore while the server runs). A file left by a
 * process that died is taken over, as is one whose id now belongs to another process (the file
 * keeps the holder's start time where the system tells it).
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

/**
 * When a process started (Linux: clock ticks since boot, /proc/PID/stat), so a process id reused
 * by another program after a restart (a container's) is not taken for the holder; null elsewhere.
 */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) is in parentheses and may hold spaces: count after its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
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
  const [pidText, started] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  if (!alive(pid)) return null;
  // The same id, but another process than the one that wrote the file.
  if (started && startOf(pid) !== null && startOf(pid) !== started) return null;
  return pid;
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
  writeFileSync(file, `${process.pid} ${startOf(process.pid) ?? ''}\n`.replace(' \n', '\n'));
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim().split(/\s+/)[0] === String(process.pid))
        rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
