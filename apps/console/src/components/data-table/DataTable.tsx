import { Fragment, useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../ErrorState';
import { LoadingState } from '../LoadingState';
import { DataTableFooter } from './DataTableFooter';

export interface ServerSort {
  sortBy: string;
  desc: boolean;
}

export interface DataTableProps<TRow> {
  /** Accessible name of the table. */
  label: string;
  // TanStack's column value type varies per column; `any` is its own recommended form here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<TRow, any>[];
  rows: TRow[] | undefined;
  getRowId: (row: TRow) => string;
  /** Server paging: 1-based page, page size, total records and the server's from/to. */
  page: number;
  pageSize: number;
  pageSizeOptions: readonly number[];
  total: number;
  from?: number | null;
  to?: number | null;
  onPageChange: (page: number) => void;
  /** A page-size change returns to page 1 (spec); the caller receives only the new size. */
  onPageSizeChange: (pageSize: number) => void;
  sort?: ServerSort;
  onSortChange?: (sort: ServerSort) => void;
  isLoading: boolean;
  isFetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  emptyText?: string;
  toolbar?: ReactNode;
  /**
   * The row shown expanded, one at a time, and what shows under it across the whole width. A cell
   * reads `row.getIsExpanded()` and calls `row.toggleExpanded()` (ExpandRowButton).
   */
  expandedRowId?: string | null;
  onExpandedRowChange?: (rowId: string | null) => void;
  renderExpandedRow?: (row: TRow) => ReactNode;
}

/**
 * The one server-paged table of the console, on TanStack Table with manual paging and sorting:
 * the server pages and sorts, the table renders and reports what the admin asked for.
 */
export function DataTable<TRow>(props: DataTableProps<TRow>) {
  const { t } = useTranslation();
  const captionId = useId();
  const { rows, page, pageSize, total, sort } = props;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const sorting: SortingState = sort ? [{ id: sort.sortBy, desc: sort.desc }] : [];
  const expanded: Record<string, boolean> = props.expandedRowId ? { [props.expandedRowId]: true } : {};

  // The console does not use the React Compiler; TanStack Table's unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<TRow>({
    data: rows ?? [],
    columns: props.columns,
    getRowId: props.getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    sortDescFirst: false,
    pageCount,
    state: { pagination: { pageIndex: page - 1, pageSize }, sorting, expanded },
    getRowCanExpand: () => Boolean(props.renderExpandedRow),
    onExpandedChange: (updater: Updater<ExpandedState>) => {
      const next = typeof updater === 'function' ? updater(expanded) : updater;
      // one row at a time: the newly opened one wins, closing the last leaves none
      const open = next === true ? [] : Object.keys(next).filter((id) => next[id]);
      const opened = open.find((id) => id !== props.expandedRowId);
      props.onExpandedRowChange?.(opened ?? (open.length ? (props.expandedRowId ?? null) : null));
    },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      if (first && props.onSortChange) props.onSortChange({ sortBy: first.id, desc: first.desc });
    },
  });

  const columnCount = table.getVisibleLeafColumns().length;
  const hasRows = (rows?.length ?? 0) > 0;

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {props.toolbar}
      {props.error && hasRows ? (
        <Box sx={{ px: 2, pb: 1 }}>
          <ErrorState error={props.error} onRetry={props.onRetry} />
        </Box>
      ) : null}
      <Box sx={{ height: 4 }}>{props.isFetching && !props.isLoading ? <LinearProgress aria-label={t('common.loading')} /> : null}</Box>
      {/* a keyboard can scroll a table wider than a phone even when no row holds a link or button */}
      <TableContainer tabIndex={0} role="region" aria-labelledby={captionId}>
        <Table size="small" aria-labelledby={captionId} sx={{ minWidth: 720 }}>
          <caption id={captionId} style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            {props.label}
          </caption>
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <TableCell
                      key={header.id}
                      scope="col"
                      sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                      aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : undefined}
                    >
                      {header.column.getCanSort() && props.onSortChange ? (
                        <TableSortLabel
                          active={Boolean(sorted)}
                          direction={sorted === 'desc' ? 'desc' : 'asc'}
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          {content}
                        </TableSortLabel>
                      ) : (
                        content
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableHead>
          <TableBody>
            {props.isLoading ? (
              <TableRow>
                <TableCell colSpan={columnCount}>
                  <LoadingState minHeight={120} />
                </TableCell>
              </TableRow>
            ) : props.error && !hasRows ? (
              <TableRow>
                <TableCell colSpan={columnCount}>
                  <ErrorState error={props.error} onRetry={props.onRetry} />
                </TableCell>
              </TableRow>
            ) : !hasRows ? (
              <TableRow>
                <TableCell colSpan={columnCount}>
                  <Typography sx={{ py: 4, textAlign: 'center' }} color="text.secondary">
                    {props.emptyText ?? t('table.empty')}
                  </Typography>
                </TableCell>
              </TableRow>
            ) : (
              table.getRowModel().rows.map((row) => {
                const isExpanded = Boolean(props.renderExpandedRow) && row.getIsExpanded();
                return (
                  <Fragment key={row.id}>
                    <TableRow hover sx={isExpanded ? { '& > td': { borderBottom: 0 } } : undefined}>
                      {row.getVisibleCells().map((cell) => (
                        <TableCell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</TableCell>
                      ))}
                    </TableRow>
                    {isExpanded ? (
                      <TableRow>
                        <TableCell colSpan={columnCount} sx={{ bgcolor: 'action.hover', py: 2 }}>
                          {/* on a phone the table scrolls sideways: what it shows stays in view and as wide as the screen */}
                          <Box sx={{ position: 'sticky', left: 16, maxWidth: 'min(100%, calc(100vw - 64px))' }}>{props.renderExpandedRow?.(row.original)}</Box>
                        </TableCell>
                      </TableRow>
                    ) : null}
                  </Fragment>
                );
              })
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <DataTableFooter
        page={page}
        pageCount={pageCount}
        pageSize={pageSize}
        pageSizeOptions={props.pageSizeOptions}
        total={total}
        from={props.from ?? (hasRows ? (page - 1) * pageSize + 1 : 0)}
        to={props.to ?? (hasRows ? (page - 1) * pageSize + (rows?.length ?? 0) : 0)}
        onPageChange={props.onPageChange}
        onPageSizeChange={props.onPageSizeChange}
      />
    </Paper>
  );
}
