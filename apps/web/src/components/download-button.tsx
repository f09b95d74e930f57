import { ActionIcon, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/** The download icon of a results panel: a named button with a tooltip saying what it downloads. */
export function DownloadButton({
  tooltip,
  label,
  loading = false,
  disabled = false,
  onClick,
}: {
  tooltip: string;
  /** The button's accessible name. */
  label: string;
  loading?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip label={tooltip} withArrow>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={label}
        loading={loading}
        disabled={disabled}
        onClick={onClick}
      >
        <IconDownload size={18} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}
