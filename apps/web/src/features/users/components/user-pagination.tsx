import { Pagination } from '@mantine/core';
import { PAGINATION_CONDENSE_FROM } from '@accord/contracts';

/**
 * Page list that shows every page below 11 pages and condenses with an ellipsis from 11 on
 * (document 1 section 9). Mantine shows all pages while siblings * 2 + 3 + boundaries * 2 >= pages.
 */
export function UserPagination({
  page,
  pages,
  onChange,
}: {
  page: number;
  pages: number;
  onChange: (page: number) => void;
}) {
  const siblings = pages < PAGINATION_CONDENSE_FROM ? Math.ceil((PAGINATION_CONDENSE_FROM - 1 - 5) / 2) : 1;
  const controlLabels = {
    first: 'First page',
    previous: 'Previous page',
    next: 'Next page',
    last: 'Last page',
  } as const;
  return (
    <nav aria-label="User list pages">
      <Pagination
        total={pages}
        value={Math.min(page, pages)}
        onChange={onChange}
        siblings={siblings}
        boundaries={1}
        size="sm"
        getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        getControlProps={(control) => ({ 'aria-label': controlLabels[control] })}
      />
    </nav>
  );
}
