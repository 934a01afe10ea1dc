import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { ORGANIZATION_SORT_FIELDS, type TListOrganizationsInput } from '@rollcall/contracts';
import { DataTable } from '../../components/data-table';
import { searchListInput, SERVER_TABLE_QUERY, useServerTable } from '../../components/data-table/use-server-table';
import { PageHeader } from '../../components/PageHeader';
import { trpc } from '../../trpc';
import { CreateOrganizationDialog } from './CreateOrganizationDialog';
import { useOrganizationColumns } from './organization-columns';
import { SearchField } from '../../components/SearchField';
import { useGrants } from '../../auth/use-grants';

const useOrganizationsList = (input: TListOrganizationsInput) => trpc.organizations.list.useQuery(input, SERVER_TABLE_QUERY);

/** /organizations: server-paged list; page, size, search and sort live in the URL. */
export default function OrganizationsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const table = useServerTable(useOrganizationsList, { sort: { fields: ORGANIZATION_SORT_FIELDS, defaultSort: 'created_at' }, toInput: searchListInput });
  const columns = useOrganizationColumns();
  const [createOpen, setCreateOpen] = useState(false);

  return (
    <>
      <PageHeader
        title={t('organizations.title')}
        actions={
          grants.may('organizations:write') && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
              {t('organizations.addButton')}
            </Button>
          )
        }
      />
      <DataTable
        {...table.props}
        label={t('organizations.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        emptyText={t('organizations.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('organizations.search')} value={table.state.search} onSearch={table.setSearch} />
          </Box>
        }
      />
      <CreateOrganizationDialog open={createOpen} onClose={() => setCreateOpen(false)} />
    </>
  );
}
