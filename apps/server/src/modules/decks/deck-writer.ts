/**
 * The slide decks of the analytics screens, in the house style of chart_ppt.pptx (statistics
 * generator): a title slide naming the analysis, its date and its filters, then one slide per chart
 * with a native, editable PowerPoint bar chart, the filters, bases and test in words, and the base n
 * of every bar in the slide's notes. Marks and low bases read in the bar's name (as the screen writes
 * them, "▲ 95%", "low base") and in its colour, which the footer explains; a chart never draws a bar
 * for a value the screen shows as "-": those are named in the footer instead.
 */
import { DECK_BARS_PER_SLIDE, LOW_BASE } from '@accord/contracts';
import PptxGenJS from 'pptxgenjs';
import { reportDate } from '../../lib/report-workbook.ts';

/** A line in words: "Filters: Region: Europe; Gender: Female". */
export interface DeckLine {
  label: string;
  value: string;
}

/** One bar: what it names, its value as the screen shows it, its base and its mark. */
export interface DeckBar {
  label: string;
  value: number | null;
  /** Base n; null where the screen shows none (a count of fragrances). */
  n: number | null;
  lowBase: boolean;
  /** A significance mark: its words ("▲ 95%") and whether it is good or bad news (METRICS.md 2). */
  mark: { text: string; tone: 'good' | 'bad' } | null;
}

/**
 * How a chart's values read: whole percents, percents to 1 decimal, means (2 decimals), variances
 * (3 decimals) or counts.
 */
export type DeckUnit = 'percent' | 'percent1' | 'mean' | 'decimal3' | 'count';

export interface DeckChart {
  title: string;
  unit: DeckUnit;
  bars: DeckBar[];
  /** The slide's words under the heading: filters, test, what the bars are. */
  lines: DeckLine[];
  /** More footnotes (a legend of marks, a CATA note). */
  notes?: string[];
}

export interface DeckSpec {
  /** The analysis, as the title slide names it. */
  title: string;
  /** What the deck shows, under the title. */
  subtitle: string;
  author: string;
  date: Date;
  /** The title slide's lines: filters, selection, metrics. */
  lines: DeckLine[];
  charts: DeckChart[];
}

const TEXT = { fontFace: 'Calibri', color: '222222' } as const;
/** The product's colour; marks and low bases as the screens colour them. */
export const BAR_COLOURS = {
  plain: '7D4AA8',
  good: '2F855A',
  bad: 'C53030',
  lowBase: 'E8A15B',
} as const;

/** Height (inches) of a chart of a full slide of bars. */
const CHART_HEIGHT = 4.75;

const FORMAT: Record<DeckUnit, string> = {
  percent: '0"%"',
  percent1: '0.0"%"',
  mean: '0.00',
  decimal3: '0.000',
  count: '0',
};

/** A bar's category name: its label, its mark and its base ("Rose 12 ▲ 95% (n = 120)"). */
export function barName(bar: DeckBar): string {
  const base = bar.n === null ? '' : bar.lowBase ? ` (n = ${bar.n}, low base)` : ` (n = ${bar.n})`;
  return `${bar.label}${bar.mark ? ` ${bar.mark.text}` : ''}${base}`;
}

function barColour(bar: DeckBar): string {
  if (bar.mark) return BAR_COLOURS[bar.mark.tone];
  return bar.lowBase ? BAR_COLOURS.lowBase : BAR_COLOURS.plain;
}

const valueText = (unit: DeckUnit, value: number) =>
  unit === 'percent'
    ? `${value}%`
    : unit === 'percent1'
      ? `${value.toFixed(1)}%`
      : unit === 'mean'
        ? value.toFixed(2)
        : unit === 'decimal3'
          ? value.toFixed(3)
          : String(value);

/** The footer of a chart slide: bases, colours and what has no bar. */
function footer(chart: DeckChart, shown: readonly DeckBar[], missing: readonly DeckBar[]): string[] {
  const bases = shown.map((bar) => bar.n).filter((n): n is number => n !== null);
  const lines: string[] = [];
  if (bases.length > 0) {
    const low = Math.min(...bases);
    const high = Math.max(...bases);
    lines.push(
      `Base n: ${low === high ? low : `${low} to ${high}`} answers per bar, in each bar's name; below ${LOW_BASE} marked "low base"${shown.some((bar) => bar.lowBase && !bar.mark) ? ' (orange bar)' : ''}.`,
    );
  }
  if (shown.some((bar) => bar.mark))
    lines.push(
      'Green bar: a significant difference that is good news, red bar: bad news (a higher bottom box is bad news); ▲ higher, ▼ lower, level in the name.',
    );
  if (missing.length > 0)
    lines.push(
      `No value, so no bar (shown as "-" on screen): ${missing.map((bar) => bar.label).join(', ')}.`,
    );
  return [...lines, ...(chart.notes ?? [])];
}

function addTitleSlide(pptx: PptxGenJS, spec: DeckSpec): void {
  const slide = pptx.addSlide();
  slide.addText(spec.title, {
    ...TEXT,
    x: 0.6,
    y: 1.4,
    w: 12.1,
    h: 1.1,
    fontSize: 32,
    bold: true,
    fit: 'shrink',
  });
  slide.addText(`${spec.subtitle}. ${reportDate(spec.date)}`, {
    ...TEXT,
    x: 0.6,
    y: 2.5,
    w: 12.1,
    h: 0.5,
    fontSize: 18,
    color: '555555',
  });
  slide.addText(
    [
      ...spec.lines.map((line) => ({
        text: `${line.label}: ${line.value}`,
        options: { breakLine: true },
      })),
      { text: `Prepared by ${spec.author}`, options: { color: '555555' } },
    ],
    { ...TEXT, x: 0.6, y: 3.3, w: 12.1, h: 3.6, fontSize: 14, valign: 'top', paraSpaceAfter: 6 },
  );
}

function addChartSlide(
  pptx: PptxGenJS,
  chart: DeckChart,
  bars: readonly DeckBar[],
  missing: readonly DeckBar[],
  part: string,
): void {
  const slide = pptx.addSlide();
  slide.addText(`${chart.title}${part}`, {
    ...TEXT,
    x: 0.4,
    y: 0.2,
    w: 12.5,
    h: 0.7,
    fontSize: 20,
    bold: true,
    fit: 'shrink',
    valign: 'middle',
  });
  slide.addText(
    chart.lines.map((line) => ({ text: `${line.label}: ${line.value}`, options: { breakLine: true } })),
    {
      ...TEXT,
      x: 0.4,
      y: 0.9,
      w: 12.5,
      h: 0.75,
      fontSize: 11,
      color: '444444',
      valign: 'top',
      fit: 'shrink',
    },
  );
  const values = bars.map((bar) => bar.value as number);
  const colours = bars.map(barColour);
  // A few bars keep a bar's thickness rather than filling the slide, with room for a name over two lines.
  const height = Math.min(CHART_HEIGHT, 0.55 + bars.length * 0.42);
  slide.addChart(pptx.ChartType.bar, [{ name: chart.title, labels: bars.map(barName), values }], {
    x: 0.3,
    y: 1.65,
    w: 12.7,
    h: height,
    barDir: 'bar',
    barGapWidthPct: 50,
    // One colour per bar only when they differ (pptxgenjs writes a colour per point then).
    chartColors: new Set(colours).size > 1 ? colours : [colours[0] ?? BAR_COLOURS.plain],
    // The first bar at the top, as the screen lists it (pptxgenjs writes the value as given; its
    // types know only minMax).
    catAxisOrientation: 'maxMin' as 'minMax',
    catAxisLabelFontSize: bars.length > 15 ? 9 : 11,
    catAxisLabelFontFace: 'Calibri',
    showLegend: false,
    showValue: true,
    dataLabelFormatCode: FORMAT[chart.unit],
    dataLabelFontSize: 9,
    dataLabelColor: '1A1A1A',
    dataLabelPosition: 'outEnd',
    valAxisMinVal: 0,
    ...(chart.unit === 'percent' || chart.unit === 'percent1' ? { valAxisMaxVal: 100 } : {}),
    ...(chart.unit === 'mean' ? { valAxisMaxVal: 5 } : {}),
    valAxisLabelFormatCode: chart.unit === 'percent1' ? FORMAT.percent : FORMAT[chart.unit],
    valAxisLabelFontSize: 9,
  });
  slide.addText(footer(chart, bars, missing).join('\n'), {
    ...TEXT,
    x: 0.4,
    y: 1.7 + height,
    w: 12.5,
    h: 0.9,
    fontSize: 9,
    color: '555555',
    valign: 'top',
    fit: 'shrink',
  });
  slide.addNotes(
    bars
      .map(
        (bar) =>
          `${bar.label}: ${valueText(chart.unit, bar.value as number)}${bar.mark ? ` ${bar.mark.text}` : ''}${bar.n === null ? '' : `, base n = ${bar.n}${bar.lowBase ? ' (low base)' : ''}`}`,
      )
      .join('\n'),
  );
}

/** A chart with nothing to draw says so on its slide rather than showing an empty axis. */
function addEmptySlide(pptx: PptxGenJS, chart: DeckChart): void {
  const slide = pptx.addSlide();
  slide.addText(chart.title, { ...TEXT, x: 0.4, y: 0.2, w: 12.5, h: 0.7, fontSize: 20, bold: true });
  slide.addText(
    [
      ...chart.lines.map((line) => `${line.label}: ${line.value}`),
      '',
      'No values to chart under these filters.',
    ].join('\n'),
    { ...TEXT, x: 0.4, y: 1.0, w: 12.5, h: 3, fontSize: 13, valign: 'top' },
  );
}

/** The deck's bytes: the title slide, then each chart over as many slides as its bars need. */
export async function deckBytes(spec: DeckSpec): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = spec.title;
  pptx.author = spec.author;
  pptx.company = 'Accord';
  addTitleSlide(pptx, spec);
  for (const chart of spec.charts) {
    const shown = chart.bars.filter((bar) => bar.value !== null && Number.isFinite(bar.value));
    const missing = chart.bars.filter((bar) => !shown.includes(bar));
    if (shown.length === 0) {
      addEmptySlide(pptx, chart);
      continue;
    }
    const parts = Math.ceil(shown.length / DECK_BARS_PER_SLIDE);
    for (let index = 0; index < parts; index++) {
      const from = index * DECK_BARS_PER_SLIDE;
      const bars = shown.slice(from, from + DECK_BARS_PER_SLIDE);
      const part = parts > 1 ? ` (${from + 1}-${from + bars.length} of ${shown.length})` : '';
      addChartSlide(pptx, chart, bars, index === parts - 1 ? missing : [], part);
    }
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
