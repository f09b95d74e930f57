/**
 * The metric suggestion of a question, from its text and scale. Pure: no I/O.
 *
 * 1. The scale decides which kinds of metric can fit: a JAR scale can only be strength, a
 *    check-all-that-apply (two-point) scale a binary attribute, an EEG score an EEG metric, an implicit
 *    response an implicit metric, any other numeric scale a hedonic metric. Categorical answers
 *    (occasions, brands) and constants have no scale a metric could be read on: no suggestion.
 * 2. Among those metrics, each scores the best text similarity (TF-IDF cosine over stemmed words)
 *    to the questions already validated to it anywhere in the library, plus a bonus when the text
 *    holds one of the metric's catalogue synonyms.
 * 3. The best metric is suggested when its score reaches SUGGESTION_THRESHOLD; otherwise none.
 *    Ties go to the metric with more validated questions behind it.
 */

export type MetricKind = 'hedonic' | 'jar' | 'binary' | 'eeg' | 'implicit';
export type QuestionType = 'numerical' | 'categorical' | 'constant' | 'binary' | 'jar' | 'eeg' | 'implicit';

export interface CatalogueMetric {
  id: number;
  name: string;
  label: string;
  kind: MetricKind;
}

export interface SuggestionInput {
  text: string;
  questionType: QuestionType;
  scaleMin: number | null;
  scaleMax: number | null;
}

/** Validated mappings of the library with the same text, type and metric, counted. */
export interface MappingExample {
  text: string;
  questionType: QuestionType;
  metricId: number;
  count: number;
}

/** Score a metric needs to be suggested: a synonym alone, or a validated question that reads alike. */
export const SUGGESTION_THRESHOLD = 0.5;
/** What a catalogue synonym in the text adds to a metric's score. */
export const SYNONYM_BONUS = 0.5;

/**
 * Words and phrases questionnaires use for each metric. A phrase matches when all its words occur in
 * the question. Implicit metrics (irt_<attribute>) use the synonyms of their attribute.
 */
export const METRIC_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  liking: ['like', 'dislike', 'liking', 'appeal', 'appealing', 'pleasant', 'enjoy', 'overall opinion'],
  purchase_intention: ['buy', 'purchase', 'recommend', 'purchase intent'],
  strength: ['strength', 'strong', 'weak', 'intense', 'intensity', 'just about right'],
  clean: ['clean', 'cleanliness', 'hygienic'],
  fresh: ['fresh', 'freshness', 'refreshing'],
  relaxing: ['relaxing', 'relax', 'calming', 'soothing'],
  good_for_every_day_use: ['every day', 'everyday', 'daily use'],
  long_lasting: ['long lasting', 'last long', 'longevity', 'lasting'],
  natural: ['natural'],
  premium: ['premium', 'luxurious', 'luxury', 'high quality'],
  comforting: ['comforting', 'comfort', 'cosy', 'cozy'],
  feminine: ['feminine', 'womanly'],
  masculine: ['masculine', 'manly'],
  energizing: ['energizing', 'energising', 'energetic', 'invigorating'],
  sensual: ['sensual', 'sexy', 'seductive'],
  modern: ['modern', 'contemporary'],
  unique: ['unique', 'distinctive', 'original'],
  soft: ['soft', 'gentle', 'mild'],
  youthful: ['youthful', 'young'],
  hfd_hedonic: ['hfd', 'hedonic'],
  addiction: ['addiction', 'addictive'],
  cogproc: ['cognitive processing', 'cogproc', 'cognitive'],
  attention: ['attention', 'attentive'],
  relaxation: ['relaxation'],
  energizing_eeg: ['energizing', 'energising'],
};

const STOPWORDS = new Set(
  (
    'a an and are as at be based by can could describe do does did for from how i if in is it its ' +
    'me much my of on or our than that the these this those to very was we what when which who why ' +
    'will with would you your fragrance product'
  ).split(' '),
);

/** A crude English stemmer: enough that smells/smell, relaxing/relax, liking/like meet. */
export function stem(word: string): string {
  let w = word.replace(/ising$/, 'izing').replace(/ise$/, 'ize');
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * An evaluation stage ("at the dry down stage", "at the long lasting stage") names when the product
 * was rated, not what was rated: its words must not pull the question towards an attribute.
 */
const STAGE_QUALIFIER = /\b(at|in|during) the ([a-z-]+ ){1,3}(stage|phase)\b/g;

/** Stemmed content words of a text. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(STAGE_QUALIFIER, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map(stem);
}

/** The metric kinds a question's scale can be read as. */
export function compatibleKinds(
  question: Pick<SuggestionInput, 'questionType' | 'scaleMin' | 'scaleMax'>,
): MetricKind[] {
  switch (question.questionType) {
    case 'jar':
      return ['jar'];
    case 'binary':
      return ['binary'];
    case 'eeg':
      return ['eeg'];
    case 'implicit':
      return ['implicit'];
    case 'numerical': {
      const { scaleMin, scaleMax } = question;
      if (scaleMin !== null && scaleMax !== null && scaleMax - scaleMin === 1) return ['binary'];
      return ['hedonic'];
    }
    case 'categorical':
    case 'constant':
      return [];
  }
}

function synonymsOf(metric: CatalogueMetric): string[] {
  const own = METRIC_SYNONYMS[metric.name];
  if (own) return [...own];
  const attribute = metric.name.startsWith('irt_') ? metric.name.slice(4) : null;
  if (attribute && METRIC_SYNONYMS[attribute]) return [...(METRIC_SYNONYMS[attribute] ?? [])];
  return [metric.label.replace(/\(.*?\)/g, '').trim()];
}

type Vector = Map<string, number>;

interface IndexedExample {
  metricId: number;
  count: number;
  vector: Vector;
}

export interface SuggestionResult {
  metricId: number;
  score: number;
}

/**
 * The suggestion engine over a catalogue and the library's validated mappings. Build it once per
 * library state and ask it for any number of questions.
 */
export class MetricSuggester {
  private readonly idf = new Map<string, number>();
  private readonly defaultIdf: number;
  private readonly examples: IndexedExample[] = [];
  private readonly synonymTokens: Map<number, string[][]>;
  private readonly metricsByKind = new Map<MetricKind, CatalogueMetric[]>();

  constructor(
    readonly catalogue: readonly CatalogueMetric[],
    examples: readonly MappingExample[],
  ) {
    const known = new Set(catalogue.map((m) => m.id));
    const usable = examples.filter((e) => e.count > 0 && known.has(e.metricId));
    // Document frequency over the distinct example texts and the synonym phrases.
    const documents: string[][] = [...new Set(usable.map((e) => e.text.toLowerCase()))].map((text) => [
      ...new Set(tokens(text)),
    ]);
    this.synonymTokens = new Map(
      catalogue.map((m) => [
        m.id,
        synonymsOf(m)
          .map((phrase) => tokens(phrase))
          .filter((t) => t.length > 0),
      ]),
    );
    for (const phrases of this.synonymTokens.values()) documents.push([...new Set(phrases.flat())]);
    const df = new Map<string, number>();
    for (const doc of documents) for (const token of doc) df.set(token, (df.get(token) ?? 0) + 1);
    const n = documents.length;
    for (const [token, count] of df) this.idf.set(token, Math.log((n + 1) / (count + 0.5)));
    this.defaultIdf = Math.log((n + 1) / 0.5);
    for (const example of usable) {
      this.examples.push({
        metricId: example.metricId,
        count: example.count,
        vector: this.vectorOf(example.text),
      });
    }
    for (const metric of catalogue) {
      const list = this.metricsByKind.get(metric.kind) ?? [];
      list.push(metric);
      this.metricsByKind.set(metric.kind, list);
    }
  }

  private vectorOf(text: string): Vector {
    const vector: Vector = new Map();
    for (const token of tokens(text)) {
      vector.set(token, (vector.get(token) ?? 0) + (this.idf.get(token) ?? this.defaultIdf));
    }
    return vector;
  }

  /** Scores of every compatible metric, best first (score, then validated questions behind it). */
  rank(question: SuggestionInput): SuggestionResult[] {
    const kinds = compatibleKinds(question);
    if (kinds.length === 0) return [];
    const candidates = kinds.flatMap((kind) => this.metricsByKind.get(kind) ?? []);
    const candidateIds = new Set(candidates.map((m) => m.id));
    const vector = this.vectorOf(question.text);
    const words = new Set(tokens(question.text));

    const best = new Map<number, { similarity: number; support: number }>();
    for (const example of this.examples) {
      if (!candidateIds.has(example.metricId)) continue;
      const similarity = cosine(vector, example.vector);
      const current = best.get(example.metricId);
      if (!current || similarity > current.similarity + 1e-9) {
        best.set(example.metricId, { similarity, support: example.count });
      } else if (Math.abs(similarity - current.similarity) <= 1e-9) {
        current.support += example.count;
      }
    }

    return candidates
      .map((metric) => {
        const example = best.get(metric.id);
        const synonym = (this.synonymTokens.get(metric.id) ?? []).some((phrase) =>
          phrase.every((token) => words.has(token)),
        );
        return {
          metricId: metric.id,
          score: (example?.similarity ?? 0) + (synonym ? SYNONYM_BONUS : 0),
          support: example?.support ?? 0,
        };
      })
      .sort((a, b) => b.score - a.score || b.support - a.support || a.metricId - b.metricId)
      .map(({ metricId, score }) => ({ metricId, score }));
  }

  /** The suggested metric id, or null when no metric fits well enough. */
  suggest(question: SuggestionInput): number | null {
    const [top] = this.rank(question);
    return top && top.score >= SUGGESTION_THRESHOLD ? top.metricId : null;
  }
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [token, weight] of a) {
    normA += weight * weight;
    const other = b.get(token);
    if (other !== undefined) dot += weight * other;
  }
  for (const weight of b.values()) normB += weight * weight;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
