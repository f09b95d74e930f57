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

export function createFingerprintCache<T>(maxEntries: number): FingerprintCache<T> {
  const entries = new Map<string, { fingerprint: string; answer: Promise<T> }>();
  return {
    get(key, fingerprint, compute) {
      const kept = entries.get(key);
      entries.delete(key);
      if (kept && kept.fingerprint === fingerprint) {
        entries.set(key, kept);
        return kept.answer;
      }
      const entry = { fingerprint, answer: compute() };
      entries.set(key, entry);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      entry.answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.answer;
    },
  };
}
