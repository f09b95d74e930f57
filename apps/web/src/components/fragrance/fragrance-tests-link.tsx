import { FRAGRANCE_CODE_PATTERN } from '@accord/contracts';
import { ActionIcon, Anchor, Tooltip } from '@mantine/core';
import { IconTimeline } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

/** Whether a code opens a fragrance's page of every test (a 6-digit SAP code). */
export function isFragranceCode(code: string | null | undefined): boolean {
  return typeof code === 'string' && FRAGRANCE_CODE_PATTERN.test(code.trim());
}

/**
 * A fragrance's 6-digit code as a link to its page of every test; a missing or other code as text
 * ('-' when empty), as the tables show it.
 */
export function FragranceCodeLink({ code }: { code: string | null | undefined }) {
  const trimmed = code?.trim() ?? '';
  if (!isFragranceCode(trimmed)) return <>{trimmed || '-'}</>;
  return (
    <Anchor component={Link} to={paths.fragrance.href(trimmed)} size="sm">
      {trimmed}
    </Anchor>
  );
}

/**
 * A small icon link to a fragrance's page of every test, beside its name in a row; nothing without a
 * 6-digit code. `newTab` follows the row's other links (the analytics rows open profiles in a new tab).
 */
export function FragranceTestsIcon({
  code,
  name,
  newTab = false,
}: {
  code: string | null | undefined;
  name: string;
  newTab?: boolean;
}) {
  const trimmed = code?.trim() ?? '';
  if (!isFragranceCode(trimmed)) return null;
  const label = `Every test of ${name} (${trimmed})`;
  return (
    <Tooltip label={label} withArrow openDelay={200}>
      <ActionIcon
        component={Link}
        to={paths.fragrance.href(trimmed)}
        {...(newTab ? { target: '_blank', rel: 'noopener' } : {})}
        variant="subtle"
        size="sm"
        ml={4}
        aria-label={label}
        style={{ verticalAlign: 'middle' }}
      >
        <IconTimeline size={16} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}
