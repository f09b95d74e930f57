/**
 * npm run openapi:client: generates a typed client from docs/openapi.json (@hey-api/openapi-ts, the
 * fetch client and its SDK) into a temporary folder and typechecks it under `strict`, with a probe
 * that fails unless every download and stream of the document is typed as a binary body (Blob or
 * File) rather than as nothing. Offline; nothing is written in the project. A path argument checks
 * another document instead.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import { operationIdOf } from './operation-id.ts';
import { NON_JSON_ANSWERS } from './responses.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The document to check: docs/openapi.json, or the path given. */
const input = path.resolve(process.argv[2] ?? path.join(root, 'docs/openapi.json'));
const folder = await mkdtemp(path.join(os.tmpdir(), 'accord-client-'));
try {
  await createClient({
    input,
    output: { path: path.join(folder, 'client') },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent', file: false },
  });
  const names = Object.keys(NON_JSON_ANSWERS).map((key) => {
    const [method, route] = key.split(' ') as [string, string];
    const id = operationIdOf(method, route);
    return `${id[0]!.toUpperCase()}${id.slice(1)}Response`;
  });
  await writeFile(
    path.join(folder, 'probe.ts'),
    [
      `import type { ${names.join(', ')} } from './client/types.gen';`,
      `import { client } from './client/client.gen';`,
      `import * as sdk from './client/sdk.gen';`,
      '',
      '/** true only when the body is typed as a file. */',
      'type Binary<T> = [T] extends [Blob | File] ? ([T] extends [never] ? false : true) : false;',
      ...names.map(
        (name) => `export const ${name.charAt(0).toLowerCase()}${name.slice(1)}: Binary<${name}> = true;`,
      ),
      'export const calls = { client, operations: Object.keys(sdk).length };',
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['probe.ts', 'client/**/*.ts'],
    }),
  );
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', path.join(folder, 'tsconfig.json')]);
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    console.error(`The generated client does not typecheck:\n${output}`);
    process.exit(1);
  }
  console.log(
    `The generated client typechecks; its ${names.length} downloads and streams are typed as binary bodies.`,
  );
} finally {
  await rm(folder, { recursive: true, force: true });
}
