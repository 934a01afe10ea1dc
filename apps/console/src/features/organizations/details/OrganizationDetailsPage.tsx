import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { trpc } from '../../../trpc';
import { DeleteOrganizationDialog } from '../DeleteOrganizationDialog';
import { toOrganizations } from '../../../paths';
import type { OrganizationDetails } from '../types';
import { DetailsTab } from './DetailsTab';
import { MembersTab } from './MembersTab';
import { OrganizationSummaryCard } from './OrganizationSummaryCard';
import { PermissionsTab } from './PermissionsTab';
import { RolesTab } from './RolesTab';
import { SubOrganizationsTab } from './SubOrganizationsTab';
import { TeamsTab } from './TeamsTab';
import { EntityHistoryPanel } from '../../../components/history/EntityHistoryPanel';
import { useGrants } from '../../../auth/use-grants';
import { ReadOnly } from '../../../components/read-only';

/** /organizations/details/:id: the summary card, then the tabs. */
export default function OrganizationDetailsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const organization = trpc.organizations.byId.useQuery({ id }, { enabled: Boolean(id) });
  const [deleting, setDeleting] = useState<OrganizationDetails | null>(null);
  const grants = useGrants();

  return (
    <>
      <PageHeader title={t('organizations.detailsTitle')} />
      {!id ? (
        <Alert severity="info">{t('organizations.noOrganization')}</Alert>
      ) : organization.isLoading ? (
        <LoadingState />
      ) : organization.error || !organization.data ? (
        <ErrorState error={organization.error} onRetry={() => void organization.refetch()} />
      ) : (
        <>
          <ReadOnly.Provider value={!grants.mayIn('organizations:write', organization.data.id)}>
            <OrganizationSummaryCard organization={organization.data} onDelete={() => setDeleting(organization.data ?? null)} />
            <OrganizationTabs key={organization.data.id} organization={organization.data} />
          </ReadOnly.Provider>
          <DeleteOrganizationDialog organization={deleting} onClose={() => setDeleting(null)} onDeleted={() => void navigate(toOrganizations())} />
        </>
      )}
    </>
  );
}

/** The spec's tabs, in its order, then the organization's history. */
const TABS = ['sub-organizations', 'details', 'members', 'permissions', 'roles', 'teams', 'history'] as const;
type TabName = (typeof TABS)[number];
const isTab = (value: string | null): value is TabName => (TABS as readonly (string | null)[]).includes(value);

/** The open tab is in the URL (?tab=), so a reload or a shared link keeps it. */
function OrganizationTabs({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  // the history only for who may read the audit trail here
  const mayReadHistory = useGrants().mayIn('audit:read', organization.id);
  const shown = TABS.filter((name) => name !== 'history' || mayReadHistory);
  const tab: TabName = isTab(requested) && shown.includes(requested) ? requested : 'sub-organizations';
  const baseId = useId();
  const select = (_event: unknown, next: TabName) => {
    const nextParams = new URLSearchParams(params);
    if (next === 'sub-organizations') nextParams.delete('tab');
    else nextParams.set('tab', next);
    setParams(nextParams, { replace: true });
  };
  const labels: Record<TabName, string> = {
    'sub-organizations': t('organizations.tabs.subOrganizations'),
    details: t('organizations.tabs.details'),
    members: t('organizations.tabs.members'),
    permissions: t('organizations.tabs.permissions'),
    roles: t('organizations.tabs.roles'),
    teams: t('teams.organizationTab.label'),
    history: t('history.tab'),
  };
  return (
    <Box sx={{ mt: 3 }}>
      <Tabs value={tab} onChange={select} aria-label={t('organizations.tabs.label')} variant="scrollable" allowScrollButtonsMobile sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        {shown.map((name) => (
          <Tab key={name} value={name} label={labels[name]} id={`${baseId}-tab-${name}`} aria-controls={`${baseId}-panel-${name}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'sub-organizations' ? <SubOrganizationsTab organization={organization} /> : null}
        {tab === 'details' ? <DetailsTab organization={organization} /> : null}
        {tab === 'members' ? <MembersTab organization={organization} /> : null}
        {tab === 'permissions' ? <PermissionsTab organization={organization} /> : null}
        {tab === 'roles' ? <RolesTab organization={organization} /> : null}
        {tab === 'teams' ? <TeamsTab organization={organization} /> : null}
        {tab === 'history' ? <EntityHistoryPanel kind="organization" id={organization.id} /> : null}
      </Box>
    </Box>
  );
}
