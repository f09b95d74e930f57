/**
 * Records the answers of the searches of result-store.cases.ts on their demo library into
 * fixtures/search-answers.json: each search's full status answer and its pages. Run once on the
 * implementation the result store replaced (`npx tsx apps/server/src/modules/analytics/record-search-answers.ts`),
 * and again when the demographic sums took a canonical order (see result-store.cases.ts);
 * result-store.api.test.ts compares today's answers with them, cell by cell.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import type { DemoRole } from '../../testing/test-app.ts';
import { ANSWERS_LIBRARY, ANSWER_PAGES, ANSWER_SEARCHES } from './result-store.cases.ts';

const tokens: Partial<Record<DemoRole, string>> = {};
const t = await createLibraryTestApp('accord-record-answers-', ANSWERS_LIBRARY, tokens);
const answers: Record<string, { full: unknown; pages: Record<string, unknown> }> = {};
try {
  for (const [name, request] of Object.entries(ANSWER_SEARCHES)) {
    const queued = await t.request({
      method: 'POST',
      url: '/api/analytics/fragrances?no_cache=true',
      payload: request,
      token: tokens.researcher,
    });
    if (queued.statusCode !== 200) throw new Error(`${name}: ${queued.body}`);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = (
      await t.request({ method: 'GET', url: `/api/analytics/fragrances/${jobid}`, token: tokens.researcher })
    ).json<{ status: string; result: { json: { columns: { key: string }[] } } | null }>();
    if (status.status !== 'SUCCESS') throw new Error(`${name}: ${JSON.stringify(status)}`);
    const column = status.result!.json.columns[0]!.key;
    const pages: Record<string, unknown> = {};
    for (const query of ANSWER_PAGES) {
      const url = `/api/analytics/fragrances/${jobid}/page?${query.replace('COLUMN', column)}`;
      const answer = await t.request({ method: 'GET', url, token: tokens.researcher });
      if (answer.statusCode !== 200) throw new Error(`${name} ${query}: ${answer.body}`);
      pages[query] = answer.json();
    }
    answers[name] = { full: status.result!.json, pages };
    console.log(`${name}: ${status.result!.json.columns.length} columns recorded`);
  }
} finally {
  await t.close();
}
const here = path.dirname(fileURLToPath(import.meta.url));
await writeFile(path.join(here, 'fixtures', 'search-answers.json'), `${JSON.stringify(answers)}\n`);
