import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS } from '@rollcall/contracts';
import { DataTable, pageQueryProps } from '../../components/data-table';
import { PageHeader } from '../../components/PageHeader';
import { trpc } from '../../trpc';
import { CreateOrganizationDialog } from './CreateOrganizationDialog';
import { useOrganizationColumns } from './organization-columns';
import { SearchField } from '../../components/SearchField';
import { useOrganizationsTableState } from './use-organizations-table-state';
import { useGrants } from '../../auth/use-grants';

/** /organizations: server-paged list; page, size, search and sort live in the URL. */
export default function OrganizationsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const table = useOrganizationsTableState();
  const { state, setPage } = table;
  const columns = useOrganizationColumns();
  const list = trpc.organizations.list.useQuery(table.input, { placeholderData: keepPreviousData });
  const [createOpen, setCreateOpen] = useState(false);

  // A page beyond the last one (rows removed meanwhile) moves to the last page.
  const lastPage = list.data?.last_page;
  useEffect(() => {
    if (lastPage && list.data?.total && state.page > lastPage) setPage(lastPage);
  }, [lastPage, list.data?.total, state.page, setPage]);

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
        {...pageQueryProps(list)}
        label={t('organizations.tableLabel')}
        columns={columns}
        getRowId={(row) => row.id}
        page={state.page}
        pageSize={state.limit}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        onPageChange={setPage}
        onPageSizeChange={table.setLimit}
        sort={{ sortBy: state.sortBy, desc: state.desc }}
        onSortChange={(sort) => table.setSort(sort.sortBy, sort.desc)}
        emptyText={t('organizations.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('organizations.search')} value={state.search} onSearch={table.setSearch} />
          </Box>
        }
      />
      <CreateOrganizationDialog open={createOpen} onClose={() => setCreateOpen(false)} />
    </>
  );
}
