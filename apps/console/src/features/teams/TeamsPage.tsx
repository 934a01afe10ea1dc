import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { TEAM_SORT_FIELDS } from '@rollcall/contracts';
import { PageHeader } from '../../components/PageHeader';
import { SearchField } from '../../components/SearchField';
import { useUrlTableState } from '../../components/data-table/use-url-table-state';
import { searchListInput } from '../../components/data-table/use-server-table';
import { CreateTeamDialog } from '../../components/teams/CreateTeamDialog';
import { TeamsTable } from '../../components/teams/TeamsTable';
import { useGrants } from '../../auth/use-grants';

/** /teams: every team, server-paged; page, size, search and sort live in the URL. */
export default function TeamsPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const { setFilters: _noFilters, ...table } = useUrlTableState({ sortFields: TEAM_SORT_FIELDS, defaultSort: 'created_at' });
  const { state } = table;
  // the shared teams table asks the list itself (an organization's Teams tab pages it without the URL)
  const input = useMemo(() => searchListInput(state), [state]);
  const [createOpen, setCreateOpen] = useState(false);

  return (
    <>
      <PageHeader
        title={t('teams.title')}
        actions={
          grants.may('teams:write') && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
              {t('teams.addButton')}
            </Button>
          )
        }
      />
      <TeamsTable
        label={t('teams.tableLabel')}
        input={input}
        withOrganization
        onPageChange={table.setPage}
        onPageSizeChange={table.setLimit}
        sort={{ sortBy: state.sortBy, desc: state.desc }}
        onSortChange={(sort) => table.setSort(sort.sortBy, sort.desc)}
        emptyText={t('teams.empty')}
        toolbar={
          <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, p: 2 }}>
            <SearchField label={t('teams.search')} value={state.search} onSearch={table.setSearch} />
          </Box>
        }
      />
      <CreateTeamDialog open={createOpen} onClose={() => setCreateOpen(false)} />
    </>
  );
}
