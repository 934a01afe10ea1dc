import { useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { describeError, getApiError } from '../../api/api-error';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { toMe } from '../../paths';
import { trpc } from '../../trpc';
import { secondFactorsSummary } from './second-factors-summary';

/**
 * An administrator's reset of an account's second factors (docs/adr/0025): what the account has
 * enrolled, and a button that asks for a reason (kept in the account's history) before removing its
 * authenticator app and recovery codes, e.g. after a lost phone. The server checks the permission
 * (accounts:credentials over the whole account); without it the card is not shown. On the
 * administrator's own account, which the server never resets (second_factor.reset_own_account: one's
 * own factors go on one's own page, each with a current factor), the card points to that page instead.
 */
export function ResetSecondFactorsCard({ accountId }: { accountId: string }) {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 60_000 });
  if (!me.data) return null;
  return me.data.id === accountId ? <OwnSecondFactorsCard /> : <AdministratorResetCard accountId={accountId} />;
}

/** the administrator's own account: its second factors are its own page's, each change confirmed there */
function OwnSecondFactorsCard() {
  const { t } = useTranslation();
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="subtitle1" component="h3">
          {t('secondFactors.reset.card')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('secondFactors.reset.ownAccount')}
        </Typography>
        <Box>
          <Button variant="outlined" component={RouterLink} to={`${toMe()}?tab=security`}>
            {t('secondFactors.reset.ownPage')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

function AdministratorResetCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const titleId = useId();
  const utils = trpc.useUtils();
  const status = trpc.secondFactors.ofAccount.useQuery({ id: accountId });
  const reset = trpc.secondFactors.reset.useMutation();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (!status.data) return null;
  const enrolled = status.data.factors.length > 0 || status.data.totp_pending;
  const reasonErrors = getApiError(reset.error)?.fields?.reason;
  const close = () => {
    setOpen(false);
    setReason('');
    reset.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate(
      { id: accountId, reason },
      {
        onSuccess: () => {
          notify(t('secondFactors.reset.done'), 'success');
          void utils.secondFactors.ofAccount.invalidate({ id: accountId });
          close();
        },
      },
    );
  };
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="subtitle1" component="h3">
          {t('secondFactors.reset.card')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {secondFactorsSummary(status.data, t)}
        </Typography>
        <Box>
          <Button variant="outlined" color="error" disabled={!enrolled} onClick={() => setOpen(true)}>
            {t('secondFactors.reset.button')}
          </Button>
        </Box>
      </CardContent>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <Box component="form" noValidate onSubmit={submit}>
          <DialogTitle id={titleId}>{t('secondFactors.reset.title')}</DialogTitle>
          <DialogContent sx={{ display: 'grid', gap: 2 }}>
            <Typography variant="body2">{t('secondFactors.reset.message')}</Typography>
            {reset.error && !reasonErrors && (
              <Alert severity="error" role="alert">
                {describeError(reset.error, t)}
              </Alert>
            )}
            <TextField
              label={t('secondFactors.reset.reason')}
              name="reason"
              required
              multiline
              minRows={2}
              autoFocus
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              error={Boolean(reasonErrors)}
              helperText={reasonErrors?.join(' ') ?? t('secondFactors.reset.reasonHint')}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={close}>{t('secondFactors.reset.cancel')}</Button>
            <Button type="submit" variant="contained" color="error" loading={reset.isPending}>
              {t('secondFactors.reset.confirm')}
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Card>
  );
}
