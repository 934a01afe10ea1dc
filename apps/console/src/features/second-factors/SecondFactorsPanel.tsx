import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatInstant } from '../../lib/zone-label';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { ConfirmWithSecondFactorDialog } from './ConfirmWithSecondFactorDialog';
import { PasskeysSection } from './PasskeysSection';
import { RecoveryCodesList } from './RecoveryCodesList';
import { TotpEnrolment } from './TotpEnrolment';

/**
 * The signed-in account's own second factors (docs/adr/0025, 0029), for its own page: what is
 * enrolled, enrolling an authenticator app, its passkeys, new recovery codes, removing the app.
 * Removing a factor or replacing the codes asks for a current code or passkey first. No secret is
 * ever read back: the secret and the codes are shown only in the answer that made them.
 */
export function SecondFactorsPanel() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const mine = trpc.secondFactors.mine.useQuery();
  const [enrolling, setEnrolling] = useState(false);
  const [confirming, setConfirming] = useState<'remove' | 'regenerate' | null>(null);
  const refresh = () => void utils.secondFactors.mine.invalidate();
  const remove = trpc.secondFactors.removeTotp.useMutation({ onSuccess: () => (refresh(), setConfirming(null), notify(t('secondFactors.panel.removed'), 'success')) });
  const regenerate = trpc.secondFactors.regenerateRecoveryCodes.useMutation({ onSuccess: () => (refresh(), setConfirming(null)) });

  if (mine.isPending) return <LoadingState />;
  if (mine.isError) return <ErrorState error={mine.error} onRetry={() => void mine.refetch()} />;
  const status = mine.data;
  const totp = status.factors.find((factor) => factor.kind === 'totp');
  const hasPasskey = status.factors.some((factor) => factor.kind === 'passkey');
  const anyFactor = status.factors.length > 0;
  // the policy keeps the last factor (the server refuses too)
  const lastRequired = status.required && status.factors.length === 1;
  const when = (iso: string) => formatInstant(iso);
  return (
    <Box component="section" aria-labelledby="second-factors-title" sx={{ display: 'grid', gap: 2 }}>
      <Typography id="second-factors-title" variant="h6" component="h2">
        {t('secondFactors.panel.title')}
      </Typography>
      {status.required && !anyFactor && <Alert severity="warning">{t('secondFactors.panel.requiredMissing')}</Alert>}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="span">
          {t('secondFactors.panel.totp')}
        </Typography>
        <Chip size="small" color={totp ? 'success' : 'default'} label={totp ? t('secondFactors.panel.enrolled') : t('secondFactors.panel.notEnrolled')} />
      </Box>
      {totp && (
        <Typography variant="body2" color="text.secondary">
          {t('secondFactors.panel.enrolledAt', { at: when(totp.enrolled_at) })}
          {totp.last_used_at ? ` · ${t('secondFactors.panel.lastUsed', { at: when(totp.last_used_at) })}` : ''}
        </Typography>
      )}
      {anyFactor && (
        <Typography variant="body2" color={status.recovery_codes.remaining <= 3 ? 'warning.main' : 'text.secondary'}>
          {t('secondFactors.panel.recoveryCodesLeft', { count: status.recovery_codes.remaining })}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {!totp && (
          <Button variant="contained" onClick={() => setEnrolling(true)}>
            {t('secondFactors.panel.enrol')}
          </Button>
        )}
        {totp && (
          <Button color="error" onClick={() => (remove.reset(), setConfirming('remove'))} disabled={lastRequired}>
            {t('secondFactors.panel.remove')}
          </Button>
        )}
      </Box>
      {totp && lastRequired && (
        <Typography variant="caption" color="text.secondary">
          {t('secondFactors.panel.requiredKeep')}
        </Typography>
      )}

      <PasskeysSection status={status} onChanged={refresh} />
      {anyFactor && (
        <Box>
          <Button onClick={() => (regenerate.reset(), setConfirming('regenerate'))}>{t('secondFactors.panel.regenerate')}</Button>
        </Box>
      )}

      <Dialog open={enrolling} fullWidth maxWidth="xs" disableEscapeKeyDown aria-labelledby="enrol-totp-title">
        <DialogTitle id="enrol-totp-title">{t('secondFactors.enrol.title')}</DialogTitle>
        <DialogContent>
          {enrolling && (
            <TotpEnrolment
              confirmFirst={anyFactor ? { hasPasskey } : undefined}
              onCancel={() => setEnrolling(false)}
              onDone={() => {
                setEnrolling(false);
                refresh();
              }}
            />
          )}
        </DialogContent>
      </Dialog>
      <Dialog open={Boolean(regenerate.data)} fullWidth maxWidth="xs" disableEscapeKeyDown aria-labelledby="new-codes-title">
        <DialogTitle id="new-codes-title">{t('secondFactors.recoveryCodes.title')}</DialogTitle>
        <DialogContent>{regenerate.data && <RecoveryCodesList codes={regenerate.data.recovery_codes} onDone={() => regenerate.reset()} />}</DialogContent>
      </Dialog>
      {confirming === 'remove' && (
        <ConfirmWithSecondFactorDialog
          open
          title={t('secondFactors.panel.removeTitle')}
          message={t('secondFactors.panel.removeMessage')}
          hasPasskey={hasPasskey}
          busy={remove.isPending}
          error={remove.error}
          onConfirm={(confirmation) => remove.mutate({ confirmation })}
          onCancel={() => setConfirming(null)}
        />
      )}
      {confirming === 'regenerate' && (
        <ConfirmWithSecondFactorDialog
          open
          title={t('secondFactors.panel.regenerateTitle')}
          message={t('secondFactors.panel.regenerateMessage')}
          hasPasskey={hasPasskey}
          busy={regenerate.isPending}
          error={regenerate.error}
          onConfirm={(confirmation) => regenerate.mutate({ confirmation })}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Box>
  );
}
