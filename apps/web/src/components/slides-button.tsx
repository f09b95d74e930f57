import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPresentation } from '@tabler/icons-react';

/**
 * "Download slides" of a results panel: beside its spreadsheet download, the same answer as a
 * PowerPoint deck of native charts; the tooltip names the file.
 */
export function SlidesButton({
  fileName,
  label,
  loading = false,
  disabled = false,
  onClick,
}: {
  fileName: string;
  /** The button's accessible name ("Download slides of the results"). */
  label: string;
  loading?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip label={`Download slides: ${fileName}`} withArrow>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={label}
        loading={loading}
        disabled={disabled}
        onClick={onClick}
      >
        <IconPresentation size={18} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}
