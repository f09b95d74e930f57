import {
  ALERT_ERROR_MS,
  type StudyDetailsResponse,
  type StudyTagDefinition,
  type TagValue,
} from '@accord/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { showAlert } from '../../../lib/alerts.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { incoherentFieldsOf, useUpdateStudyMutation } from '../api/update-study.ts';
import {
  EDIT_MESSAGES,
  badFields,
  badFieldsMessage,
  buildUpdateRequest,
  detailInputKind,
  inputProblem,
  toInputValue,
  type EditField,
  type InputValue,
} from '../utils/details-edit.ts';

type Details = StudyDetailsResponse['details'];

export interface DetailsEditField extends EditField {
  label: string;
  definition: StudyTagDefinition | undefined;
}

/** Every field of the details groups, with its label and the input it gets. */
function editFields(details: Details, definitions: readonly StudyTagDefinition[]): DetailsEditField[] {
  const byField = new Map(definitions.map((definition) => [definition.field, definition]));
  return Object.values(details).flatMap((group) =>
    Object.entries(group).map(([field, entry]) => {
      const definition = byField.get(field);
      const kind = detailInputKind(field, definition);
      const shown: TagValue = entry.value;
      return {
        field,
        label: entry.label,
        definition,
        kind,
        shown,
        initial: toInputValue(kind, field, shown),
      };
    }),
  );
}

/**
 * The study details edit mode (document 2 section 4, admins): switching on copies the shown values
 * into inputs and clears the incoherence flags; saving sends only the changed fields with their old
 * values; cancelling restores the shown values. A refused edit keeps edit mode and the inputs, marks
 * the bad fields until edit mode is switched on again and says which fields in a 'Failed!' alert.
 */
export function useDetailsEdit(
  studyId: number,
  details: Details | undefined,
  definitions: readonly StudyTagDefinition[] | undefined,
) {
  const [fields, setFields] = useState<DetailsEditField[] | null>(null);
  const [values, setValues] = useState<Record<string, InputValue>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [incoherent, setIncoherent] = useState<Record<string, string>>({});
  const update = useUpdateStudyMutation(studyId);

  const editing = fields !== null;
  const saving = update.isPending;

  const begin = useCallback(() => {
    if (!details || !definitions) return;
    const next = editFields(details, definitions);
    setFields(next);
    setValues(Object.fromEntries(next.map((entry) => [entry.field, entry.initial])));
    setProblems({});
    setIncoherent({});
  }, [details, definitions]);

  const cancel = useCallback(() => {
    if (saving) return;
    setFields(null);
    setValues({});
    setProblems({});
  }, [saving]);

  const change = useCallback((field: string, value: InputValue) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);

  const save = useCallback(async () => {
    if (!fields || saving) return;
    const found = Object.fromEntries(
      fields
        .filter((entry) => entry.kind !== 'readonly')
        .map((entry) => [
          entry.field,
          inputProblem(entry.kind, entry.field, entry.label, values[entry.field] ?? ''),
        ])
        .filter((pair): pair is [string, string] => pair[1] !== null),
    );
    if (Object.keys(found).length > 0) {
      setProblems(found);
      return;
    }
    const request = buildUpdateRequest(fields, values);
    if (!request) {
      setFields(null);
      return;
    }
    try {
      const answer = await update.mutateAsync(request);
      showAlert('success', answer.message, undefined, EDIT_MESSAGES.successTitle);
      setFields(null);
      setIncoherent({});
    } catch (error) {
      const incoherentFields = incoherentFieldsOf(error);
      const bad = incoherentFields ? badFields(incoherentFields) : [];
      if (incoherentFields && bad.length > 0 && isApiError(error)) {
        const labelOf = (field: string) => fields.find((entry) => entry.field === field)?.label ?? field;
        showAlert(
          'danger',
          badFieldsMessage(error.message, bad.map(labelOf)),
          ALERT_ERROR_MS,
          EDIT_MESSAGES.failedTitle,
        );
        setIncoherent(Object.fromEntries(bad.map((field) => [field, incoherentFields[field]![0]!])));
        return;
      }
      // Someone else changed the study meanwhile: say so; the page shows the stored values again.
      const changedMeanwhile = isApiError(error) && error.status === 409;
      const message = changedMeanwhile ? error.message : EDIT_MESSAGES.tryAgain;
      showAlert('danger', message, ALERT_ERROR_MS, EDIT_MESSAGES.failedTitle);
      // A refused save keeps edit mode and what the user typed, so it can be corrected and sent
      // again; without an answer (document 2 section 8) the old values come back.
      if (changedMeanwhile || !isApiError(error)) setFields(null);
    }
  }, [fields, saving, update, values]);

  // Escape also cancels when nothing has the focus (after a click on the page's background).
  useEffect(() => {
    if (!editing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && event.target === document.body) cancel();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [editing, cancel]);

  const errors = useMemo(() => ({ ...incoherent, ...problems }), [incoherent, problems]);

  return { editing, saving, fields, values, errors, begin, cancel, change, save };
}

export type DetailsEdit = ReturnType<typeof useDetailsEdit>;
