/**
 * Keeps the answers of expensive reads while the data under them is unchanged, like the search's
 * answer cache, but under a data fingerprint the caller reads once: one analytics call looks up
 * several caches (products, stored statistics, anomalies, mappings) and must not pay one
 * fingerprint read per lookup. An answer computed under another fingerprint is recomputed;
 * concurrent lookups of a key share one computation; the least recently used answers go first.
 */
export interface FingerprintCache<T> {
  get(key: string, fingerprint: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * A weight limit besides the count: answers of very different sizes (a search of one study or of
 * the whole library) are kept while their weights together stay within `max`; the newest answer is
 * kept even when it alone weighs more.
 */
export interface CacheBudget<T> {
  weigh: (answer: T) => number;
  max: number;
}

export function createFingerprintCache<T>(maxEntries: number, budget?: CacheBudget<T>): FingerprintCache<T> {
  const entries = new Map<string, { fingerprint: string; answer: Promise<T>; weight: number }>();
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.weight;
    entries.delete(key);
  };
  const trim = () => {
    while (entries.size > maxEntries || (budget && entries.size > 1 && total > budget.max))
      remove(entries.keys().next().value!);
  };
  return {
    get(key, fingerprint, compute) {
      const kept = entries.get(key);
      if (kept && kept.fingerprint === fingerprint) {
        entries.delete(key);
        entries.set(key, kept);
        return kept.answer;
      }
      remove(key);
      const entry = { fingerprint, answer: compute(), weight: 0 };
      entries.set(key, entry);
      trim();
      entry.answer.then(
        (answer) => {
          if (!budget || entries.get(key) !== entry) return;
          entry.weight = budget.weigh(answer);
          total += entry.weight;
          trim();
        },
        () => {
          if (entries.get(key) === entry) remove(key);
        },
      );
      return entry.answer;
    },
  };
}
