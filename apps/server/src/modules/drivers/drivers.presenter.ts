/**
 * Drivers of liking as files in the house style: a report workbook (lib/report-workbook.ts) with the
 * attributes ranked by pooled correlation, the strength penalties and the studies behind every figure;
 * and slides (pptxgenjs, native charts as the statistics slides): a title slide, the ranked
 * correlations with their intervals, the strength penalties.
 */
import { NORM_RULE, type DriversResponse } from '@accord/contracts';
import PptxGenJS from 'pptxgenjs';
import {
  reportDate,
  type ReportColumn,
  type ReportHeader,
  type ReportRow,
  type ReportTable,
} from '../../lib/report-workbook.ts';

/** The columns the workbook's three tables share. */
const COLUMNS = {
  attribute: { header: 'Attribute', kind: 'text', width: 28 },
  studies: { header: 'Studies', kind: 'count', width: 9 },
  respondents: { header: 'Respondents', kind: 'count', width: 13 },
} satisfies Record<string, ReportColumn>;

const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? '-' : `${low.toFixed(2)} to ${high.toFixed(2)}`;

/** The workbook of drivers with status "available". */
export function driversReport(
  drivers: DriversResponse,
  who: { author: string; date: Date },
): { header: ReportHeader; table: ReportTable } {
  const rows: ReportRow[] = drivers.attributes.map((attribute) => ({
    cells: [
      attribute.metric.label,
      attribute.r,
      interval(attribute.ci_low, attribute.ci_high),
      interval(attribute.pi_low, attribute.pi_high),
      { value: attribute.studies, kind: 'count' },
      { value: attribute.respondents, kind: 'count' },
      { value: attribute.i2, kind: 'share' },
      attribute.agreement,
    ],
  }));
  const strengthRows: ReportRow[] = drivers.strength.flatMap((entry) =>
    (['too_weak', 'too_strong'] as const).map((side, index) => ({
      cells: [
        index === 0 ? entry.metric.label : '',
        side === 'too_weak' ? 'Weak or too weak' : 'Strong or too strong',
        { value: entry[side].share, kind: 'share' },
        { value: entry[side].drop, kind: 'mean' },
        { value: entry[side].penalty, kind: 'decimal' },
        { value: entry.studies, kind: 'count' },
        { value: entry.respondents, kind: 'count' },
      ],
      groupStart: index === 0,
    })),
  );
  const studyRows: ReportRow[] = drivers.attributes.flatMap((attribute) =>
    attribute.per_study.map((study, index) => ({
      cells: [
        index === 0 ? attribute.metric.label : '',
        study.study.id === null ? study.study.label : `${study.study.label} (study ${study.study.id})`,
        { value: study.r, kind: 'decimal' },
        { value: study.n, kind: 'count' },
        { value: study.products, kind: 'count' },
      ],
      groupStart: index === 0,
    })),
  );
  return {
    header: {
      title: `Drivers of liking: ${drivers.liking.label}`,
      source: [
        { label: 'Base', value: drivers.base.description },
        { label: 'Liking', value: drivers.liking.label },
        {
          label: 'Privacy',
          value: `an anonymous aggregate of the library, shown to client and sales users when its base holds at least ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients; another client's study is never named`,
        },
      ],
      ...who,
      harmonised: true,
      notes: drivers.reason ? [drivers.reason] : [],
    },
    table: {
      columns: [
        COLUMNS.attribute,
        { header: 'Pooled r', kind: 'decimal', width: 11 },
        { header: '95 % interval', kind: 'text', width: 19 },
        { header: 'Prediction interval', kind: 'text', width: 19 },
        COLUMNS.studies,
        COLUMNS.respondents,
        { header: 'I²', kind: 'share', width: 8 },
        { header: 'Agreement', kind: 'text', width: 42 },
      ],
      rows,
      footnotes: drivers.method,
      more: [
        {
          title: 'Strength: penalty analysis pooled across the studies',
          columns: [
            { ...COLUMNS.attribute, header: 'Strength question' },
            { header: 'Group', kind: 'text', width: 20 },
            { header: 'Share', kind: 'share', width: 10 },
            { header: 'Mean drop', kind: 'mean', width: 11 },
            { header: 'Penalty', kind: 'decimal', width: 10 },
            COLUMNS.studies,
            { ...COLUMNS.respondents, header: 'Answers' },
          ],
          rows: strengthRows,
        },
        {
          title: 'The studies behind each correlation',
          columns: [
            COLUMNS.attribute,
            { header: 'Study', kind: 'text', width: 44 },
            { header: 'r', kind: 'decimal', width: 10 },
            COLUMNS.respondents,
            { header: 'Products', kind: 'count', width: 10 },
          ],
          rows: studyRows,
        },
      ],
    },
  };
}

const TEXT = { fontFace: 'Calibri', color: '222222' } as const;
const HEAD = { bold: true, fill: { color: 'E7ECF2' }, align: 'center' as const, valign: 'bottom' as const };
/** Rows of a slide's chart and table: the strongest first. */
const SLIDE_ROWS = 18;

/** A slide's title in the house style, shrunk to one line. */
function slideTitle(slide: PptxGenJS.Slide, text: string) {
  slide.addText(text, {
    ...TEXT,
    x: 0.4,
    y: 0.2,
    w: 12.5,
    h: 0.8,
    fontSize: 20,
    bold: true,
    fit: 'shrink',
    valign: 'middle',
  });
}

/** The slides of drivers with status "available". */
export async function driversSlides(
  drivers: DriversResponse,
  who: { author: string; date: Date },
): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = `Drivers of liking: ${drivers.base.description}`;
  pptx.author = who.author;
  pptx.company = 'Accord';

  const title = pptx.addSlide();
  title.addText(`Drivers of ${drivers.liking.label}`, {
    ...TEXT,
    x: 0.6,
    y: 1.6,
    w: 12.1,
    h: 1.1,
    fontSize: 34,
    bold: true,
    fit: 'shrink',
  });
  title.addText(`${drivers.base.description}. ${reportDate(who.date)}`, {
    ...TEXT,
    x: 0.6,
    y: 2.7,
    w: 12.1,
    h: 0.8,
    fontSize: 18,
    color: '555555',
    fit: 'shrink',
  });
  title.addText([...drivers.method, `Prepared by ${who.author}`].join('\n'), {
    ...TEXT,
    x: 0.6,
    y: 3.7,
    w: 12.1,
    h: 3.2,
    fontSize: 12,
    valign: 'top',
    paraSpaceAfter: 4,
  });

  const attributes = drivers.attributes.slice(0, SLIDE_ROWS);
  if (attributes.length > 0) {
    const slide = pptx.addSlide();
    slideTitle(slide, `What goes with ${drivers.liking.label}: pooled correlation across studies`);
    slide.addChart(
      pptx.ChartType.bar,
      [
        {
          name: 'Pooled r',
          labels: attributes.map((attribute) => attribute.metric.label),
          values: attributes.map((attribute) => Number(attribute.r.toFixed(3))),
        },
      ],
      {
        x: 0.3,
        y: 1.05,
        w: 6.6,
        h: 5.1,
        barDir: 'bar',
        barGapWidthPct: 50,
        chartColors: ['2F6DB5'],
        catAxisOrientation: 'maxMin' as 'minMax',
        catAxisLabelFontSize: 11,
        catAxisLabelFontFace: 'Calibri',
        showLegend: false,
        showValue: true,
        dataLabelFormatCode: '0.00',
        dataLabelFontSize: 9,
        valAxisMinVal: Math.min(0, ...attributes.map((attribute) => Math.floor(attribute.r * 10) / 10)),
        valAxisMaxVal: Math.min(
          1,
          Math.ceil(Math.max(...attributes.map((attribute) => attribute.r)) * 10 + 0.5) / 10,
        ),
        valAxisLabelFormatCode: '0.0',
        valAxisLabelFontSize: 9,
      },
    );
    slide.addTable(
      [
        [
          { text: 'Attribute', options: HEAD },
          { text: 'r', options: HEAD },
          { text: '95 % interval', options: HEAD },
          { text: 'Studies', options: HEAD },
          { text: 'Agreement', options: HEAD },
        ],
        ...attributes.map((attribute) => [
          { text: attribute.metric.label, options: { align: 'left' as const } },
          { text: attribute.r.toFixed(2), options: { align: 'right' as const } },
          { text: interval(attribute.ci_low, attribute.ci_high), options: { align: 'right' as const } },
          { text: String(attribute.studies), options: { align: 'right' as const } },
          { text: attribute.agreement.split(':')[0]!, options: { align: 'left' as const } },
        ]),
      ],
      {
        x: 7.0,
        y: 1.1,
        w: 6.0,
        fontFace: 'Calibri',
        fontSize: 9,
        margin: [2, 3, 2, 3],
        border: { type: 'solid', pt: 0.5, color: 'BFBFBF' },
        colW: [1.6, 0.45, 1.25, 0.8, 1.9],
        autoPage: false,
      },
    );
    const cut =
      drivers.attributes.length > attributes.length
        ? ` The ${attributes.length} strongest of ${drivers.attributes.length} attributes; the workbook lists them all.`
        : '';
    slide.addText(
      `${drivers.base.description}. Interval: Hartung-Knapp 95 %; agreement from I² across the studies.${cut}`,
      { ...TEXT, x: 0.4, y: 6.3, w: 12.5, h: 0.9, fontSize: 9, color: '555555', valign: 'top' },
    );
  }

  if (drivers.strength.length > 0) {
    const slide = pptx.addSlide();
    slideTitle(slide, 'Strength: what too weak or too strong costs in liking');
    const labels = drivers.strength.map((entry) => entry.metric.label);
    slide.addChart(
      pptx.ChartType.bar,
      [
        {
          name: 'Weak or too weak',
          labels,
          values: drivers.strength.map((entry) => Number((entry.too_weak.penalty ?? 0).toFixed(3))),
        },
        {
          name: 'Strong or too strong',
          labels,
          values: drivers.strength.map((entry) => Number((entry.too_strong.penalty ?? 0).toFixed(3))),
        },
      ],
      {
        x: 0.3,
        y: 1.05,
        w: 6.6,
        h: 4.6,
        barDir: 'bar',
        barGrouping: 'clustered',
        chartColors: ['7FA7D9', 'C0504D'],
        catAxisLabelFontSize: 11,
        showLegend: true,
        legendPos: 'b',
        legendFontSize: 10,
        showValue: true,
        dataLabelFormatCode: '0.000',
        dataLabelFontSize: 9,
        valAxisLabelFormatCode: '0.000',
        valAxisLabelFontSize: 9,
        showValAxisTitle: true,
        valAxisTitle: 'Penalty (share × mean drop)',
        valAxisTitleFontSize: 10,
      },
    );
    const percent = (share: number) => `${Math.round(share * 100)}%`;
    const drop = (value: number | null) => (value === null ? '-' : value.toFixed(2));
    slide.addTable(
      [
        [
          { text: 'Strength', options: HEAD },
          { text: 'Group', options: HEAD },
          { text: 'Share', options: HEAD },
          { text: 'Mean drop', options: HEAD },
          { text: 'Penalty', options: HEAD },
        ],
        ...drivers.strength.flatMap((entry) =>
          (['too_weak', 'too_strong'] as const).map((side) => [
            { text: side === 'too_weak' ? entry.metric.label : '', options: { align: 'left' as const } },
            {
              text: side === 'too_weak' ? 'Weak or too weak' : 'Strong or too strong',
              options: { align: 'left' as const },
            },
            { text: percent(entry[side].share), options: { align: 'right' as const } },
            { text: drop(entry[side].drop), options: { align: 'right' as const } },
            { text: drop(entry[side].penalty), options: { align: 'right' as const } },
          ]),
        ),
      ],
      {
        x: 7.0,
        y: 1.1,
        w: 6.0,
        fontFace: 'Calibri',
        fontSize: 10,
        margin: [2, 3, 2, 3],
        border: { type: 'solid', pt: 0.5, color: 'BFBFBF' },
        colW: [1.3, 1.7, 0.8, 1.1, 1.1],
        autoPage: false,
      },
    );
    slide.addText(
      `${drivers.base.description}. Mean drop: mean liking of the just-right answers minus that of the group, weighted by the group's size per product; penalty = share × drop.`,
      { ...TEXT, x: 0.4, y: 6.3, w: 12.5, h: 0.9, fontSize: 9, color: '555555', valign: 'top' },
    );
  }
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
