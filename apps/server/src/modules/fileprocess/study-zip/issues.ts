/**
 * The problems found in a study zip, each attached to its file, with a cap on how many are listed
 * per file.
 */
import { type FileIssue, type FileIssuePath } from '@accord/contracts';
import { MAX_ISSUES_PER_FILE } from './model.ts';

export class IssueList {
  readonly issues: FileIssue[] = [];
  private readonly perFile = new Map<string, number>();

  add(level: FileIssue['level'], high_msg: string, msg: string, path: FileIssuePath): void {
    const count = (this.perFile.get(path.file) ?? 0) + 1;
    this.perFile.set(path.file, count);
    if (count <= MAX_ISSUES_PER_FILE) this.issues.push({ level, high_msg, msg, path });
  }
  error(high_msg: string, msg: string, path: FileIssuePath): void {
    this.add('error', high_msg, msg, path);
  }
  warning(high_msg: string, msg: string, path: FileIssuePath): void {
    this.add('warning', high_msg, msg, path);
  }
  /** One closing line per file whose problems went beyond the listed ones. */
  finish(): FileIssue[] {
    for (const [file, count] of this.perFile) {
      if (count > MAX_ISSUES_PER_FILE) {
        this.issues.push({
          level: 'error',
          high_msg: 'More problems',
          msg: `${count - MAX_ISSUES_PER_FILE} more problems in this file are not listed; fix the ones above and upload it again.`,
          path: { file },
        });
      }
    }
    return this.issues;
  }
}

const hasErrorsIn = (issues: FileIssue[], prefix: string) =>
  issues.some((i) => i.level === 'error' && (i.path.file === prefix || i.path.file.startsWith(`${prefix}/`)));

/** Whether any error blocks the injection of a study folder. */
export function studyHasErrors(issues: FileIssue[], folder: string): boolean {
  return hasErrorsIn(issues, folder);
}
