import { z } from 'zod';
import { TEXT_LIMITS } from './constants.ts';

export const HelpUrl = z
  .object({
    url: z
      .string()
      .trim()
      .max(TEXT_LIMITS.helpUrl)
      .meta({ description: 'Help view url; empty hides the Help link.' }),
  })
  .meta({ id: 'HelpUrl' });
export type HelpUrl = z.infer<typeof HelpUrl>;

/** The Help link target: "https://" is prepended when the stored url lacks an http prefix. */
export function helpLinkHref(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return null;
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}
