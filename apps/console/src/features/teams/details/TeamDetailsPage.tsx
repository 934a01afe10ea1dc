import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useGrants } from '../../../auth/use-grants';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { EntityId } from '../../../components/EntityId';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { EntityHistoryPanel } from '../../../components/history/EntityHistoryPanel';
import { TeamTitleCell } from '../../../components/teams/TeamTitleCell';
import { useConfirmation } from '../../../components/use-confirmation';
import { formatInstant } from '../../../lib/zone-label';
import { toOrganization, toTeams } from '../../../paths';
import { trpc } from '../../../trpc';
import type { TeamDetails } from '../../../components/teams/types';
import { TeamMembersCard } from './TeamMembersCard';

/**
 * /teams/details/:id: the team (title edited in place as on the list; the description as created),
 * its members (added and removed here, paged) and its history. A breadcrumb leads back to /teams.
 */
export default function TeamDetailsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const grants = useGrants();
  const utils = trpc.useUtils();
  const team = trpc.teams.byId.useQuery({ id }, { enabled: Boolean(id) });
  const remove = trpc.teams.delete.useMutation();
  const confirmation = useConfirmation<TeamDetails>();
  const mayWrite = grants.may('teams:write');

  const confirmDelete = () => {
    const deleting = confirmation.item;
    if (!deleting) return;
    remove.mutate(
      { id: deleting.id },
      confirmation.outcome(
        () => t('teams.delete.done', { title: deleting.title }),
        () => {
          void utils.teams.invalidate();
          void navigate(toTeams());
        },
      ),
    );
  };

  const data = team.data;
  return (
    <>
      <PageHeader
        title={data?.title ?? t('teams.details.title')}
        crumbs={[{ label: t('teams.title'), to: toTeams() }]}
        actions={
          data && mayWrite ? (
            <Button color="error" variant="outlined" startIcon={<DeleteIcon />} disabled={data.protected} title={data.protected ? t('teams.protected') : undefined} onClick={() => confirmation.ask(data)}>
              {t('teams.menu.delete')}
            </Button>
          ) : null
        }
      />
      {team.isLoading ? (
        <LoadingState />
      ) : team.error || !data ? (
        <ErrorState error={team.error} onRetry={() => void team.refetch()} />
      ) : (
        <Box key={data.id} sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 3 }}>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="team-details-heading">
            <Typography id="team-details-heading" variant="h6" component="h2" gutterBottom>
              {t('teams.details.heading')}
            </Typography>
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' }, columnGap: 3, rowGap: { xs: 0.25, sm: 1.5 }, m: 0, '& dt': { color: 'text.secondary', mt: { xs: 1, sm: 0 } }, '& dd': { m: 0, minWidth: 0 } }}>
              <Typography component="dt" variant="body2">
                {t('teams.fields.title')}
              </Typography>
              <Box component="dd">{mayWrite ? <TeamTitleCell teamId={data.id} title={data.title} /> : <Typography variant="body2">{data.title}</Typography>}</Box>
              <Typography component="dt" variant="body2">
                {t('teams.fields.description')}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} color={data.description ? 'text.primary' : 'text.secondary'}>
                {data.description || t('teams.details.noDescription')}
              </Typography>
              <Typography component="dt" variant="body2">
                {t('teams.fields.organization')}
              </Typography>
              <Typography component="dd" variant="body2">
                {data.organization && data.organization_title ? (
                  <Link component={RouterLink} to={toOrganization(data.organization)}>
                    {data.organization_title}
                  </Link>
                ) : data.interorg ? (
                  t('teams.multiOrganization')
                ) : (
                  t('teams.noOrganization')
                )}
              </Typography>
              <Typography component="dt" variant="body2">
                {t('teams.columns.members')}
              </Typography>
              <Typography component="dd" variant="body2">
                {data.num_members}
              </Typography>
              <Typography component="dt" variant="body2">
                {t('teams.columns.createdAt')}
              </Typography>
              <Typography component="dd" variant="body2">
                {formatInstant(data.created_at)}
              </Typography>
              <Typography component="dt" variant="body2">
                {t('teams.columns.id')}
              </Typography>
              <Box component="dd">
                <EntityId id={data.id} full />
              </Box>
            </Box>
          </Paper>
          <TeamMembersCard team={data} mayWrite={mayWrite} />
          {grants.may('audit:read') ? (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <EntityHistoryPanel kind="team" id={data.id} />
            </Paper>
          ) : null}
        </Box>
      )}
      <ConfirmDialog
        open={confirmation.open}
        title={t('teams.delete.title', { title: confirmation.item?.title ?? '' })}
        message={t('teams.delete.message')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={confirmation.cancel}
      />
    </>
  );
}
