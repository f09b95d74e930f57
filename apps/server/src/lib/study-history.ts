/**
 * The one way a study change is recorded: every edit by anyone (details, tables, tags, bulk edit,
 * file uploads and swaps) writes study_edit_history rows through here, inside the transaction of
 * the change itself, so a change and its history are saved together or not at all.
 */
import type { Db } from '../db/client.ts';
import { studyEditHistory } from '../db/schema.ts';

/** Who changed what, and when. */
export interface StudyEditAudit {
  userId: number;
  userEmail: string;
  now: Date;
}

/** One changed field: its server name, the value before and after. */
export interface StudyFieldChange {
  field: string;
  old_value: unknown;
  new_value: unknown;
}

export type StudyEditType = (typeof studyEditHistory.$inferInsert)['type'];

/** Anything that can insert: the database handle or an open transaction. */
export type HistoryWriter = Pick<Db, 'insert'>;

/** Writes one history row per entry that has changes; entries without changes are skipped. */
export async function recordStudyEdits(
  writer: HistoryWriter,
  audit: StudyEditAudit,
  entries: { studyId: number; type: StudyEditType; changes: StudyFieldChange[] }[],
): Promise<void> {
  const rows = entries
    .filter((entry) => entry.changes.length > 0)
    .map((entry) => ({
      studyId: entry.studyId,
      userId: audit.userId,
      userEmail: audit.userEmail,
      type: entry.type,
      changeDate: audit.now,
      changes: entry.changes,
    }));
  if (rows.length > 0) await writer.insert(studyEditHistory).values(rows);
}

/** Same tag value, ignoring the order of a list. */
export function sameTagValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = [...(a as unknown[])].map(String).sort();
    const right = [...(b as unknown[])].map(String).sort();
    return left.length === right.length && left.every((value, index) => value === right[index]);
  }
  return (a ?? null) === (b ?? null);
}
