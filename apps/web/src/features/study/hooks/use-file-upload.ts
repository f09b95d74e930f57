/**
 * The upload of one file of the files page (document 2 section 4, File upload): selected, then
 * Confirm sends it and the job is polled every 2 s (queued, started, then finished or failed);
 * polling stops on finished or failed, which re-enables uploading and refreshes the tree. A 'success'
 * answer refreshes at once; an empty answer or 'No such job' is the failed state 'Upload failed'; a
 * server JSON error shows as a warning alert for 5 s; any other polling failure stops polling.
 */
import { ALERT_ERROR_MS, STUDY_MESSAGES, type StudyFolder } from '@accord/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showAlert } from '../../../lib/alerts.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { getUploadJob } from '../api/get-upload-job.ts';
import { uploadStudyFile } from '../api/upload-study-file.ts';
import { studyKeys } from '../api/keys.ts';

/** Upload job status poll interval (document 2 section 9). */
export const UPLOAD_POLL_MS = 2000;

export type UploadStatus = 'selected' | 'failed' | 'queued' | 'started' | 'finished';

export interface UploadState {
  fileName: string;
  status: UploadStatus;
  high_msg: string;
}

export interface UploadTarget {
  studyId: number;
  folder: StudyFolder;
  filetype: string;
  /** The file being replaced; absent when adding a new file to the folder. */
  fileName?: string;
}

export function useFileUpload(target: UploadTarget) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const { studyId } = target;
  const targetRef = useRef(target);
  targetRef.current = target;

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: studyKeys.detail(studyId) }),
    [queryClient, studyId],
  );

  useEffect(() => {
    if (!jobId) return undefined;
    let stopped = false;
    let timer: number | undefined;
    const controller = new AbortController();
    const stop = (next: Omit<UploadState, 'fileName'>) => {
      setState((previous) => ({ fileName: previous?.fileName ?? '', ...next }));
      setJobId(null);
      void refresh();
    };
    async function poll() {
      try {
        const job = await getUploadJob(studyId, jobId!, controller.signal);
        if (stopped) return;
        if (job.status === 'finished' || job.status === 'failed') {
          stop({
            status: job.status,
            high_msg: job.high_msg || (job.status === 'failed' ? STUDY_MESSAGES.uploadFailed : ''),
          });
          return;
        }
        setState((previous) => ({
          fileName: previous?.fileName ?? job.filename,
          status: job.status,
          high_msg: job.high_msg,
        }));
        timer = window.setTimeout(() => void poll(), UPLOAD_POLL_MS);
      } catch (error) {
        if (stopped) return;
        // 'No such job', or any other failure of the poll: stop and let the user upload again.
        if (!isApiError(error) || error.status !== 404) console.error('Upload status polling failed:', error);
        stop({ status: 'failed', high_msg: STUDY_MESSAGES.uploadFailed });
      }
    }
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [jobId, studyId, refresh]);

  const select = useCallback((chosen: File | null) => {
    setFile(chosen);
    setState(chosen ? { fileName: chosen.name, status: 'selected', high_msg: '' } : null);
  }, []);

  const cancel = useCallback(() => {
    setFile(null);
    setState(null);
  }, []);

  const confirm = useCallback(async () => {
    if (!file) return;
    const current = targetRef.current;
    setSending(true);
    setState({ fileName: file.name, status: 'queued', high_msg: '' });
    try {
      const answer = await uploadStudyFile({
        studyId: current.studyId,
        file,
        filename: current.fileName,
        filetype: current.filetype,
        foldertype: current.folder,
      });
      setFile(null);
      if (answer.kind === 'job') setJobId(answer.jobId);
      else if (answer.kind === 'success') {
        setState({ fileName: file.name, status: 'finished', high_msg: STUDY_MESSAGES.uploaded(file.name) });
        void refresh();
      } else setState({ fileName: file.name, status: 'failed', high_msg: STUDY_MESSAGES.uploadFailed });
    } catch (error) {
      if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401) {
        // The server's JSON error (a refused file): a warning for 5 s, and the choice is cleared.
        showAlert('warning', error.message, ALERT_ERROR_MS);
        setFile(null);
        setState(null);
      } else {
        setState({ fileName: file.name, status: 'failed', high_msg: STUDY_MESSAGES.uploadFailed });
      }
    } finally {
      setSending(false);
    }
  }, [file, refresh]);

  const busy = sending || jobId !== null;
  return { file, state, busy, select, cancel, confirm };
}
