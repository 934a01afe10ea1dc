import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useTranslation } from 'react-i18next';
import type { TListAccountsInput } from '@rollcall/contracts';
import { AccountStatusFilter } from '../../components/AccountStatusFilter';
import { DataTable } from '../../components/data-table';
import { SERVER_TABLE_QUERY, useServerTable } from '../../components/data-table/use-server-table';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useLive } from '../../live/use-live';
import { trpc } from '../../trpc';
import { useAccountColumns } from './account-columns';
import { accountsListLive } from './accounts.live';
import { ACCOUNT_STATUSES_STALE_MS, accountsTableSort, statusFilter, toAccountsListInput } from './accounts-list-query';
import { useGrants } from '../../auth/use-grants';
import { lazyDialog } from '../../lib/lazy-dialog';

const CreateAccountDialog = lazyDialog(async () => (await import('./CreateAccountDialog')).CreateAccountDialog);
const ImportAccountsDialog = lazyDialog(async () => (await import('./import/ImportAccountsDialog')).ImportAccountsDialog);

const useAccountsList = (input: TListAccountsInput) => trpc.accounts.list.useQuery(input, SERVER_TABLE_QUERY);

/** /accounts: server-paged list; page, size, search, status filter and sort live in the URL. */
export default function AccountsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const table = useServerTable(useAccountsList, { sort: accountsTableSort, filters: statusFilter, toInput: toAccountsListInput });
  const { state } = table;
  const columns = useAccountColumns();
  const statuses = trpc.accounts.statuses.useQuery(undefined, { staleTime: ACCOUNT_STATUSES_STALE_MS });
  const [createOpen, setCreateOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  useLive(trpc.live.accounts, { cache: [accountsListLive] });

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
        {...table.props}
        label={t('accounts.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        emptyText={t('accounts.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('accounts.search')} value={state.search} onSearch={table.setSearch} />
            <AccountStatusFilter
              options={statuses.data ?? []}
              loading={statuses.isLoading}
              value={state.status}
              onChange={(status) => table.setFilters({ status })}
            />
          </Box>
        }
      />
      <CreateAccountDialog open={createOpen} onClose={() => setCreateOpen(false)} />
      <ImportAccountsDialog open={importOpen} onClose={() => setImportOpen(false)} />
    </>
  );
}
