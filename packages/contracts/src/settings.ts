import { z } from 'zod';
import { TEXT_LIMITS } from './constants.ts';

/** The message of a help url that is not an http(s) address. */
export const HELP_URL_INVALID = 'The help url must be a web address (http:// or https://).';

export const HelpUrl = z
  .object({
    url: z
      .string()
      .trim()
      .max(TEXT_LIMITS.helpUrl)
      .refine((url) => url === '' || helpLinkHref(url) !== null, HELP_URL_INVALID)
      .meta({
        description:
          'Help view url (http or https; "https://" is assumed without a scheme); empty hides the Help link.',
      }),
  })
  .meta({ id: 'HelpUrl' });
export type HelpUrl = z.infer<typeof HelpUrl>;

/** A scheme other than a host's port ("localhost:8080" has none; "javascript:..." has one). */
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
/** An http(s) address: a host, an optional port, then an optional path, query or fragment. */
const WEB_ADDRESS = /^https?:\/\/[^\s/?#:@]+(:\d{1,5})?([/?#]\S*)?$/i;

/**
 * The Help link target: "https://" is prepended when the stored url lacks an http prefix. Null when
 * empty or not an http(s) address (a javascript: or data: url is never a link).
 */
export function helpLinkHref(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return null;
  const hasHttp = /^https?:\/\//i.test(trimmed);
  if (!hasHttp && OTHER_SCHEME.test(trimmed)) return null;
  const href = hasHttp ? trimmed : `https://${trimmed}`;
  return WEB_ADDRESS.test(href) ? href : null;
}
