import { useCallback, useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { APPLICATION_SORT_FIELDS, PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { useGrants } from '../../auth/use-grants';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable, pageQueryProps } from '../../components/data-table';
import { useUrlTableState } from '../../components/data-table/use-url-table-state';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useConfirmation } from '../../components/use-confirmation';
import { trpc } from '../../trpc';
import { useApplicationColumns } from './application-columns';
import { CreateApplicationDialog } from './CreateApplicationDialog';
import type { ApplicationRow } from './types';

/** /applications: every application, server-paged; page, size, search and sort live in the URL. */
export default function ApplicationsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const mayWrite = grants.mayEverywhere('applications:write');
  const utils = trpc.useUtils();
  const { setFilters: _noFilters, ...table } = useUrlTableState({ sortFields: APPLICATION_SORT_FIELDS, defaultSort: 'created_at' });
  const { state } = table;
  const input = useMemo(() => ({ page: state.page, limit: state.limit, search: state.search || undefined, sortBy: state.sortBy, desc: state.desc }), [state]);
  const list = trpc.applications.list.useQuery(input, { placeholderData: keepPreviousData });
  const remove = trpc.applications.delete.useMutation();
  const [createOpen, setCreateOpen] = useState(false);
  const confirmation = useConfirmation<ApplicationRow>();
  const askToConfirm = confirmation.ask;
  const askDelete = useCallback((application: ApplicationRow) => askToConfirm(application), [askToConfirm]);
  const columns = useApplicationColumns({ onDelete: askDelete, mayWrite });

  // A page beyond the last one (rows removed meanwhile) moves to the last page.
  const lastPage = list.data?.last_page;
  const { setPage } = table;
  useEffect(() => {
    if (lastPage && list.data?.total && input.page > lastPage) setPage(lastPage);
  }, [lastPage, list.data?.total, input.page, setPage]);

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate({ id: deleting.id }, confirmation.outcome(() => t('applications.delete.done', { title: deleting.title }), () => void utils.applications.invalidate()));
  };

  return (
    <>
      <PageHeader
        title={t('applications.title')}
        actions={
          mayWrite && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
              {t('applications.addButton')}
            </Button>
          )
        }
      />
      <DataTable
        {...pageQueryProps(list)}
        label={t('applications.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        page={input.page}
        pageSize={input.limit}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={table.setPage}
        onPageSizeChange={table.setLimit}
        sort={{ sortBy: state.sortBy, desc: state.desc }}
        onSortChange={(sort) => table.setSort(sort.sortBy, sort.desc)}
        emptyText={t('applications.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('applications.search')} value={state.search} onSearch={table.setSearch} />
          </Box>
        }
      />
      <CreateApplicationDialog open={createOpen} onClose={() => setCreateOpen(false)} />
      <ConfirmDialog
        open={confirmation.open}
        title={t('applications.delete.title', { title: confirmation.item?.title ?? '' })}
        message={t('applications.delete.message')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
