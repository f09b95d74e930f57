/**
 * The metric suggestion of a question, from its text and scale, with the reasons for it. Pure but for
 * the lexicon, which is read once from the installed WordNet files.
 *
 * 1. The scale decides which kinds of metric can fit: a JAR scale (by type, or by labels such as
 *    "Just about right") can only be strength; a check-all-that-apply or yes/no item (two points) a
 *    binary attribute; an EEG score an EEG metric; an implicit response an implicit metric; any other
 *    numeric scale a hedonic metric. Categorical answers and constants: no suggestion.
 * 2. Each metric of those kinds gathers evidence, each piece weighing 0 to 1:
 *    - words: the question holds a word or phrase of the metric's lexicon (metric-lexicon.ts: the
 *      catalogue's words, WordNet synonyms, similar and derived words), not negated ("not fresh");
 *    - a validated question: the most similar question already validated to it in the library
 *      (TF-IDF cosine over stemmed words);
 *    - the scale: its labels name what is measured (like/dislike, would buy, too weak/too strong).
 *    A metric scores its strongest piece plus CORROBORATION for each other kind of evidence.
 * 3. The best metric is suggested only when it is clear: its score reaches SUGGESTION_THRESHOLD and
 *    beats the runner-up by SUGGESTION_MARGIN. An unclear question gets no suggestion, because a
 *    wrong suggestion costs an admin more than none.
 */
import {
  comparativeBase,
  metricLexicon,
  METRIC_SEEDS,
  stemOf,
  TERM_WEIGHT,
  words,
  type LexiconTerm,
  type TermSource,
} from './metric-lexicon.ts';

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
  /** The answer labels as stored ([{ name, value }]); anything else is read as none. */
  labels?: unknown;
}

/** Validated mappings of the library with the same text, type and metric, counted. */
export interface MappingExample {
  text: string;
  questionType: QuestionType;
  metricId: number;
  count: number;
}

/** Score the best metric needs to be suggested. */
export const SUGGESTION_THRESHOLD = 0.6;
/** Lead the best metric needs over the runner-up to be suggested. */
export const SUGGESTION_MARGIN = 0.2;
/** What each further kind of evidence for the same metric adds to its score. */
export const CORROBORATION = 0.15;
/** Similarity from which a validated question corroborates other evidence. */
export const NEAR_DUPLICATE = 0.8;
/** Weight of scale labels that name the metric (like/dislike, would buy, too weak/too strong). */
export const SCALE_WEIGHT = 0.8;
/** A suggestion is "high" confidence from this score and twice the margin; "medium" below. */
export const HIGH_CONFIDENCE = 0.85;

/** One reason for a suggestion. */
export type SuggestionReason =
  | {
      kind: 'words';
      weight: number;
      /** The question's words that matched, as written in the question. */
      words: string[];
      /** The lexicon term they matched, where it comes from, and the seed WordNet relates it to. */
      term: string;
      source: TermSource;
      via: string | null;
    }
  | { kind: 'example'; weight: number; text: string; count: number }
  | { kind: 'scale'; weight: number; labels: string[] };

export interface SuggestionResult {
  metricId: number;
  score: number;
  reasons: SuggestionReason[];
}

/** A suggestion with how sure it is. */
export interface Suggestion extends SuggestionResult {
  confidence: 'high' | 'medium';
}

const STOPWORDS = new Set(
  (
    'a an and are as at be based by can could describe do does did for from how i if in is it its ' +
    'me much my of on or our than that the these this those to very was we what when which who why ' +
    'will with would you your fragrance product scent smell perfume'
  ).split(' '),
);

/**
 * Metrics whose scale runs from one end to the other (too weak to too strong, dislike to like): a
 * question naming the other end still measures them.
 */
const BIPOLAR = new Set(['liking', 'strength']);

/**
 * Parts of a product other than its smell. A question about liking one of them ("the colour of the
 * liquid") and not about the smell is not Overall Liking, which the catalogue means of the fragrance.
 */
const OTHER_ASPECTS = new Set(
  'colour color packaging pack bottle design texture consistency price label shape lather foam'.split(' '),
);
const SMELL_WORDS = new Set(
  'fragrance fragrances scent scents smell smells odour odor aroma perfume'.split(' '),
);

/** Words that negate the attribute named within the next three words ("not fresh", "never clean"). */
const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'without',
  'hardly',
  'lacks',
  'lack',
  'isnt',
  'doesnt',
  'dont',
]);
const NEGATION_REACH = 3;

/**
 * An evaluation stage ("at the dry down stage", "at the long lasting stage") names when the product
 * was rated, not what was rated: its words must not pull the question towards an attribute.
 */
const STAGE_QUALIFIER = /\b(at|in|during) the ([a-z-]+ ){1,3}(stage|phase)\b/g;

/** Porter stem of a word (kept under its old name for the callers). */
export const stem = stemOf;

/** Stemmed content words of a text: what validated questions are compared on. */
export function tokens(text: string): string[] {
  return words(text.toLowerCase().replace(STAGE_QUALIFIER, ' '))
    .filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map(stem);
}

function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels
    .map((label: unknown) =>
      typeof label === 'object' && label !== null ? (label as { name?: unknown }).name : undefined,
    )
    .filter((name): name is string => typeof name === 'string');
}

const JAR_LABEL = /\b(just|about) right\b|\btoo (weak|strong|mild|intense|light|much|little)\b/i;
const YES_NO_LABEL = /^(yes|no)$/i;

/** The metric kinds a question's scale can be read as. */
export function compatibleKinds(
  question: Pick<SuggestionInput, 'questionType' | 'scaleMin' | 'scaleMax' | 'labels'>,
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
      const names = labelNames(question.labels);
      if (names.some((name) => JAR_LABEL.test(name))) return ['jar'];
      if (scaleMin !== null && scaleMax !== null && scaleMax - scaleMin === 1) return ['binary'];
      if (names.length === 2 && names.every((name) => YES_NO_LABEL.test(name.trim()))) return ['binary'];
      return ['hedonic'];
    }
    case 'categorical':
    case 'constant':
      return [];
  }
}

/** Metrics the scale's labels name, by catalogue name, with the labels that name them. */
function scaleEvidence(question: SuggestionInput): Map<string, string[]> {
  const names = labelNames(question.labels);
  const found = new Map<string, string[]>();
  const match = (metric: string, pattern: RegExp) => {
    const hits = names.filter((name) => pattern.test(name));
    if (hits.length > 0) found.set(metric, hits);
  };
  match('liking', /\b(dis)?lik(e|ed|ing)\b/i);
  match('purchase_intention', /\b(buy|purchase)\b/i);
  match('strength', /\btoo (weak|strong|mild|intense)\b/i);
  return found;
}

/** Lexicon metric name a catalogue metric draws its words from. */
function lexiconNameOf(metric: CatalogueMetric): string | null {
  if (METRIC_SEEDS[metric.name]) return metric.name;
  const attribute = metric.name.startsWith('irt_') ? metric.name.slice(4) : null;
  return attribute && METRIC_SEEDS[attribute] ? attribute : null;
}

/**
 * Words after which "like" is the verb of liking ("do you like", "I really like"); after any other
 * word it compares ("smells like the sea", "fresh, like air dried washing").
 */
const LIKE_AS_VERB_AFTER = new Set(
  'you i we they people really also still did do does would much most least not dont didnt to who'.split(' '),
);

interface QuestionWord {
  written: string;
  /** Stems the word can be read as: its own, and its base when it is a comparative. */
  stems: string[];
  negated: boolean;
}

function questionWords(text: string): QuestionWord[] {
  const list = words(text.toLowerCase().replace(STAGE_QUALIFIER, ' '));
  let negatedUntil = -1;
  return list.map((word, index) => {
    if (NEGATIONS.has(word)) negatedUntil = index + NEGATION_REACH;
    const comparison = word === 'like' && !LIKE_AS_VERB_AFTER.has(list[index - 1] ?? '');
    const base = comparativeBase(word);
    const stems = comparison ? [] : base ? [stemOf(word), stemOf(base)] : [stemOf(word)];
    return { written: word, stems, negated: index <= negatedUntil && !NEGATIONS.has(word) };
  });
}

/** Where a term's stems occur in order in the question, contiguous but for stop words; or null. */
function findTerm(question: QuestionWord[], stems: readonly string[]): QuestionWord[] | null {
  for (let start = 0; start < question.length; start++) {
    if (!question[start]!.stems.includes(stems[0]!)) continue;
    const matched = [question[start]!];
    let at = start + 1;
    for (const next of stems.slice(1)) {
      while (
        at < question.length &&
        !question[at]!.stems.includes(next) &&
        STOPWORDS.has(question[at]!.written)
      )
        at++;
      if (at >= question.length || !question[at]!.stems.includes(next)) break;
      matched.push(question[at]!);
      at++;
    }
    if (matched.length === stems.length) return matched;
  }
  return null;
}

type Vector = Map<string, number>;

interface IndexedExample {
  metricId: number;
  count: number;
  text: string;
  vector: Vector;
}

/**
 * The suggestion engine over a catalogue and the library's validated mappings. Build it once per
 * library state and ask it for any number of questions.
 */
export class MetricSuggester {
  private readonly idf = new Map<string, number>();
  private readonly defaultIdf: number;
  private readonly examples: IndexedExample[] = [];
  private readonly termsByMetric = new Map<number, LexiconTerm[]>();
  /** Each metric's terms by their first stem: a question only tries the terms its words can start. */
  private readonly termsByFirstStem = new Map<number, Map<string, LexiconTerm[]>>();
  private readonly metricsByKind = new Map<MetricKind, CatalogueMetric[]>();

  constructor(
    readonly catalogue: readonly CatalogueMetric[],
    examples: readonly MappingExample[],
  ) {
    const known = new Set(catalogue.map((m) => m.id));
    const usable = examples.filter((e) => e.count > 0 && known.has(e.metricId));
    const lexicon = metricLexicon();
    for (const metric of catalogue) {
      const name = lexiconNameOf(metric);
      const terms = name ? lexicon.filter((term) => term.metric === name) : [];
      this.termsByMetric.set(metric.id, terms);
      const byFirst = new Map<string, LexiconTerm[]>();
      for (const term of terms) {
        const first = term.stems[0]!;
        byFirst.set(first, [...(byFirst.get(first) ?? []), term]);
      }
      this.termsByFirstStem.set(metric.id, byFirst);
      const list = this.metricsByKind.get(metric.kind) ?? [];
      list.push(metric);
      this.metricsByKind.set(metric.kind, list);
    }
    // Document frequency over the distinct example texts and each metric's lexicon, which keeps the
    // weights sensible in a library with few validated questions.
    const documents = [...new Set(usable.map((e) => e.text.toLowerCase()))].map(
      (text) => new Set(tokens(text)),
    );
    for (const terms of this.termsByMetric.values())
      if (terms.length > 0) documents.push(new Set(terms.flatMap((term) => term.stems)));
    const df = new Map<string, number>();
    for (const doc of documents) for (const token of doc) df.set(token, (df.get(token) ?? 0) + 1);
    const n = documents.length;
    for (const [token, count] of df) this.idf.set(token, Math.log((n + 1) / (count + 0.5)));
    this.defaultIdf = Math.log((n + 1) / 0.5);
    for (const example of usable) {
      this.examples.push({
        metricId: example.metricId,
        count: example.count,
        text: example.text,
        vector: this.vectorOf(example.text),
      });
    }
  }

  private vectorOf(text: string): Vector {
    const vector: Vector = new Map();
    for (const token of tokens(text)) {
      vector.set(token, (vector.get(token) ?? 0) + (this.idf.get(token) ?? this.defaultIdf));
    }
    return vector;
  }

  /**
   * The strongest lexicon term of a metric in the question; 'opposite' when the question names the
   * metric's antonym (old-fashioned, artificial) or only denies it (not long lasting): it then
   * measures the other end, and no evidence makes it this metric.
   */
  private wordReason(metricId: number, question: QuestionWord[]): SuggestionReason | 'opposite' | null {
    let best: (SuggestionReason & { kind: 'words' }) | null = null;
    const byFirst = this.termsByFirstStem.get(metricId);
    const terms = [
      ...new Set(question.flatMap((word) => word.stems.flatMap((stem) => byFirst?.get(stem) ?? []))),
    ];
    const positive = new Set<QuestionWord>();
    let negated = false;
    for (const term of terms) {
      const found = term.opposite ? null : findTerm(question, term.stems);
      if (found) for (const word of found) positive.add(word);
    }
    for (const term of terms) {
      const found = findTerm(question, term.stems);
      if (!found) continue;
      if (term.opposite) {
        if (BIPOLAR.has(term.metric)) continue;
        // An antonym inside one of the metric's own phrases ("dated" in "up to date") is no antonym.
        if (!found.some((word) => word.negated) && !found.every((word) => positive.has(word)))
          return 'opposite';
        continue;
      }
      if (found.some((word) => word.negated)) {
        negated = true;
        continue;
      }
      const weight = TERM_WEIGHT[term.source];
      if (!best || weight > best.weight || (weight === best.weight && found.length > best.words.length))
        best = {
          kind: 'words',
          weight,
          words: found.map((w) => w.written),
          term: term.term,
          source: term.source,
          via: term.via,
        };
    }
    // "Not long lasting" names the metric only to deny it: the question measures the other end,
    // whatever validated questions it resembles.
    if (!best && negated && !BIPOLAR.has(terms[0]!.metric)) return 'opposite';
    return best;
  }

  /** Every compatible metric with evidence, best first (score, then validated questions behind it). */
  rank(question: SuggestionInput): SuggestionResult[] {
    const kinds = compatibleKinds(question);
    if (kinds.length === 0) return [];
    const candidates = kinds.flatMap((kind) => this.metricsByKind.get(kind) ?? []);
    const candidateIds = new Set(candidates.map((m) => m.id));
    const vector = this.vectorOf(question.text);
    const asked = questionWords(question.text);
    const scale = scaleEvidence(question);

    const bestExample = new Map<number, { similarity: number; text: string; count: number }>();
    for (const example of this.examples) {
      if (!candidateIds.has(example.metricId)) continue;
      const similarity = cosine(vector, example.vector);
      const current = bestExample.get(example.metricId);
      if (!current || similarity > current.similarity + 1e-9) {
        bestExample.set(example.metricId, { similarity, text: example.text, count: example.count });
      } else if (Math.abs(similarity - current.similarity) <= 1e-9) {
        current.count += example.count;
      }
    }

    // Where the library validated alike questions to different metrics, each gets its share of the
    // validations: twelve for liking against one for natural is liking, not a tie.
    const top = Math.max(0, ...[...bestExample.values()].map((e) => e.similarity));
    const rivals = [...bestExample.values()].filter((e) => e.similarity >= top - 0.05 && top > 0);
    if (rivals.length > 1) {
      const total = rivals.reduce((sum, e) => sum + e.count, 0);
      for (const rival of rivals) rival.similarity *= rival.count / total;
    }

    const ranked: (SuggestionResult & { support: number })[] = [];
    const otherAspect =
      asked.some((word) => OTHER_ASPECTS.has(word.written)) &&
      !asked.some((word) => SMELL_WORDS.has(word.written));
    for (const metric of candidates) {
      if (otherAspect && metric.name === 'liking') continue;
      const reasons: SuggestionReason[] = [];
      const wordReason = this.wordReason(metric.id, asked);
      if (wordReason === 'opposite') continue;
      if (wordReason) reasons.push(wordReason);
      const example = bestExample.get(metric.id);
      if (example && example.similarity > 0.05)
        reasons.push({
          kind: 'example',
          weight: round(example.similarity),
          text: example.text,
          count: example.count,
        });
      const labels = scale.get(metric.name);
      if (labels) reasons.push({ kind: 'scale', weight: SCALE_WEIGHT, labels });
      if (reasons.length === 0) continue;
      reasons.sort((a, b) => b.weight - a.weight);
      // A validated question corroborates only when it reads nearly the same: questionnaires share
      // templates ("Implicit association: does this fragrance feel ...?") whose words say nothing.
      const strong = reasons.filter((r) => r.weight >= (r.kind === 'example' ? NEAR_DUPLICATE : 0.5)).length;
      const score = Math.min(1, reasons[0]!.weight + CORROBORATION * Math.max(0, strong - 1));
      ranked.push({ metricId: metric.id, score: round(score), reasons, support: example?.count ?? 0 });
    }
    return ranked
      .sort((a, b) => b.score - a.score || b.support - a.support || a.metricId - b.metricId)
      .map(({ metricId, score, reasons }) => ({ metricId, score, reasons }));
  }

  /** The suggestion with its reasons and confidence, or null when no metric is clearly right. */
  explain(question: SuggestionInput): Suggestion | null {
    const [top, second] = this.rank(question);
    if (!top || top.score < SUGGESTION_THRESHOLD) return null;
    const margin = top.score - (second?.score ?? 0);
    if (margin < SUGGESTION_MARGIN - 1e-9) return null;
    const confidence = top.score >= HIGH_CONFIDENCE && margin >= 2 * SUGGESTION_MARGIN ? 'high' : 'medium';
    return { ...top, confidence };
  }

  /** The suggested metric id, or null when no metric is clearly right. */
  suggest(question: SuggestionInput): number | null {
    return this.explain(question)?.metricId ?? null;
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;

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
