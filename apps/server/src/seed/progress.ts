/**
 * A text progress bar for long seeds: redrawn in place on a terminal, a line every 10 % (and at each
 * finishing phase) when the output is a log file or a pipe.
 */
import type { SeedPhase } from './library.ts';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const PHASE_TEXT: Record<SeedPhase, string> = {
  loading: 'loading studies',
  statistics: 'computing product statistics',
  indexes: 'building answer indexes',
  analyze: 'analyzing tables',
  done: 'done',
};

export function formatDuration(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** Returns an onProgress callback that draws `label [#####.....] 40% 80/200 loading studies 12.3 s`. */
export function createProgressBar(
  output: ProgressOutput = process.stdout,
  label = 'Seeding',
  width = 30,
): (done: number, total: number, phase: SeedPhase) => void {
  const started = performance.now();
  let lastDecile = -1;
  let lastPhase: SeedPhase | undefined;
  return (done, total, phase) => {
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * width);
    const line =
      `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ` +
      `${done}/${total} studies, ${PHASE_TEXT[phase]}, ${formatDuration(performance.now() - started)}`;
    if (output.isTTY) {
      // \x1b[2K clears the line so a shorter text leaves no tail behind.
      output.write(`\r\x1b[2K${line}${phase === 'done' ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(ratio * 10);
    if (decile !== lastDecile || phase !== lastPhase) output.write(`${line}\n`);
    lastDecile = decile;
    lastPhase = phase;
  };
}
