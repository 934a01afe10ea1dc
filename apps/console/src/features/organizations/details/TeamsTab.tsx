import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_OPTIONS, type TOrganizationSearchItem } from '@rollcall/contracts';
import { CreateTeamDialog } from '../../../components/teams/CreateTeamDialog';
import { TeamsTable } from '../../../components/teams/TeamsTable';

/** An organization's Teams tab: ID, Title (inline edit), Members, Created at, Actions; Add Team with the organization preset. */
export function TeamsTab({ organization }: { organization: TOrganizationSearchItem }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZE_OPTIONS[0]);
  const [createOpen, setCreateOpen] = useState(false);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {t('teams.organizationTab.heading')}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
          {t('teams.organizationTab.add')}
        </Button>
      </Box>
      <TeamsTable
        label={t('teams.organizationTab.tableLabel', { title: organization.title })}
        input={{ page, limit: pageSize, organization_id: organization.id }}
        withOrganization={false}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        emptyText={t('teams.organizationTab.empty')}
      />
      <CreateTeamDialog open={createOpen} organization={{ id: organization.id, title: organization.title }} onClose={() => setCreateOpen(false)} />
    </>
  );
}
