import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { OUTBOX_DIR } from './env.ts';

/** Undoes quoted-printable soft line breaks and escapes, which mail encoders add to long lines. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The password reset link of the newest mail to this address in the server's outbox folder. */
export async function newestResetLink(to: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const names = await readdir(OUTBOX_DIR).catch(() => [] as string[]);
        const files = await Promise.all(
          names
            .filter((name) => name.endsWith('.eml'))
            .map(async (name) => ({ name, time: (await stat(path.join(OUTBOX_DIR, name))).mtimeMs })),
        );
        files.sort((a, b) => b.time - a.time);
        for (const file of files) {
          const text = decodeQuotedPrintable(await readFile(path.join(OUTBOX_DIR, file.name), 'utf8'));
          if (!text.toLowerCase().includes(to.toLowerCase())) continue;
          const match = /https?:\/\/[^\s"<>]+\/login\/reset\/[A-Za-z0-9_\-.~%]+/.exec(text);
          if (match) {
            link = match[0];
            return true;
          }
        }
        return false;
      },
      { message: `a reset mail to ${to} in ${OUTBOX_DIR}`, timeout: 10_000 },
    )
    .toBe(true);
  if (!link) throw new Error(`No reset link in the mail to ${to}`);
  return link;
}
