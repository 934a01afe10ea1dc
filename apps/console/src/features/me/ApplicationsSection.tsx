import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/api-error';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { formatInstant } from '../../lib/zone-label';
import { trpc } from '../../trpc';

/**
 * The applications the account let see its data through single sign-on, what each may see (the
 * scopes it agreed to), and Revoke: the application's tokens stop working now and its next sign-in asks again.
 */
export function ApplicationsSection() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const consents = trpc.me.consents.useQuery();
  const [revoking, setRevoking] = useState<{ id: string; title: string } | null>(null);
  const revoke = trpc.me.revokeConsent.useMutation({
    onSuccess: async () => {
      setRevoking(null);
      notify(t('me.applications.revoked'), 'success');
      await utils.me.consents.invalidate();
    },
    onError: (error) => {
      setRevoking(null);
      notify(describeError(error, t), 'error');
    },
  });
  if (consents.isPending) return <LoadingState />;
  if (consents.isError) return <ErrorState error={consents.error} onRetry={() => void consents.refetch()} />;

  return (
    <Box component="section" aria-labelledby="me-applications-title">
      <Typography id="me-applications-title" variant="h6" component="h2" gutterBottom>
        {t('me.applications.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('me.applications.intro')}
      </Typography>
      {consents.data.length === 0 ? (
        <Typography variant="body2">{t('me.applications.none')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
          {consents.data.map((consent) => (
            <Paper component="li" key={consent.application_id} variant="outlined" sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {consent.application_title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {t('me.applications.since', { at: formatInstant(consent.given_at) })}
                </Typography>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }} aria-label={t('me.applications.scopes')}>
                  {consent.scopes.map((scope) => (
                    <Chip key={scope} size="small" label={t(`me.applications.scope.${scope}`, { defaultValue: scope })} />
                  ))}
                </Box>
              </Box>
              <Button color="error" onClick={() => setRevoking({ id: consent.application_id, title: consent.application_title })} aria-label={t('me.applications.revokeNamed', { name: consent.application_title })}>
                {t('me.applications.revoke')}
              </Button>
            </Paper>
          ))}
        </Box>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={t('me.applications.confirmTitle', { name: revoking?.title ?? '' })}
        message={t('me.applications.confirm')}
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ application_id: revoking.id })}
      />
    </Box>
  );
}
