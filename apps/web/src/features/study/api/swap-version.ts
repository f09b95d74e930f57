import { SwapVersionResponse, type StudyFolder } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

export interface SwapVersionInput {
  studyId: number;
  fileName: string;
  versionId: number;
  filetype: string;
  folder: StudyFolder;
}

/** POST /api/study/{id}/swap-version-file/{filename}/{versionId}: make that version current (admins). */
export function swapVersion(input: SwapVersionInput): Promise<SwapVersionResponse> {
  return apiJson(
    `/study/${input.studyId}/swap-version-file/${encodeURIComponent(input.fileName)}/${input.versionId}`,
    SwapVersionResponse,
    {
      method: 'POST',
      body: { filetype: input.filetype, foldertype: input.folder },
      handledStatuses: [400],
    },
  );
}

/** A swap refreshes everything about the study's files; a failed swap is only logged (document 2 section 8). */
export function useSwapVersionMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: swapVersion,
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: studyKeys.detail(input.studyId) }),
    onError: (error) => console.error('The version swap failed:', error),
  });
}
