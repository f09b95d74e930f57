/**
 * Drivers of liking in a category (/drivers): for a base chosen as for norms and a liking metric, each
 * attribute's correlation with liking per study of the base, pooled across the studies on Fisher's z
 * (DerSimonian-Laird, Hartung-Knapp interval, prediction interval, I²), and the penalty analysis of the
 * strength (JAR) questions pooled across the studies. Every signed-in user; client and sales users only
 * for a base that meets the norms rule, and no answer names another client's study or product.
 */
import { z } from 'zod';
import { NORM_BASE_FIELDS, NORM_MESSAGES, NORM_RULE, NormBase, normYearsInOrder } from './norms.ts';

export const DRIVERS_FILE_NAME = 'drivers-of-liking.xlsx';
export const DRIVER_ANSWERS_FILE_NAME = 'driver-answers.csv';
export const DRIVERS_SLIDES_FILE_NAME = 'drivers-of-liking.pptx';

export const DRIVERS_MESSAGES = {
  withheld: `These drivers are withheld: their base holds fewer than ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients, so their numbers could point to a single study.`,
  empty: 'No study of this base has answers on both the liking metric and an attribute.',
  notLiking: (name: string) => `"${name}" is not a liking metric: choose a hedonic performance metric.`,
  otherClient: "Another client's study",
  staffOnly: `This base holds fewer than ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients: shown to staff, withheld from client and sales users.`,
  yearOrder: NORM_MESSAGES.yearOrder,
  notAttribute: (name: string) =>
    `"${name}" is not an attribute of these drivers: choose one of the attributes ranked on screen.`,
  otherClientAnswers:
    "The answers of other clients' studies are counted in every figure but left out of the download.",
} as const;

/** The columns of the driver answers download: one row per respondent and product of a study. */
export const DRIVER_ANSWERS_CSV_COLUMNS = ['study', 'respondent', 'product', 'liking', 'attribute'] as const;

/** Heterogeneity in words (METRICS.md section 5), from I². */
export const DRIVER_AGREEMENT_WORDS = {
  agree: 'The tests agree',
  some: 'The tests differ somewhat',
  differ: 'The tests differ: the pooled figure hides real differences between tests',
} as const;

const likingField = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .default('liking')
  .meta({ description: 'The liking metric (a hedonic performance metric), default liking.' });

/** GET /drivers, /drivers/xlsx and /drivers/pptx. */
export const DriversQuery = z
  .strictObject({ ...NORM_BASE_FIELDS, liking: likingField })
  .refine(normYearsInOrder, { message: DRIVERS_MESSAGES.yearOrder, path: ['year_to'] });
export type DriversQuery = z.input<typeof DriversQuery>;
export type ParsedDriversQuery = z.output<typeof DriversQuery>;

/** A study behind a figure: named for staff and for the caller's own client, anonymous otherwise. */
export const DriverStudy = z.object({
  id: z.number().int().nullable().meta({ description: "Null for another client's study." }),
  label: z.string(),
});
export type DriverStudy = z.infer<typeof DriverStudy>;

const metricHead = z.object({ name: z.string(), label: z.string(), kind: z.string() });

/** One attribute: the pooled correlation with liking and the studies behind it. */
export const DriverAttribute = z.object({
  metric: metricHead,
  r: z.number().meta({ description: 'Pooled correlation, tanh of the random-effects z.' }),
  ci_low: z.number().nullable().meta({ description: 'Hartung-Knapp 95 % interval (null for one study).' }),
  ci_high: z.number().nullable(),
  pi_low: z.number().nullable().meta({ description: "Higgins' 95 % prediction interval (from 3 studies)." }),
  pi_high: z.number().nullable(),
  i2: z.number(),
  tau2: z.number(),
  q: z.number(),
  agreement: z.string().meta({ description: 'Heterogeneity in words.' }),
  studies: z.number().int(),
  respondents: z.number().int(),
  per_study: z.array(
    z.object({
      study: DriverStudy,
      r: z.number().meta({
        description:
          "The study's correlation: Pearson r per product over its respondents, averaged on Fisher's z with weights n − 3.",
      }),
      n: z.number().int().meta({ description: 'Respondents with both answers.' }),
      products: z.number().int(),
    }),
  ),
});
export type DriverAttribute = z.infer<typeof DriverAttribute>;

const penaltySide = z.object({
  share: z.number().meta({ description: 'Share of the respondents in the group, in [0, 1].' }),
  drop: z.number().nullable().meta({
    description: 'Mean liking of the just-right group minus that of the group, weighted by the group sizes.',
  }),
  penalty: z.number().nullable().meta({ description: 'share × drop.' }),
});

/** One strength (JAR) question: the penalty analysis pooled across the base's studies. */
export const DriverStrength = z.object({
  metric: metricHead,
  respondents: z.number().int().meta({ description: 'Answers with both a strength and a liking answer.' }),
  studies: z.number().int(),
  just_right: z.number().meta({ description: 'Share just right.' }),
  too_weak: penaltySide,
  too_strong: penaltySide,
  per_study: z.array(
    z.object({
      study: DriverStudy,
      n: z.number().int(),
      too_weak: penaltySide,
      too_strong: penaltySide,
    }),
  ),
});
export type DriverStrength = z.infer<typeof DriverStrength>;

export const DriversResponse = z
  .object({
    status: z.enum(['available', 'withheld', 'empty']),
    reason: z.string().nullable(),
    base: NormBase,
    liking: z.object({ name: z.string(), label: z.string() }),
    studies: z.number().int().nullable(),
    clients: z.number().int().nullable().meta({ description: 'How many clients; never which.' }),
    respondents: z.number().int().nullable(),
    attributes: z
      .array(DriverAttribute)
      .meta({ description: 'Ranked by pooled correlation, highest first.' }),
    strength: z.array(DriverStrength),
    method: z.array(z.string()).meta({ description: 'How the figures were computed, in words.' }),
  })
  .meta({ id: 'DriversResponse' });
export type DriversResponse = z.infer<typeof DriversResponse>;

/** GET /drivers/trace and /drivers/trace/answers.csv: one attribute of the drivers of a base. */
export const DriverTraceQuery = z
  .strictObject({
    ...NORM_BASE_FIELDS,
    liking: likingField,
    attribute: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ description: 'The attribute metric whose pooled correlation is traced.' }),
  })
  .refine(normYearsInOrder, { message: DRIVERS_MESSAGES.yearOrder, path: ['year_to'] });
export type DriverTraceQuery = z.input<typeof DriverTraceQuery>;
export type ParsedDriverTraceQuery = z.output<typeof DriverTraceQuery>;

/** The pooled figure of an attribute: as the drivers answer it, or as recomputed from the answers. */
const DriverFigure = z.object({
  r: z.number(),
  ci_low: z.number().nullable(),
  ci_high: z.number().nullable(),
  studies: z.number().int(),
  respondents: z.number().int(),
});

export const DriverTraceResponse = z
  .object({
    base: NormBase,
    liking: z.object({ name: z.string(), label: z.string() }),
    attribute: metricHead,
    shown: DriverFigure.meta({ description: 'The figure of the drivers answer (the screen).' }),
    recomputed: DriverFigure.extend({
      pi_low: z.number().nullable(),
      pi_high: z.number().nullable(),
      i2: z.number(),
      products: z.number().int().meta({ description: 'Products with paired answers.' }),
      pairs: z.number().int().meta({ description: 'Paired answers: a respondent, a product, both answers.' }),
    }).meta({ description: 'Recomputed here from the paired answers, study by study.' }),
    equal: z.boolean().meta({ description: 'The recomputed r equals the shown one (within 1e-9).' }),
    studies: z.array(
      z.object({
        study: DriverStudy,
        r: z.number(),
        respondents: z.number().int(),
        products: z.array(
          z.object({
            label: z
              .string()
              .meta({ description: 'The product code; "Product k" in another client\'s study.' }),
            r: z
              .number()
              .nullable()
              .meta({ description: 'Pearson r over its respondents (null: constant).' }),
            n: z.number().int(),
          }),
        ),
      }),
    ),
    method: z.array(z.string()),
    can_download: z.boolean(),
    download_note: z.string().nullable(),
  })
  .meta({ id: 'DriverTraceResponse' });
export type DriverTraceResponse = z.infer<typeof DriverTraceResponse>;
