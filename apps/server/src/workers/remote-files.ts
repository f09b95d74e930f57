/**
 * Files of an upload read by a worker thread from the server's storage through a message port: the
 * worker pulls one chunk at a time (so a results file of any size streams with constant memory on both
 * sides), and the storage stays behind its one interface in the server thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { Readable } from 'node:stream';
import type { ZipFile } from '../modules/fileprocess/study-zip.ts';

/** A file as the worker knows it before reading it. */
export interface RemoteFileInfo {
  path: string;
  size: number;
}

type Request =
  | { op: 'pull'; id: number; path: string }
  | { op: 'read'; id: number; path: string }
  | { op: 'close'; id: number };
interface Answer {
  id: number;
  chunk?: Uint8Array;
  done?: boolean;
  error?: string;
}

/** Bytes sent to the worker per pull. */
const SEND_BYTES = 1024 * 1024;

/** Server side: answers the worker's reads of `files` on `port` until the port closes. */
export function serveFiles(port: MessagePort, files: readonly ZipFile[]): () => void {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const open = new Map<number, AsyncIterator<Buffer>>();
  // A pull may cross the end of its stream on the way; it is not an order to read the file again.
  const finished = new Set<number>();
  const answer = (message: Answer) => {
    try {
      port.postMessage(message, message.chunk ? [message.chunk.buffer as ArrayBuffer] : []);
    } catch {
      // The worker has gone (its task ended): nothing waits for the answer.
    }
  };
  const own = (chunk: Buffer) => new Uint8Array(chunk);
  port.on('message', async (request: Request) => {
    try {
      if (request.op === 'close') {
        finished.add(request.id);
        await open.get(request.id)?.return?.();
        open.delete(request.id);
        return;
      }
      const file = byPath.get(request.path);
      if (!file) throw new Error(`no file ${request.path} in this upload`);
      if (request.op === 'read') {
        answer({ id: request.id, chunk: own(await file.read()), done: true });
        return;
      }
      if (finished.has(request.id)) return;
      let iterator = open.get(request.id);
      if (!iterator) {
        iterator = (await file.stream())[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        open.set(request.id, iterator);
      }
      // Chunks are sent about a megabyte at a time: fewer round trips between the threads.
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      while (size < SEND_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        chunks.push(next.value);
        size += next.value.length;
      }
      if (done) {
        open.delete(request.id);
        finished.add(request.id);
      }
      if (chunks.length > 0) answer({ id: request.id, chunk: own(Buffer.concat(chunks, size)) });
      if (done) answer({ id: request.id, done: true });
    } catch (error) {
      open.delete(request.id);
      answer({ id: request.id, error: (error as Error).message });
    }
  });
  port.start();
  return () => {
    for (const iterator of open.values()) void iterator.return?.();
    open.clear();
    port.close();
  };
}

/** Worker side: the files, each read through the port. */
export function remoteFiles(port: MessagePort, files: readonly RemoteFileInfo[]): ZipFile[] {
  let nextId = 1;
  const waiting = new Map<number, (answer: Answer) => void>();
  port.on('message', (answer: Answer) => waiting.get(answer.id)?.(answer));
  port.start();
  return files.map((info) => ({
    path: info.path,
    size: info.size,
    read: () =>
      new Promise<Buffer>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, (answer) => {
          waiting.delete(id);
          if (answer.error) reject(new Error(answer.error));
          else resolve(Buffer.from(answer.chunk?.buffer ?? new ArrayBuffer(0)));
        });
        port.postMessage({ op: 'read', id, path: info.path } satisfies Request);
      }),
    stream: async () => {
      const id = nextId++;
      let ended = false;
      const stream = new Readable({
        read() {
          port.postMessage({ op: 'pull', id, path: info.path } satisfies Request);
        },
        destroy(error, callback) {
          waiting.delete(id);
          if (!ended) port.postMessage({ op: 'close', id } satisfies Request);
          callback(error);
        },
      });
      waiting.set(id, (answer) => {
        if (answer.error) stream.destroy(new Error(answer.error));
        else if (answer.done) {
          ended = true;
          waiting.delete(id);
          stream.push(null);
        } else if (answer.chunk) stream.push(Buffer.from(answer.chunk.buffer));
      });
      return stream;
    },
  }));
}
