/**
 * Rows of a CSV stream (RFC 4180: quoted cells, doubled quotes, CRLF or LF), one at a time, so a
 * results file of any size is read with constant memory. A UTF-8 byte order mark is skipped.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export async function* csvRows(input: Readable | Iterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let afterQuote = false;
  let started = false;
  let first = true;

  const pending: string[][] = [];
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i++;
          } else if (i + 1 === text.length) {
            // The next chunk decides whether this quote is doubled.
            quoted = false;
            afterQuote = true;
          } else {
            quoted = false;
          }
        } else cell += ch;
        continue;
      }
      if (afterQuote) {
        afterQuote = false;
        if (ch === '"') {
          cell += '"';
          quoted = true;
          continue;
        }
      }
      if (ch === '"' && cell === '') {
        quoted = true;
        started = true;
      } else if (ch === ',') {
        row.push(cell);
        cell = '';
        started = true;
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        if (started || cell !== '' || row.length > 0) {
          row.push(cell);
          pending.push(row);
        } else pending.push([]);
        row = [];
        cell = '';
        started = false;
      } else {
        cell += ch;
        started = true;
      }
    }
  };

  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    feed(text);
    while (pending.length > 0) yield pending.shift() as string[];
  }
  feed(decoder.end());
  if (started || cell !== '' || row.length > 0) {
    row.push(cell);
    pending.push(row);
  }
  while (pending.length > 0) yield pending.shift() as string[];
}
