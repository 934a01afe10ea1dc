import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useGrants } from '../../../auth/use-grants';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { ReadOnly } from '../../../components/read-only';
import { useConfirmation } from '../../../components/use-confirmation';
import { trpc } from '../../../trpc';
import { toApplications } from '../../../paths';
import type { ApplicationDetails } from '../types';
import { ApplicationSummaryCard } from './ApplicationSummaryCard';
import { BasicInfoCard } from './BasicInfoCard';
import { ClientSettingsCard } from './ClientSettingsCard';
import { PermissionsCard } from './PermissionsCard';
import { RolesCard } from './RolesCard';
import { ScopesCard } from './ScopesCard';
import { EntityHistoryPanel } from '../../../components/history/EntityHistoryPanel';

/** /applications/details/:id: the summary card, basic info, permissions, roles and (our additions) the scopes and the client settings. */
export default function ApplicationDetailsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const grants = useGrants();
  const utils = trpc.useUtils();
  const application = trpc.applications.byId.useQuery({ id }, { enabled: Boolean(id) });
  const remove = trpc.applications.delete.useMutation();
  const confirmation = useConfirmation<ApplicationDetails>();

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate(
      { id: deleting.app.id },
      confirmation.outcome(
        () => t('applications.delete.done', { title: deleting.app.title }),
        () => {
          void utils.applications.list.invalidate();
          void navigate(toApplications());
        },
      ),
    );
  };

  return (
    <>
      <PageHeader title={t('applications.detailsTitle')} />
      {!id ? (
        <Alert severity="info">{t('applications.noApplication')}</Alert>
      ) : application.isLoading ? (
        <LoadingState />
      ) : application.error || !application.data ? (
        <ErrorState error={application.error} onRetry={() => void application.refetch()} />
      ) : (
        <ReadOnly.Provider value={!grants.mayEverywhere('applications:write')}>
          <Box key={application.data.app.id} sx={{ display: 'grid', gap: 3 }}>
            <ApplicationSummaryCard application={application.data.app} onDelete={() => application.data && confirmation.ask(application.data)} />
            <BasicInfoCard application={application.data.app} />
            <ScopesCard application={application.data.app} />
            <PermissionsCard applicationId={application.data.app.id} permissions={application.data.permissions} />
            <RolesCard application={application.data} />
            <ClientSettingsCard application={application.data.app} />
            {grants.mayEverywhere('audit:read') ? (
              <Paper variant="outlined" sx={{ p: 2 }}>
                <EntityHistoryPanel kind="application" id={application.data.app.id} />
              </Paper>
            ) : null}
          </Box>
        </ReadOnly.Provider>
      )}
      <ConfirmDialog
        open={confirmation.open}
        title={t('applications.delete.title', { title: confirmation.item?.app.title ?? '' })}
        message={t('applications.delete.message')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
