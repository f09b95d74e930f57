/**
 * The name an uploaded file is stored and shown under: the base name the client sent, without any
 * folder path (slashes or backslashes), control characters or direction overrides (which could make
 * "exe.pdf" read as "fdp.exe"), trimmed, and cut to 255 characters keeping the extension.
 */

/** Control characters (C0, DEL, C1) and the bidirectional formatting characters. */
const HIDDEN = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
export const MAX_FILE_NAME_LENGTH = 255;

export function displayFileName(raw: string, fallback = 'upload'): string {
  const base = raw.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base.replace(HIDDEN, '').trim();
  if (clean === '' || clean === '.' || clean === '..') return fallback;
  if (clean.length <= MAX_FILE_NAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return clean.slice(0, MAX_FILE_NAME_LENGTH - extension.length) + extension;
}

/** Whether a name holds characters displayFileName would remove. */
export function hasHiddenCharacters(name: string): boolean {
  return new RegExp(HIDDEN.source, 'u').test(name);
}
