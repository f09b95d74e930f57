import { DECK_BARS_PER_SLIDE } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import { readDeck } from '../../testing/pptx-deck.ts';
import { BAR_COLOURS, barName, deckBytes, type DeckBar, type DeckSpec } from './deck-writer.ts';

const bar = (index: number, extra: Partial<DeckBar> = {}): DeckBar => ({
  label: `Fragrance ${index}`,
  value: 50 + index,
  n: 40 + index,
  lowBase: false,
  mark: null,
  ...extra,
});

const spec = (bars: DeckBar[]): DeckSpec => ({
  title: 'Metric search: a test',
  subtitle: 'Every row',
  author: 'analyst@accord.test',
  date: new Date('2026-11-27T10:00:00Z'),
  lines: [{ label: 'Filters', value: 'Region: Europe' }],
  charts: [
    {
      title: 'T2B Overall Liking',
      unit: 'percent',
      bars,
      lines: [{ label: 'Filters', value: 'Region: Europe' }],
    },
  ],
});

describe('deckBytes', () => {
  it('continues a long chart on further slides, in order, and names bars without a value in the footer', async () => {
    const bars = Array.from({ length: DECK_BARS_PER_SLIDE + 3 }, (_, index) => bar(index));
    bars.splice(2, 0, bar(99, { value: null }));
    const slides = await readDeck(await deckBytes(spec(bars)));
    expect(slides).toHaveLength(3);
    expect(slides[0]!.text).toContain('Filters: Region: Europe');
    expect(slides[0]!.text).toContain('Prepared by analyst@accord.test');
    expect(slides[1]!.text.split('\n')[0]).toBe(
      `T2B Overall Liking (1-${DECK_BARS_PER_SLIDE} of ${DECK_BARS_PER_SLIDE + 3})`,
    );
    const drawn = slides.slice(1).flatMap((slide) => slide.charts[0]!.series[0]!.values);
    expect(drawn).toEqual(bars.filter((entry) => entry.value !== null).map((entry) => entry.value));
    expect(slides[2]!.text).toContain('No value, so no bar (shown as "-" on screen): Fragrance 99.');
    expect(slides[1]!.text).not.toContain('Fragrance 99');
  });

  it('names marks and low bases in the bar and colours them, and says so under the chart', async () => {
    const bars = [
      bar(1, { mark: { text: '▲ 95%', tone: 'good' } }),
      bar(2, { lowBase: true, n: 12 }),
      bar(3, { mark: { text: '▼ 99%', tone: 'bad' } }),
    ];
    const [, slide] = await readDeck(await deckBytes(spec(bars)));
    expect(slide!.charts[0]!.series[0]!.categories).toEqual(bars.map(barName));
    expect(barName(bars[1]!)).toBe('Fragrance 2 (n = 12, low base)');
    expect(barName(bars[0]!)).toBe('Fragrance 1 ▲ 95% (n = 41)');
    for (const colour of [BAR_COLOURS.good, BAR_COLOURS.lowBase, BAR_COLOURS.bad])
      expect(slide!.charts[0]!.xml).toContain(`<a:srgbClr val="${colour}"/>`);
    expect(slide!.text).toContain('Green bar: a significant difference that is good news, red bar: bad news');
    expect(slide!.text).toContain('below 30 marked "low base" (orange bar)');
    expect(slide!.notes).toContain('Fragrance 2: 52%, base n = 12 (low base)');
  });

  it('says there is nothing to chart rather than drawing an empty axis', async () => {
    const [, slide] = await readDeck(await deckBytes(spec([bar(1, { value: null })])));
    expect(slide!.charts).toHaveLength(0);
    expect(slide!.text).toContain('No values to chart under these filters.');
  });
});
