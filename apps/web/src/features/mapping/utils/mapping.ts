import {
  MAPPING_CATEGORICAL_PREVIEW,
  MAPPING_PAGE_SIZE,
  type MappingQuestion,
  type MetricOption,
  type QuestionDomain,
  type SuggestionDetail,
} from '@accord/contracts';

/** The numeric range of a scale: "1 to 9". */
export function formatRange(domain: QuestionDomain): string {
  const format = (value: number | null) => (value === null ? '?' : String(value));
  return `${format(domain.min)} to ${format(domain.max)}`;
}

/** Value names of a categorical domain in sorted order (numbers in numeric order). */
export function sortedValueNames(domain: QuestionDomain): string[] {
  return domain.values
    .map((value) => value.name)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }));
}

/** The first names of a categorical domain and whether more follow ('...'). */
export function valuePreview(names: string[]): { shown: string[]; more: boolean } {
  return {
    shown: names.slice(0, MAPPING_CATEGORICAL_PREVIEW),
    more: names.length > MAPPING_CATEGORICAL_PREVIEW,
  };
}

/** With 'Show all questions' off, only the questions still to map or validate are listed. */
export function visibleQuestions(questions: MappingQuestion[], showAll: boolean): MappingQuestion[] {
  return showAll ? questions : questions.filter((q) => !q.metric_validated);
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / MAPPING_PAGE_SIZE));
}

export function pageOf<T>(items: T[], page: number): T[] {
  const start = (page - 1) * MAPPING_PAGE_SIZE;
  return items.slice(start, start + MAPPING_PAGE_SIZE);
}

/** Which question of the file uses each metric (metric name -> qid). */
export function metricsUsedInFile(questions: MappingQuestion[]): Map<string, string> {
  const used = new Map<string, string>();
  for (const question of questions) if (question.metric) used.set(question.metric.name, question.qid);
  return used;
}

export interface MetricSelectGroup {
  group: string;
  items: { value: string; label: string; disabled?: boolean }[];
}

/**
 * Dropdown options by metric type. A metric another question of the file already has cannot be
 * chosen again: its option is disabled and says which question has it.
 */
export function metricOptions(
  catalogue: MetricOption[],
  used: Map<string, string>,
  selfQid: string | null,
): MetricSelectGroup[] {
  const groups = new Map<string, MetricSelectGroup>();
  for (const metric of catalogue) {
    const group = groups.get(metric.metric_type) ?? { group: metric.metric_type, items: [] };
    const usedBy = used.get(metric.name);
    const taken = usedBy !== undefined && usedBy !== selfQid;
    group.items.push({
      value: metric.name,
      label: taken ? `${metric.label} (used by ${usedBy})` : metric.label,
      disabled: taken,
    });
    groups.set(metric.metric_type, group);
  }
  return [...groups.values()];
}

/** Validated questions of every file, in file order. */
export function validatedQuestions(files: { questions: MappingQuestion[] }[]): MappingQuestion[] {
  return files.flatMap((file) => file.questions.filter((q) => q.metric_validated));
}

/** How sure a suggestion is, in words (never by colour alone). */
export function confidenceLabel(detail: SuggestionDetail): string {
  return detail.confidence === 'high' ? 'High confidence' : 'Medium confidence';
}

const quoted = (text: string) => `“${text}”`;

/**
 * The reasons of a suggestion as short sentences, strongest first: the question's words and the
 * metric word they match (and how WordNet relates them), the similar validated question, the scale.
 */
export function suggestionReasons(detail: SuggestionDetail): string[] {
  return detail.reasons.map((reason) => {
    switch (reason.kind) {
      case 'words': {
        const asked = quoted(reason.words.join(' '));
        const same = reason.words.join(' ').toLowerCase() === reason.term.toLowerCase();
        if (reason.source === 'catalogue')
          return same ? `Words ${asked}` : `Words ${asked} (${quoted(reason.term)})`;
        const relation = reason.source === 'wordnet-synonym' ? 'a synonym of' : 'related to';
        const term = same ? '' : `${quoted(reason.term)}, `;
        return `Words ${asked} (${term}${relation} ${quoted(reason.via ?? reason.term)} in WordNet)`;
      }
      case 'example': {
        const share = `${Math.round(reason.weight * 100)} % alike`;
        const times = reason.count === 1 ? '' : `, validated ${reason.count} times`;
        return `Like the validated question ${quoted(reason.text)} (${share}${times})`;
      }
      case 'scale':
        // A like/dislike scale names the metric in every label: its two ends say enough.
        return reason.labels.length > 2
          ? `Scale labels ${quoted(reason.labels[0]!)} to ${quoted(reason.labels[reason.labels.length - 1]!)}`
          : `Scale labels ${reason.labels.map(quoted).join(', ')}`;
    }
  });
}
