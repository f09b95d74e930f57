import { SUPPORTED_BROWSER_MINIMUMS } from './constants.ts';

export interface BrowserInfo {
  name: keyof typeof SUPPORTED_BROWSER_MINIMUMS | 'other';
  version: number;
}

/** Reads the browser and its major.minor version from a user-agent string. */
export function detectBrowser(userAgent: string): BrowserInfo {
  const match = (re: RegExp) => {
    const m = re.exec(userAgent);
    return m?.[1] ? Number.parseFloat(m[1]) : null;
  };
  const edge = match(/Edge?\/(\d+(?:\.\d+)?)/);
  if (edge !== null) return { name: 'edge', version: edge };
  const opera = match(/OPR\/(\d+(?:\.\d+)?)/) ?? match(/Opera\/(\d+(?:\.\d+)?)/);
  if (opera !== null) return { name: 'opera', version: opera };
  const firefox = match(/Firefox\/(\d+(?:\.\d+)?)/);
  if (firefox !== null) return { name: 'firefox', version: firefox };
  const chrome = match(/(?:Chrome|Chromium|CriOS)\/(\d+(?:\.\d+)?)/);
  if (chrome !== null) return { name: 'chrome', version: chrome };
  const ie =
    match(/MSIE (\d+(?:\.\d+)?)/) ??
    (/Trident\/.*rv:(\d+)/.test(userAgent) ? match(/rv:(\d+(?:\.\d+)?)/) : null);
  if (ie !== null) return { name: 'ie', version: ie };
  const safari = /Safari\//.test(userAgent) ? match(/Version\/(\d+(?:\.\d+)?)/) : null;
  if (safari !== null) return { name: 'safari', version: safari };
  return { name: 'other', version: 0 };
}

/** Whether a browser is below the supported minimum (document 1 section 4: must be above it). */
export function isUnsupportedBrowser(userAgent: string): boolean {
  const { name, version } = detectBrowser(userAgent);
  if (name === 'other') return false;
  // Only Safari's minimum has a minor part; elsewhere the part after the dot is a build number.
  const compared = name === 'safari' ? version : Math.floor(version);
  return compared <= SUPPORTED_BROWSER_MINIMUMS[name];
}
