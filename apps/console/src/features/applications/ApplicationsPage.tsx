import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { APPLICATION_SORT_FIELDS, type TListApplicationsInput } from '@rollcall/contracts';
import { useGrants } from '../../auth/use-grants';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/data-table';
import { searchListInput, SERVER_TABLE_QUERY, useServerTable } from '../../components/data-table/use-server-table';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useConfirmation } from '../../components/use-confirmation';
import { trpc } from '../../trpc';
import { useApplicationColumns } from './application-columns';
import { CreateApplicationDialog } from './CreateApplicationDialog';
import type { ApplicationRow } from './types';

const useApplicationsList = (input: TListApplicationsInput) => trpc.applications.list.useQuery(input, SERVER_TABLE_QUERY);

/** /applications: every application, server-paged; page, size, search and sort live in the URL. */
export default function ApplicationsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const mayWrite = grants.mayEverywhere('applications:write');
  const utils = trpc.useUtils();
  const table = useServerTable(useApplicationsList, { sort: { fields: APPLICATION_SORT_FIELDS, defaultSort: 'created_at' }, toInput: searchListInput });
  const remove = trpc.applications.delete.useMutation();
  const [createOpen, setCreateOpen] = useState(false);
  const confirmation = useConfirmation<ApplicationRow>();
  const askToConfirm = confirmation.ask;
  const askDelete = useCallback((application: ApplicationRow) => askToConfirm(application), [askToConfirm]);
  const columns = useApplicationColumns({ onDelete: askDelete, mayWrite });

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
        {...table.props}
        label={t('applications.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        emptyText={t('applications.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('applications.search')} value={table.state.search} onSearch={table.setSearch} />
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
