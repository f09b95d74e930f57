/**
 * Keeps the answers of an expensive read while the data under them is unchanged. Every lookup first
 * reads the data's current fingerprint (cheap, from the database, so writes by any process count);
 * an answer computed under another fingerprint is recomputed. Concurrent lookups share one
 * fingerprint read and one computation per key. The least recently used answers go first.
 */
export interface AnswerCache<T> {
  get(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createAnswerCache<T>(options: {
  maxEntries: number;
  fingerprint: () => Promise<string>;
}): AnswerCache<T> {
  const entries = new Map<string, { fingerprint: string; answer: Promise<T> }>();
  let reading: Promise<string> | null = null;

  const currentFingerprint = () => {
    reading ??= options.fingerprint().finally(() => {
      reading = null;
    });
    return reading;
  };

  return {
    async get(key, compute) {
      const fingerprint = await currentFingerprint();
      const kept = entries.get(key);
      if (kept && kept.fingerprint === fingerprint) {
        entries.delete(key);
        entries.set(key, kept);
        return kept.answer;
      }
      // Computed after the fingerprint was read, so the answer is at least as new as it.
      const entry = { fingerprint, answer: compute() };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      entry.answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.answer;
    },
  };
}
