import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { PageHeader } from '../../components/PageHeader';
import { useLive } from '../../live/use-live';
import { LiveChip, LiveNotice, isStale, staleSx } from '../../live/LiveStatus';
import { useUnknownCardNotices } from '../../live/UnknownCardNotices';
import { trpc } from '../../trpc';
import { toAccount } from '../../paths';
import { browserTimeZone, zonedTime } from '../../lib/zone-label';
import { groupPresence } from './group-presence';
import { presenceLive } from './presence.live';

/** /presence: who is in right now (an open slot that still counts), per organization and team, updated as scans land. */
export default function PresencePage() {
  const { t } = useTranslation();
  const presence = trpc.arrivalsDepartures.presence.useQuery({});
  const unknownCards = useUnknownCardNotices();
  const live = useLive(trpc.live.attendance, { cache: [presenceLive], onMessages: unknownCards.onMessages });
  const groups = useMemo(() => groupPresence(presence.data?.present ?? [], { organization: t('presence.noOrganization'), team: t('presence.noTeam') }), [presence.data, t]);

  return (
    <>
      <PageHeader
        title={t('presence.title')}
        actions={
          <>
            <LiveChip connection={live} />
            {presence.data ? <Chip color={isStale(live) ? 'default' : 'success'} label={t('presence.total', { count: presence.data.total })} /> : null}
          </>
        }
      />
      <LiveNotice connection={live} />
      {unknownCards.element}
      <Box sx={staleSx(live)} aria-busy={isStale(live)} data-stale={isStale(live) || undefined}>
        {presence.isLoading ? (
          <LoadingState />
        ) : presence.error ? (
          <ErrorState error={presence.error} onRetry={() => void presence.refetch()} />
        ) : groups.length === 0 ? (
          <Typography color="text.secondary">{t('presence.empty')}</Typography>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))' }}>
            {groups.map((group) => (
              <Card key={group.id ?? 'none'} component="section" aria-label={group.title}>
                <CardHeader title={group.title} subheader={t('presence.total', { count: group.present.length })} slotProps={{ title: { component: 'h2', variant: 'h5' } }} />
                <CardContent sx={{ pt: 0 }}>
                  {group.teams.map((team) => (
                    <Box key={team.id ?? 'none'} sx={{ mb: 1 }}>
                      <Typography variant="subtitle2" color="text.secondary">
                        {team.title} ({team.present.length})
                      </Typography>
                      <List dense disablePadding aria-label={`${group.title}: ${team.title}`}>
                        {team.present.map((person) => (
                          <ListItem key={person.account_id} disableGutters>
                            <ListItemText
                              primary={
                                <Link component={RouterLink} to={toAccount(person.account_id)}>
                                  {person.account_name || person.username_readable}
                                </Link>
                              }
                              secondary={t('presence.since', {
                              time: (({ time, zone }) => `${time} ${zone}`)(zonedTime(person.arrived_at, person.time_zone ?? browserTimeZone())),
                              // a slot added by hand has no door: it says so instead
                              door: person.door || t('attendance.manual'),
                            })}
                            />
                          </ListItem>
                        ))}
                      </List>
                    </Box>
                  ))}
                </CardContent>
              </Card>
            ))}
          </Box>
        )}
      </Box>
    </>
  );
}
