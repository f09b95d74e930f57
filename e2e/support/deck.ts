/**
 * Reads a downloaded deck: per slide its text (one paragraph a line) and the series of its native
 * charts (name, categories, values), as the chart parts store them.
 */
import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';

export interface DeckSlide {
  text: string;
  charts: { categories: string[]; values: (number | null)[] }[];
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

function points(xml: string): string[] {
  const found: string[] = [];
  for (const match of xml.matchAll(/<c:pt idx="(\d+)">\s*<c:v>([^<]*)<\/c:v>/g))
    found[Number(match[1])] = unescape(match[2]!);
  return found;
}

export async function readDeckFile(path: string): Promise<DeckSlide[]> {
  const zip = await JSZip.loadAsync(await readFile(path));
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)![1]);
  const slides = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => number(a) - number(b));
  const read: DeckSlide[] = [];
  for (const name of slides) {
    const xml = await zip.file(name)!.async('string');
    const text = xml
      .split('</a:p>')
      .map((part) => [...part.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => unescape(m[1]!)).join(''))
      .filter(Boolean)
      .join('\n');
    const rels = (await zip.file(name.replace('slides/', 'slides/_rels/') + '.rels')?.async('string')) ?? '';
    const charts = [];
    for (const match of rels.matchAll(/Target="(?:\.\.|\/ppt)\/charts\/(chart\d+\.xml)"/g)) {
      const chart = await zip.file(`ppt/charts/${match[1]}`)!.async('string');
      const series = /<c:ser>([\s\S]*?)<\/c:ser>/.exec(chart)?.[1] ?? '';
      charts.push({
        categories: points(/<c:cat>([\s\S]*?)<\/c:cat>/.exec(series)?.[1] ?? ''),
        values: points(/<c:val>([\s\S]*?)<\/c:val>/.exec(series)?.[1] ?? '').map((value) =>
          value === '' ? null : Number(value),
        ),
      });
    }
    read.push({ text, charts });
  }
  return read;
}
