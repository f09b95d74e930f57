import {
  agreementOf,
  FRAGRANCE_MESSAGES,
  type FragranceGroup,
  type FragrancePooled,
  type FragrancePoolingGroup,
  type FragranceResponse,
  type FragranceTestMetric,
} from '@accord/contracts';

const MISSING = '-';

/** The main metrics' names on screen. */
export const METRIC_LABELS: Record<FragranceTestMetric, string> = {
  liking: 'Liking',
  purchase_intention: 'Purchase intention',
  strength: 'Strength',
};

/** A mean on the 5-point scale, 2 decimals. */
export function formatMean(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? MISSING : value.toFixed(2);
}

/** A share as a rounded percentage. */
export function formatShare(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? MISSING
    : `${Math.round(value * 100)}%`;
}

/** An interval of the pooled estimate, e.g. "3.41 to 3.78". */
export function formatInterval(low: number | null, high: number | null): string {
  if (low === null || high === null) return MISSING;
  return `${formatMean(low)} to ${formatMean(high)}`;
}

/** A category and methodology in words, e.g. "Fabric Care · Home use". */
export function groupLabel(group: FragrancePoolingGroup): string {
  return `${group.category ?? 'No category'} · ${group.methodology ?? 'No methodology'}`;
}

/** The pooled intervals of a metric: the one shown (HKSJ), the prediction interval and the normal one. */
export function intervalsOf(pooled: FragrancePooled): { hksj: string; prediction: string; normal: string } {
  return {
    hksj: formatInterval(pooled.hk_ci_low, pooled.hk_ci_high),
    prediction:
      pooled.pi_low === null || pooled.pi_high === null
        ? 'needs 3 studies'
        : formatInterval(pooled.pi_low, pooled.pi_high),
    normal: formatInterval(pooled.ci_low, pooled.ci_high),
  };
}

/** What I² says to a user: a short verdict, its colour and a sentence. */
export function agreementWords(
  i2: number | null,
): { verdict: string; color: string; sentence: string } | null {
  switch (agreementOf(i2)) {
    case 'agree':
      return {
        verdict: 'Tests agree',
        color: 'teal',
        sentence:
          'The studies differ no more than sampling alone would make them: the pooled score stands for all.',
      };
    case 'some':
      return {
        verdict: 'Tests differ somewhat',
        color: 'yellow',
        sentence:
          'Part of the spread between studies is real (market, panel, year): read the pooled score with its interval.',
      };
    case 'differ':
      return {
        verdict: 'Tests differ',
        color: 'orange',
        sentence:
          'Most of the spread between studies is real: the fragrance scores differently by market or year, so compare the tests rather than rely on the pooled score.',
      };
    default:
      return null;
  }
}

/** The number of studies the pooled estimates count, and whether there is anything to pool. */
export function poolingState(data: FragranceResponse): { studies: number; message: string | null } {
  const studies = new Set(data.tests.filter((test) => test.pooled).map((test) => test.study_id)).size;
  if (studies >= 2) return { studies, message: null };
  if (studies === 1 && data.pooling_groups.length > 1)
    return { studies, message: 'One study of this category and methodology: there is nothing to pool.' };
  if (studies === 1) return { studies, message: FRAGRANCE_MESSAGES.singleTest };
  return { studies, message: 'No verified study tested this fragrance: there is nothing to pool.' };
}

/** Which verified tests the page pools, in words (the pool the analyst chose, METRICS.md 5). */
export function poolSentence(data: FragranceResponse): string | null {
  const group = data.pooling_group;
  if (!group) return null;
  const { studies } = poolingState(data);
  const count = `${studies} ${studies === 1 ? 'study' : 'studies'}`;
  if (data.pool === 'all')
    return `Pooled: every verified test, of every category and methodology (${count}).`;
  if (data.pool === 'category')
    return `Pooled: the verified tests of every methodology of ${group.category ?? 'No category'} (${count}). Tests of another category are listed below, not pooled.`;
  return `Pooled: the verified tests of one category and methodology, ${groupLabel(group)} (${count}). Tests of another category or methodology are listed below, not pooled.`;
}

/** The first and last year of the tests, e.g. "2016-2024" or "2021". */
export function yearSpan(data: FragranceResponse): string {
  const years = data.tests.map((test) => test.year);
  if (years.length === 0) return MISSING;
  const first = Math.min(...years);
  const last = Math.max(...years);
  return first === last ? String(first) : `${first}-${last}`;
}

/** The chart points of a metric's mean over groups (markets, years): null where no answers. */
export function groupMeans(
  groups: readonly FragranceGroup[],
  metric: FragranceTestMetric,
): (number | null)[] {
  return groups.map((group) => {
    const mean = group.scores[metric]?.mean;
    return mean === undefined || mean === null ? null : Math.round(mean * 100) / 100;
  });
}
