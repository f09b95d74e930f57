/**
 * Keeps the answers of an expensive read while the data under them is unchanged. Every lookup first
 * reads the data's current fingerprint (cheap, from the database, so writes by any process count);
 * an answer computed under another fingerprint is recomputed. Lookups asked for in one turn share one
 * fingerprint query (db/data-versions.ts), never one already sent, so a lookup sees every write
 * committed before it was made; concurrent lookups share one computation per key. The least recently
 * used answers go first.
 */
export interface AnswerCache<T> {
  get(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createAnswerCache<T>(options: {
  maxEntries: number;
  fingerprint: () => Promise<string>;
}): AnswerCache<T> {
  const entries = new Map<string, { fingerprint: string; answer: Promise<T> }>();
  return {
    async get(key, compute) {
      const fingerprint = await options.fingerprint();
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
