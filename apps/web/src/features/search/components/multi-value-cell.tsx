import { Anchor, Text } from '@mantine/core';
import { useState } from 'react';
import { cellItems, EMPTY_CELL } from '../utils/format-cell.ts';

const PREVIEW = 2;

/** A multi-value cell: the first 2 items, then a '(N) more' toggle that shows the rest. */
export function MultiValueCell({ value }: { value: readonly (string | null)[] | string | null | undefined }) {
  const [open, setOpen] = useState(false);
  const items = cellItems(value as readonly (string | null)[]);
  if (items.length === 0) return <>{EMPTY_CELL}</>;
  const hidden = items.length - PREVIEW;
  const shown = open || hidden <= 0 ? items : items.slice(0, PREVIEW);
  return (
    <Text span size="sm">
      {shown.join(', ')}
      {hidden > 0 ? (
        <>
          {' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
          >
            {open ? 'less' : `(${hidden}) more`}
          </Anchor>
        </>
      ) : null}
    </Text>
  );
}
