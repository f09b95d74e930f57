/**
 * The study module's background jobs: the worker of study file uploads (see study-files.service.ts).
 */
import type { JobQueue } from '../../jobs/queue.ts';
import { STUDY_UPLOAD_QUEUE, type StudyFilesService, type UploadJob } from './study-files.service.ts';

export async function registerStudyFileJobs(jobs: JobQueue, files: StudyFilesService): Promise<void> {
  await jobs.register<UploadJob>(STUDY_UPLOAD_QUEUE, (job) => files.processUpload(job), {
    concurrency: 2,
    pollingIntervalSeconds: 2,
    retryLimit: 2,
    expireInSeconds: 10 * 60,
  });
}
