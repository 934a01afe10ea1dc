import { useState } from 'react';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';

/**
 * The page and size of a table kept in its component (a tab's or a card's list), and what the
 * DataTable takes to change them: a size change returns to page 1 (spec). The page is left out of
 * `tableProps`: a browser-paged list passes the page `localPage` shows, a server-paged one `page`.
 */
export function useLocalPaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const tableProps = {
    pageSize,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    onPageChange: setPage,
    onPageSizeChange: (size: number) => {
      setPageSize(size);
      setPage(1);
    },
  };
  return { page, pageSize, tableProps };
}
