/**
 * Writes the OpenAPI document that the server publishes at /api/docs/json to docs/openapi.json, so
 * clients and the lint step read it without a running server. `--check` writes nothing and fails when
 * the committed document differs from the one the schemas give now (the document is generated: edit
 * the zod schemas of packages/contracts and the routes, then run `npm run openapi`).
 *
 * The app is built exactly as in the API tests (createTestApp: a real app on an in-memory database),
 * and the document is read through its own route.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp } from '../testing/test-app.ts';

const DOCUMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/openapi.json');

const SERVER_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const check = process.argv.includes('--check');
const t = await createTestApp();
let text: string;
try {
  const response = await t.request({ method: 'GET', url: '/api/docs/json' });
  if (response.statusCode !== 200) throw new Error(`/api/docs/json answered ${response.statusCode}`);
  // The test app calls itself 0.0.0-test; the document carries the server's version, as served.
  const served = response.json<{ info: Record<string, unknown> }>();
  const document = { ...served, info: { ...served.info, version: SERVER_VERSION } };
  text = `${JSON.stringify(document, null, 2)}\n`;
} finally {
  await t.close();
}

if (check) {
  const committed = await readFile(DOCUMENT, 'utf8').catch(() => '');
  if (committed !== text) {
    console.error(
      `${path.relative(process.cwd(), DOCUMENT)} is not current: run npm run openapi and commit it.`,
    );
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), DOCUMENT)} is current.`);
} else {
  await writeFile(DOCUMENT, text);
  console.log(`Wrote ${path.relative(process.cwd(), DOCUMENT)}.`);
}
