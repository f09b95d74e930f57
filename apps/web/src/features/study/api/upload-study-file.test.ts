import { describe, expect, it } from 'vitest';
import { readUploadAnswer } from './upload-study-file.ts';

describe('readUploadAnswer', () => {
  it('reads the job of the JSON answer', () => {
    expect(readUploadAnswer('{"job_id":"abc","message":"Uploaded a.pdf."}')).toEqual({
      kind: 'job',
      jobId: 'abc',
    });
  });

  it("takes 'success' (bare or JSON) as done at once, and a bare id as the job", () => {
    expect(readUploadAnswer('success')).toEqual({ kind: 'success' });
    expect(readUploadAnswer('"success"')).toEqual({ kind: 'success' });
    expect(readUploadAnswer('"f00d"')).toEqual({ kind: 'job', jobId: 'f00d' });
  });

  it('treats an empty answer as a failure', () => {
    expect(readUploadAnswer('')).toEqual({ kind: 'empty' });
    expect(readUploadAnswer('  ')).toEqual({ kind: 'empty' });
    expect(readUploadAnswer('""')).toEqual({ kind: 'empty' });
    expect(readUploadAnswer('{"job_id":"","message":""}')).toEqual({ kind: 'empty' });
    expect(readUploadAnswer('null')).toEqual({ kind: 'empty' });
  });
});
