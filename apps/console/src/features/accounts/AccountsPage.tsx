import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { AccountStatusFilter } from '../../components/AccountStatusFilter';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/PageHeader';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-debounced-value';
import { trpc } from '../../trpc';
import { useAccountColumns } from './account-columns';
import { CreateAccountDialog } from './CreateAccountDialog';
import { ImportAccountsDialog } from './import/ImportAccountsDialog';
import { useAccountsTableState } from './use-accounts-table-state';
import { useLiveAccounts } from './use-live-accounts';

/** /accounts: server-paged list; page, size, search, status filter and sort live in the URL. */
export default function AccountsPage() {
  const { t } = useTranslation();
  const table = useAccountsTableState();
  const { state, setPage, setSearch } = table;
  const columns = useAccountColumns();
  const list = trpc.accounts.list.useQuery(table.input, { placeholderData: keepPreviousData });
  const statuses = trpc.accounts.statuses.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [createOpen, setCreateOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  useLiveAccounts();

  // Search: typed text reaches the URL 300 ms after the last keystroke.
  const [searchText, setSearchText] = useState(state.search);
  const searchTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(searchTimer.current), []);
  const onSearchChange = (value: string) => {
    setSearchText(value);
    window.clearTimeout(searchTimer.current);
    searchTimer.current = window.setTimeout(() => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  };
  // The URL changed by itself (back button, a link): show its search.
  const [syncedSearch, setSyncedSearch] = useState(state.search);
  if (state.search !== syncedSearch) {
    setSyncedSearch(state.search);
    if (state.search !== searchText.trim()) setSearchText(state.search);
  }

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
            <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setImportOpen(true)}>
              {t('accounts.import.button')}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
              {t('accounts.createButton')}
            </Button>
          </Box>
        }
      />
      <DataTable
        label={t('accounts.tableLabel')}
        columns={columns}
        rows={list.data?.data}
        getRowId={(row) => row.id}
        page={state.page}
        pageSize={state.limit}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        total={list.data?.total ?? 0}
        from={list.data?.from}
        to={list.data?.to}
        onPageChange={setPage}
        onPageSizeChange={table.setLimit}
        sort={{ sortBy: state.sortBy, desc: state.desc }}
        onSortChange={(sort) => table.setSort(sort.sortBy, sort.desc)}
        isLoading={list.isLoading}
        isFetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        emptyText={t('accounts.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <TextField
              type="search"
              label={t('accounts.search')}
              value={searchText}
              onChange={(event) => onSearchChange(event.target.value)}
              sx={{ flex: '1 1 260px', maxWidth: 420 }}
              slotProps={{
                htmlInput: { maxLength: 255 },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
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
