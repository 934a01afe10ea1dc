import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ComputerIcon from '@mui/icons-material/Computer';
import TerminalIcon from '@mui/icons-material/Terminal';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import AppsIcon from '@mui/icons-material/Apps';
import { useTranslation } from 'react-i18next';
import type { TOwnSession } from '@rollcall/contracts';
import { describeError } from '../../api/api-error';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { formatInstant } from '../../lib/zone-label';
import { trpc } from '../../trpc';

const KIND_ICONS = { browser: ComputerIcon, api: TerminalIcon, unknown: HelpOutlineIcon, application: AppsIcon } as const;

/**
 * Every open session of the account: when it signed in and from where, when it was last seen and
 * with what (a browser, a program using the API); sign out one other, or all others. The session in
 * use is marked and cannot be signed out here (Log out does that). An application signed in through
 * OpenID Connect is listed too; signing it out revokes its access (its consent).
 */
export function SessionsSection() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const sessions = trpc.me.sessions.useQuery();
  const [confirming, setConfirming] = useState<TOwnSession | 'others' | null>(null);
  const done = {
    onSuccess: async () => {
      setConfirming(null);
      notify(t(confirming === 'others' ? 'me.sessions.othersSignedOut' : 'me.sessions.signedOut'), 'success');
      await Promise.all([utils.me.sessions.invalidate(), utils.me.consents.invalidate()]);
    },
    onError: (error: unknown) => {
      setConfirming(null);
      notify(describeError(error, t), 'error');
    },
  };
  const signOutOne = trpc.me.signOutSession.useMutation(done);
  const signOutOthers = trpc.me.signOutOtherSessions.useMutation(done);

  if (sessions.isPending) return <LoadingState />;
  if (sessions.isError) return <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />;
  // 'all other sessions' end the applications' sign-ins too (their tokens go, their consents stay: review R24b F2)
  const others = sessions.data.filter((session) => !session.current).length;
  const application = confirming !== null && confirming !== 'others' && confirming.kind === 'application' ? confirming : null;

  return (
    <Box component="section" aria-labelledby="me-sessions-title">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 2 }}>
        <Typography id="me-sessions-title" variant="h6" component="h2">
          {t('me.sessions.title')}
        </Typography>
        <Button variant="outlined" color="error" disabled={others === 0} onClick={() => setConfirming('others')}>
          {t('me.sessions.signOutOthers')}
        </Button>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {sessions.data.map((session) => {
          const Icon = KIND_ICONS[session.kind];
          const what = session.client ?? t('me.sessions.unnamed');
          return (
            <Paper component="li" key={session.id} variant="outlined" aria-label={what} sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
              <Icon color="action" aria-hidden="true" sx={{ mt: 0.5 }} />
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
                    {what}
                  </Typography>
                  <Chip size="small" label={t(`me.sessions.kind.${session.kind}`)} />
                  {session.current ? <Chip size="small" color="primary" label={t('me.sessions.current')} /> : null}
                </Box>
                {session.kind === 'application' ? (
                  <>
                    <Typography variant="body2" color="text.secondary">
                      {t('me.sessions.signedInApplication', { at: formatInstant(session.started_at) })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('me.sessions.lastTokenIssued', { at: formatInstant(session.last_seen_at) })}
                    </Typography>
                  </>
                ) : (
                  <>
                    <Typography variant="body2" color="text.secondary">
                      {t('me.sessions.signedIn', { at: formatInstant(session.started_at), from: session.signed_in_from ?? t('me.sessions.unknownAddress') })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {session.last_seen_at
                        ? t('me.sessions.lastSeen', { at: formatInstant(session.last_seen_at), from: session.last_seen_from ?? t('me.sessions.unknownAddress') })
                        : t('me.sessions.notSeen')}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('me.sessions.expires', { at: formatInstant(session.expires_at) })}
                    </Typography>
                  </>
                )}
              </Box>
              {session.current ? null : (
                <Button color="error" onClick={() => setConfirming(session)} aria-label={t('me.sessions.signOutNamed', { name: what })} sx={{ flexShrink: 0 }}>
                  {t('me.sessions.signOut')}
                </Button>
              )}
            </Paper>
          );
        })}
      </Box>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'others' ? t('me.sessions.confirmOthersTitle') : application ? t('me.sessions.confirmApplicationTitle', { name: application.client ?? '' }) : t('me.sessions.confirmOneTitle')}
        message={confirming === 'others' ? t('me.sessions.confirmOthers', { count: others }) : application ? t('me.sessions.confirmApplication') : t('me.sessions.confirmOne')}
        busy={signOutOne.isPending || signOutOthers.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming === 'others') signOutOthers.mutate();
          else if (confirming) signOutOne.mutate({ id: confirming.id });
        }}
      />
    </Box>
  );
}
