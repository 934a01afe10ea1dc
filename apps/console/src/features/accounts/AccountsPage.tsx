import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { AccountStatusFilter } from '../../components/AccountStatusFilter';
import { DataTable, pageQueryProps } from '../../components/data-table';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useLive } from '../../live/use-live';
import { trpc } from '../../trpc';
import { useAccountColumns } from './account-columns';
import { useAccountsTableState } from './use-accounts-table-state';
import { accountsListLive } from './accounts.live';
import { useGrants } from '../../auth/use-grants';
import { lazyDialog } from '../../lib/lazy-dialog';

const CreateAccountDialog = lazyDialog(async () => (await import('./CreateAccountDialog')).CreateAccountDialog);
const ImportAccountsDialog = lazyDialog(async () => (await import('./import/ImportAccountsDialog')).ImportAccountsDialog);

/** /accounts: server-paged list; page, size, search, status filter and sort live in the URL. */
export default function AccountsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const table = useAccountsTableState();
  const { state, setPage, setSearch } = table;
  const columns = useAccountColumns();
  const list = trpc.accounts.list.useQuery(table.input, { placeholderData: keepPreviousData });
  const statuses = trpc.accounts.statuses.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [createOpen, setCreateOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  useLive(trpc.live.accounts, { cache: [accountsListLive] });

  // A page beyond the last one (rows removed meanwhile) moves to the last page.
  const lastPage = list.data?.last_page;
  useEffect(() => {
    if (lastPage && list.data?.total && state.page > lastPage) setPage(lastPage);
  }, [lastPage, list.data?.total, state.page, setPage]);

  return (
    <>
      <PageHeader
        title={t('accounts.title')}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {grants.mayEverywhere('accounts:import') && (
              <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setImportOpen(true)}>
                {t('accounts.import.button')}
              </Button>
            )}
            {grants.may('accounts:write') && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
                {t('accounts.createButton')}
              </Button>
            )}
          </Box>
        }
      />
      <DataTable
        {...pageQueryProps(list)}
        label={t('accounts.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        page={state.page}
        pageSize={state.limit}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={table.setLimit}
        sort={{ sortBy: state.sortBy, desc: state.desc }}
        onSortChange={(sort) => table.setSort(sort.sortBy, sort.desc)}
        emptyText={t('accounts.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('accounts.search')} value={state.search} onSearch={setSearch} />
            <AccountStatusFilter
              options={statuses.data ?? []}
              loading={statuses.isLoading}
              value={state.status}
              onChange={table.setStatus}
            />
          </Box>
        }
      />
      <CreateAccountDialog open={createOpen} onClose={() => setCreateOpen(false)} />
      <ImportAccountsDialog open={importOpen} onClose={() => setImportOpen(false)} />
    </>
  );
}
