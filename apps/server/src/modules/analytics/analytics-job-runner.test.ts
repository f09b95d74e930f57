// The job runner's progress and cancel: a job's work records its steps in its row and stops at the
// first step after its row was cancelled, recording no result; a job not cancelled ends as before.
import type { AuthUser } from '../../plugins/auth.ts';
import { describe, expect, it } from 'vitest';
import { JOB_KINDS, createJobRunner, storedResult, type AnalyticsJobData } from './analytics-job-runner.ts';
import type { AnalyticsRepository } from './analytics.repository.ts';
import type { JobQueue } from '../../jobs/queue.ts';

/** Job rows in memory, as the repository keeps them. */
function rowsInMemory() {
  const rows = new Map<
    string,
    { status: string; progress: number; error: string | null; text: string | null }
  >();
  const repository = {
    async setJobProgress(id: string, progress: number) {
      const row = rows.get(id);
      if (!row || (row.status !== 'STARTED' && row.status !== 'PENDING')) return false;
      row.progress = progress;
      return true;
    },
    async finishJob(id: string, outcome: { text: string } | { error: string } | { result: unknown }) {
      const row = rows.get(id)!;
      if (row.status === 'REVOKED') return;
      row.status = 'error' in outcome ? 'FAILURE' : 'SUCCESS';
      row.progress = 100;
      row.text = 'text' in outcome ? outcome.text : null;
    },
    async cancelJob(id: string) {
      const row = rows.get(id);
      if (!row) return null;
      if (row.status === 'STARTED') row.status = 'REVOKED';
      return { status: row.status, progress: row.progress };
    },
  };
  return { rows, repository: repository as unknown as AnalyticsRepository };
}

const user = { id: 7 } as AuthUser;
const data = (jobId: string): AnalyticsJobData => ({
  jobId,
  user,
  kind: JOB_KINDS.search,
  request: '{}',
});

describe('the analytics job runner', () => {
  it('records each step of a job’s work as its progress, then its result', async () => {
    const { rows, repository } = rowsInMemory();
    rows.set('a', { status: 'STARTED', progress: 0, error: null, text: null });
    const seen: number[] = [];
    const runner = createJobRunner({
      analytics: repository,
      jobs: {} as JobQueue,
      perform: async (_job, step) => {
        for (const progress of [15, 30, 75, 90]) {
          await step(progress);
          seen.push(rows.get('a')!.progress);
        }
        return { result: storedResult({ rows: 3 }) };
      },
    });
    await runner.processJob(data('a'));
    expect(seen).toEqual([15, 30, 75, 90]);
    expect(rows.get('a')).toMatchObject({ status: 'SUCCESS', progress: 100, text: '{"rows":3}' });
  });

  it('stops a cancelled job’s work at its next step and records nothing', async () => {
    const { rows, repository } = rowsInMemory();
    rows.set('b', { status: 'STARTED', progress: 0, error: null, text: null });
    const done: number[] = [];
    const runner = createJobRunner({
      analytics: repository,
      jobs: {} as JobQueue,
      perform: async (_job, step) => {
        await step(15);
        done.push(15);
        // The user cancels while the answers are summed.
        expect(await runner.cancelJob(user, JOB_KINDS.search, 'b')).toEqual({
          status: 'REVOKED',
          progress: 15,
        });
        await step(30);
        done.push(30);
        return { result: storedResult({ rows: 3 }) };
      },
    });
    await runner.processJob(data('b'));
    expect(done).toEqual([15]);
    expect(rows.get('b')).toMatchObject({ status: 'REVOKED', progress: 15, text: null });
  });

  it('keeps the result of a job cancelled only after its work ended, unanswered', async () => {
    const { rows, repository } = rowsInMemory();
    rows.set('c', { status: 'STARTED', progress: 0, error: null, text: null });
    const runner = createJobRunner({
      analytics: repository,
      jobs: {} as JobQueue,
      perform: async () => {
        await runner.cancelJob(user, JOB_KINDS.search, 'c');
        return { result: storedResult({ rows: 3 }) };
      },
    });
    await runner.processJob(data('c'));
    // The row stays REVOKED: the finished work does not overwrite the cancel.
    expect(rows.get('c')).toMatchObject({ status: 'REVOKED', text: null });
  });
});
