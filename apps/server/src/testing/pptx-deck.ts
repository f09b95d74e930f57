/**
 * A deck read back from its bytes, slide by slide: the text of the slide, its notes and its native
 * charts (each series' name, categories and values as the chart part stores them), for tests that
 * check a download says and draws what the screen shows.
 */
import JSZip from 'jszip';

export interface DeckChartRead {
  series: { name: string; categories: string[]; values: (number | null)[] }[];
  xml: string;
}

export interface DeckSlideRead {
  text: string;
  notes: string;
  charts: DeckChartRead[];
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The texts of a part's runs, one paragraph a line. */
function textOf(xml: string): string {
  return xml
    .split(/<\/a:p>/)
    .map((paragraph) => [...paragraph.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => unescape(m[1]!)).join(''))
    .filter((line) => line.length > 0)
    .join('\n');
}

function points(xml: string): string[] {
  const found: string[] = [];
  for (const match of xml.matchAll(/<c:pt idx="(\d+)">\s*<c:v>([^<]*)<\/c:v>/g))
    found[Number(match[1])] = unescape(match[2]!);
  return found;
}

function chartOf(xml: string): DeckChartRead {
  const series = [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((match) => {
    const body = match[1]!;
    const name = points(/<c:tx>([\s\S]*?)<\/c:tx>/.exec(body)?.[1] ?? '')[0] ?? '';
    const categories = points(/<c:cat>([\s\S]*?)<\/c:cat>/.exec(body)?.[1] ?? '');
    const values = points(/<c:val>([\s\S]*?)<\/c:val>/.exec(body)?.[1] ?? '').map((value) =>
      value === '' || value === undefined ? null : Number(value),
    );
    return { name, categories, values };
  });
  return { series, xml };
}

/** The slides of a pptx in order, with their text, notes and charts. */
export async function readDeck(bytes: Uint8Array | Buffer): Promise<DeckSlideRead[]> {
  const zip = await JSZip.loadAsync(bytes);
  const slideNames = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  const slides: DeckSlideRead[] = [];
  for (const name of slideNames) {
    const xml = await zip.file(name)!.async('string');
    const relsName = name.replace('slides/', 'slides/_rels/').replace(/\.xml$/, '.xml.rels');
    const rels = (await zip.file(relsName)?.async('string')) ?? '';
    const targets = (kind: string) =>
      [...rels.matchAll(/<Relationship [^>]*>/g)]
        .map((match) => match[0])
        .filter((rel) => rel.includes(`/relationships/${kind}"`))
        .map((rel) => /Target="([^"]+)"/.exec(rel)![1]!)
        .map((target) => new URL(target, `file:///${name}`).pathname.slice(1));
    const charts: DeckChartRead[] = [];
    for (const target of targets('chart')) charts.push(chartOf(await zip.file(target)!.async('string')));
    let notes = '';
    for (const target of targets('notesSlide')) notes += textOf(await zip.file(target)!.async('string'));
    slides.push({ text: textOf(xml), notes, charts });
  }
  return slides;
}
