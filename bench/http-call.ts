/**
 * The bench's HTTP client for measured calls. It shares the machine with the server, so it reads an
 * answer's bytes and drops them (fetch gathered and decoded the megabytes of a search's answer, half
 * a core at eight clients), keeping only the start of the body, and it reads the server's own time
 * of the call from its Server-Timing header (`app;dur=`).
 */
import http from 'node:http';

/** Bodies up to this size are kept whole (a queued job's id, an error); larger ones only their start. */
const KEPT_BYTES = 64 * 1024;

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface CallAnswer {
  status: number;
  /** The body when it is at most KEPT_BYTES long, else its first KEPT_BYTES bytes (as UTF-8 text). */
  head: string;
  /** Whether `head` is the whole body. */
  whole: boolean;
  /** The server's time for the call (Server-Timing app;dur), or NaN when it sent none. */
  serverMs: number;
}

/** One call; rejects on a network error or after `timeoutMs`. */
export function call(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<CallAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: init.method, headers: init.headers, agent, timeout: init.timeoutMs ?? 60_000 },
      (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let whole = true;
        response.on('data', (chunk: Buffer) => {
          if (keptBytes >= KEPT_BYTES) {
            whole = false;
            return;
          }
          kept.push(chunk);
          keptBytes += chunk.length;
        });
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(kept);
          const timing = /app;dur=([0-9.]+)/.exec(String(response.headers['server-timing'] ?? ''));
          resolve({
            status: response.statusCode ?? 0,
            head: body.subarray(0, KEPT_BYTES).toString('utf8'),
            whole: whole && body.length <= KEPT_BYTES,
            serverMs: timing ? Number(timing[1]) : Number.NaN,
          });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`Timed out: ${init.method} ${url}`)));
    request.on('error', reject);
    request.end(init.body);
  });
}
