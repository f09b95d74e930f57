import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { extensionsForFolder } from '@accord/contracts';
import { IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import type { useFileUpload } from '../hooks/use-file-upload.ts';

type Upload = ReturnType<typeof useFileUpload>;

/**
 * The Upload button of a file or folder (admins). It is disabled while an upload of this file is
 * under way; the file types offered are those the folder takes.
 */
export function UploadButton({
  upload,
  folder,
  label,
  resetRef,
}: {
  upload: Upload;
  folder: Parameters<typeof extensionsForFolder>[0];
  label: string;
  resetRef: React.RefObject<(() => void) | null>;
}) {
  const accept = extensionsForFolder(folder)
    .map((extension) => `.${extension}`)
    .join(',');
  return (
    <FileButton resetRef={resetRef} onChange={upload.select} accept={accept} disabled={upload.busy}>
      {(props) => (
        <Button
          {...props}
          size="compact-sm"
          variant="light"
          leftSection={<IconUpload size={16} aria-hidden="true" />}
          aria-label={label}
          disabled={upload.busy}
        >
          Upload
        </Button>
      )}
    </FileButton>
  );
}

/** The chosen file: '(old)' and '(new)' names with Confirm and Cancel (document 2 section 4). */
export function UploadSelection({
  upload,
  oldName,
  resetRef,
}: {
  upload: Upload;
  oldName?: string;
  resetRef: React.RefObject<(() => void) | null>;
}) {
  const chosen = upload.file;
  if (!chosen) return null;
  // Clearing the hidden input lets the same file be chosen again.
  const clearInput = () => resetRef.current?.();
  return (
    <Stack
      gap={4}
      p="xs"
      mt={6}
      aria-label="Upload to confirm"
      role="group"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      {oldName ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span c="dimmed" size="sm">
            (old){' '}
          </Text>
          {oldName}
        </Text>
      ) : null}
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Text span c="dimmed" size="sm">
          (new){' '}
        </Text>
        {chosen.name}
      </Text>
      <Group gap="xs">
        <Button
          size="compact-sm"
          onClick={() => {
            clearInput();
            void upload.confirm();
          }}
          disabled={upload.busy}
          loading={upload.busy}
        >
          Confirm
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => {
            clearInput();
            upload.cancel();
          }}
          disabled={upload.busy}
        >
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

export function useUploadInputReset() {
  return useRef<() => void>(null);
}
