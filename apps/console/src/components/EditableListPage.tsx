import { useCallback, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { useSearchParams } from 'react-router-dom';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { ConfirmItemDialog } from './ConfirmItemDialog';
import { DataTable, localPage } from './data-table';
import { readPaging, writePaging } from './data-table/use-url-table-state';
import { PageHeader } from './PageHeader';
import type { ListEditor } from './use-list-editor';

/** Page and size live in the URL; the handful of items is paged in the browser. */
function useUrlPaging() {
  const [params, setParams] = useSearchParams();
  const { page, limit: pageSize } = readPaging(params);
  const write = useCallback(
    (nextPage: number, nextSize: number) => {
      const next = new URLSearchParams();
      writePaging({ page: nextPage, limit: nextSize }, next);
      setParams(next, { replace: false });
    },
    [setParams],
  );
  return { page, pageSize, setPage: (p: number) => write(p, pageSize), setPageSize: (size: number) => write(1, size) };
}

interface EditableListPageProps<Item extends { id: string }> {
  title: string;
  /** the Add button's label; it shows only when `mayAdd` */
  addLabel: string;
  mayAdd: boolean;
  tableLabel: string;
  emptyText: string;
  /** the whole list, paged here */
  list: { data?: Item[]; isLoading: boolean; isFetching: boolean; error: unknown; refetch: () => unknown };
  // TanStack's column value type varies per column; `any` is its own recommended form here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Item, any>[];
  editor: ListEditor<Item>;
  /** the add / edit dialog, driven by `editor` */
  dialog: ReactNode;
  deleteTitle: (item: Item | null) => string;
  deleteMessage: string;
  /** while the confirmed delete runs */
  deleting: boolean;
  /** the confirmed delete; its outcome goes through `editor.confirmation.outcome` */
  onDelete: (item: Item) => void;
}

/** A list page of a few items (client-paged, page in the URL): its header with Add, the table, the add / edit dialog and the delete confirmation. */
export function EditableListPage<Item extends { id: string }>(props: EditableListPageProps<Item>) {
  const { editor } = props;
  const { confirmation } = editor;
  const { page, pageSize, setPage, setPageSize } = useUrlPaging();
  const shown = localPage(props.list, page, pageSize);

  return (
    <>
      <PageHeader
        title={props.title}
        actions={
          props.mayAdd && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={editor.add}>
              {props.addLabel}
            </Button>
          )
        }
      />
      <DataTable
        label={props.tableLabel}
        columns={props.columns}
        getRowId={(row) => row.id}
        pageSize={pageSize}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        emptyText={props.emptyText}
        {...shown}
      />
      {props.dialog}
      <ConfirmItemDialog confirmation={confirmation} title={props.deleteTitle(confirmation.item)} message={props.deleteMessage} busy={props.deleting} onConfirm={props.onDelete} />
    </>
  );
}
