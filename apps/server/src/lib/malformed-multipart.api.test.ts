/**
 * A multipart body that is not well formed (cut off, a broken part header, no boundary) is the
 * caller's mistake: every upload operation answers 400 with the error shape, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

const BOUNDARY = 'accordboundary';
/** Bodies a broken client or a cut connection sends. */
const MALFORMED: Record<string, { payload: string; contentType: string }> = {
  'cut off in a file part': {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nproduct_code,q1\r\n1,2`,
  },
  'a part header without its end': {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="year"`,
  },
  'no boundary': {
    contentType: 'multipart/form-data',
    payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="year"\r\n\r\n2020\r\n--${BOUNDARY}--\r\n`,
  },
};

const OPERATIONS: { method: 'POST' | 'PUT'; url: string }[] = [
  { method: 'POST', url: '/api/rdf/upload/' },
  { method: 'PUT', url: '/api/rdf/upload/' },
  { method: 'POST', url: '/api/rdf/upload/files/' },
  { method: 'POST', url: '/api/fileprocess/studies_upload' },
  { method: 'PUT', url: '/api/fileprocess/fileprocess/1/replace_file' },
  { method: 'POST', url: '/api/study/1/upload' },
];

describe('a malformed multipart body', () => {
  for (const [name, body] of Object.entries(MALFORMED)) {
    it(`answers 400 on the six upload operations: ${name}`, async () => {
      for (const operation of OPERATIONS) {
        const response = await t.request({
          ...operation,
          token: admin,
          payload: body.payload,
          headers: { 'content-type': body.contentType },
        });
        expect(response.statusCode, `${operation.method} ${operation.url}: ${response.body}`).toBe(400);
        const answer = response.json() as { error: string; message: string; statusCode: number };
        expect(answer.statusCode).toBe(400);
        expect(answer.message.length).toBeGreaterThan(0);
      }
    });
  }
});
