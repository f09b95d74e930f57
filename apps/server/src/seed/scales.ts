/**
 * Answer scales of the generated questionnaires, with the labels agencies print on them.
 */
import { EEG_SCALE, IMPLICIT_SCALE } from './latent-model.ts';

export interface ScaleLabel {
  name: string;
  value: number;
}

export interface Scale {
  key: string;
  min: number;
  max: number;
  labels: ScaleLabel[];
  /** Whether answers are whole numbers (EEG scores are continuous). */
  integer: boolean;
}

const labelled = (key: string, min: number, names: string[]): Scale => ({
  key,
  min,
  max: min + names.length - 1,
  labels: names.map((name, i) => ({ name, value: min + i })),
  integer: true,
});

const endpoints = (key: string, min: number, max: number, low: string, high: string): Scale => ({
  key,
  min,
  max,
  labels: Array.from({ length: max - min + 1 }, (_, i) => {
    const value = min + i;
    const name = value === min ? `${value} - ${low}` : value === max ? `${value} - ${high}` : String(value);
    return { name, value };
  }),
  integer: true,
});

export const SCALES = {
  hedonic9: labelled('hedonic9', 1, [
    'Dislike extremely',
    'Dislike very much',
    'Dislike moderately',
    'Dislike slightly',
    'Neither like nor dislike',
    'Like slightly',
    'Like moderately',
    'Like very much',
    'Like extremely',
  ]),
  hedonic7: labelled('hedonic7', 1, [
    'Dislike very much',
    'Dislike moderately',
    'Dislike slightly',
    'Neither like nor dislike',
    'Like slightly',
    'Like moderately',
    'Like very much',
  ]),
  hedonic5: labelled('hedonic5', 1, [
    'Dislike very much',
    'Dislike slightly',
    'Neither like nor dislike',
    'Like slightly',
    'Like very much',
  ]),
  hedonic0to10: endpoints('hedonic0to10', 0, 10, 'Dislike extremely', 'Like extremely'),
  purchase5: labelled('purchase5', 1, [
    'Definitely would not buy',
    'Probably would not buy',
    'Might or might not buy',
    'Probably would buy',
    'Definitely would buy',
  ]),
  jar5: labelled('jar5', 1, [
    'Much too weak',
    'Slightly too weak',
    'Just about right',
    'Slightly too strong',
    'Much too strong',
  ]),
  agree5: labelled('agree5', 1, [
    'Disagree strongly',
    'Disagree slightly',
    'Neither agree nor disagree',
    'Agree slightly',
    'Agree strongly',
  ]),
  agree7: labelled('agree7', 1, [
    'Disagree completely',
    'Disagree moderately',
    'Disagree slightly',
    'Neither agree nor disagree',
    'Agree slightly',
    'Agree moderately',
    'Agree completely',
  ]),
  binary01: labelled('binary01', 0, ['Not selected', 'Selected']),
  binary12: labelled('binary12', 1, ['Not selected', 'Selected']),
  suitability5: labelled('suitability5', 1, [
    'Not at all suitable',
    'Not very suitable',
    'Somewhat suitable',
    'Very suitable',
    'Extremely suitable',
  ]),
  recommend0to10: endpoints('recommend0to10', 0, 10, 'Not at all likely', 'Extremely likely'),
  intensity1to10: endpoints('intensity1to10', 1, 10, 'Very weak', 'Very strong'),
  occasion4: labelled('occasion4', 1, ['Morning', 'Daytime', 'Evening', 'Night']),
  implicit: labelled('implicit', IMPLICIT_SCALE.min, ['No (fast)', 'No', 'Yes', 'Yes (fast)']),
  eeg: {
    key: 'eeg',
    min: EEG_SCALE.min,
    max: EEG_SCALE.max,
    labels: [
      { name: 'Low', value: EEG_SCALE.min },
      { name: 'High', value: EEG_SCALE.max },
    ],
    integer: false,
  },
} satisfies Record<string, Scale>;

export type ScaleKey = keyof typeof SCALES;

/** Liking scales in the order of RegionProfile.hedonicScales weights. */
export const HEDONIC_SCALE_KEYS = [
  'hedonic9',
  'hedonic7',
  'hedonic5',
  'hedonic0to10',
] as const satisfies readonly ScaleKey[];
