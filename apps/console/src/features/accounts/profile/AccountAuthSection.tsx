import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TAccountAuth } from '@rollcall/contracts';
import { describeError, getApiError } from '../../../api/api-error';
import { CountedTextField } from '../../../components/CountedTextField';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { formatInstant } from '../../../lib/zone-label';
import { useStatusLabel } from '../../../lib/use-status-label';
import { trpc } from '../../../trpc';
import { ResetSecondFactorsCard } from '../ResetSecondFactorsCard';

/** Spec tab 7: 'Account status and Reset password', two cards side by side. */
export function AccountAuthSection({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const auth = trpc.accounts.auth.useQuery({ id: accountId });
  return (
    <Box component="section" aria-labelledby="account-auth-heading" sx={{ mt: 3 }}>
      <Typography id="account-auth-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('accounts.auth.title')}
      </Typography>
      {auth.isLoading ? (
        <LoadingState />
      ) : auth.error || !auth.data ? (
        <ErrorState error={auth.error} onRetry={() => void auth.refetch()} />
      ) : (
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          {/* keyed by what the server holds: a change elsewhere starts the card from the new values */}
          <AccountStatusCard key={`${auth.data.status_id}:${auth.data.policy_id ?? ''}`} accountId={accountId} auth={auth.data} />
          <ResetPasswordCard accountId={accountId} policyGoverned={auth.data.policy_id !== null} />
          <ResetSecondFactorsCard accountId={accountId} />
        </Box>
      )}
    </Box>
  );
}

function AccountStatusCard({ accountId, auth }: { accountId: string; auth: TAccountAuth }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const statusLabel = useStatusLabel();
  const utils = trpc.useUtils();
  const statuses = trpc.accounts.statuses.useQuery(undefined, { staleTime: Infinity });
  const [statusId, setStatusId] = useState(String(auth.status_id));
  const [enforced, setEnforced] = useState(auth.policy_id !== null);
  const [policyId, setPolicyId] = useState(auth.policy_id ?? '');
  const policies = trpc.policies.list.useQuery(undefined, { enabled: enforced, staleTime: 60_000 });
  const setAuth = trpc.accounts.setAuth.useMutation();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      // spec section 4: re-read the auth info, then write it back with only the one field replaced
      let current = await utils.accounts.auth.fetch({ id: accountId }, { staleTime: 0 });
      const wantedPolicy = enforced ? policyId || null : null;
      if (Number(statusId) !== current.status_id) {
        current = await setAuth.mutateAsync({ id: accountId, username: current.username, policy_id: current.policy_id, status_id: Number(statusId) });
      }
      if (wantedPolicy !== current.policy_id) {
        current = await setAuth.mutateAsync({ id: accountId, username: current.username, status_id: current.status_id, policy_id: wantedPolicy });
      }
      setErrors({});
      notify(t('accounts.auth.statusChanged'), 'success');
      utils.accounts.auth.setData({ id: accountId }, current);
      void utils.accounts.byId.invalidate({ id: accountId });
      void utils.accounts.list.invalidate();
    } catch (error) {
      setErrors(getApiError(error)?.fields ?? {});
      notify(describeError(error, t), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label={t('accounts.auth.statusCard')} sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="subtitle1" component="h3">
            {t('accounts.auth.statusCard')}
          </Typography>
          <TextField label={t('accounts.auth.username')} value={auth.username} slotProps={{ htmlInput: { readOnly: true } }} />
          {auth.locked_until && <LockoutNotice accountId={accountId} lockedUntil={auth.locked_until} />}
          {auth.status_id === AWAITING_ACTIVATION && <ActivationNotice accountId={accountId} />}
          <TextField
            select
            label={t('accounts.auth.status')}
            name="status_id"
            value={statuses.data ? statusId : ''}
            onChange={(event) => setStatusId(event.target.value)}
            error={Boolean(errors.status_id?.length)}
            helperText={errors.status_id?.join(' ')}
          >
            {statuses.data?.map((status) => (
              <MenuItem key={status.id} value={String(status.id)}>
                {statusLabel(status.id, status.label)}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel label={t('accounts.auth.enforcePolicy')} control={<Switch checked={enforced} onChange={(event) => setEnforced(event.target.checked)} />} />
          {enforced && (
            <TextField
              select
              label={t('accounts.auth.policy')}
              name="policy_id"
              value={policies.data ? policyId : ''}
              onChange={(event) => setPolicyId(event.target.value)}
              error={Boolean(errors.policy_id?.length)}
              helperText={errors.policy_id?.join(' ')}
            >
              {policies.data?.length === 0 && (
                <MenuItem value="" disabled>
                  {t('accounts.create.noPolicies')}
                </MenuItem>
              )}
              {policies.data?.map((policy) => (
                <MenuItem key={policy.id} value={String(policy.id)}>
                  {policy.title}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Box>
            <Button type="submit" variant="contained" loading={saving}>
              {t('accounts.auth.save')}
            </Button>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}

const AWAITING_ACTIVATION = 4;

/** A policy lockout is in force: when it ends, and a way to end it now. */
function LockoutNotice({ accountId, lockedUntil }: { accountId: string; lockedUntil: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const unlock = trpc.accounts.unlock.useMutation({
    onSuccess: (auth) => {
      utils.accounts.auth.setData({ id: accountId }, auth);
      notify(t('accounts.auth.unlocked'), 'success');
    },
    onError: (error) => notify(describeError(error, t), 'error'),
  });
  return (
    <Alert
      severity="warning"
      role="status"
      action={
        <Button color="inherit" size="small" loading={unlock.isPending} onClick={() => unlock.mutate({ id: accountId })}>
          {t('accounts.auth.unlock')}
        </Button>
      }
    >
      {t('accounts.auth.lockedUntil', { until: formatInstant(lockedUntil) })}
    </Alert>
  );
}

/** The owner has not set a first password yet: the activation mail can be sent again (the old link dies). */
function ActivationNotice({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const resend = trpc.accounts.resendActivation.useMutation({
    onSuccess: () => notify(t('accounts.auth.activationSent'), 'success'),
    onError: (error) => notify(describeError(error, t), 'error'),
  });
  return (
    <Alert
      severity="info"
      role="status"
      action={
        <Button color="inherit" size="small" loading={resend.isPending} onClick={() => resend.mutate({ id: accountId })}>
          {t('accounts.auth.resendActivation')}
        </Button>
      }
    >
      {t('accounts.auth.awaitingActivation')}
    </Alert>
  );
}

type ResetMode = 'next-login' | 'manual' | null;

function ResetPasswordCard({ accountId, policyGoverned }: { accountId: string; policyGoverned: boolean }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const requireChange = trpc.accounts.requirePasswordChange.useMutation();
  const setPassword = trpc.accounts.setPassword.useMutation();
  const [mode, setMode] = useState<ResetMode>(null);
  const [password, setPasswordText] = useState('');
  const [passwordErrors, setPasswordErrors] = useState<string[] | undefined>();

  // the two switches exclude each other (spec section 4)
  const toggle = (which: Exclude<ResetMode, null>) => (on: boolean) => setMode(on ? which : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'next-login') {
      requireChange.mutate(
        { id: accountId },
        {
          onSuccess: (auth) => {
            utils.accounts.auth.setData({ id: accountId }, auth);
            void utils.accounts.byId.invalidate({ id: accountId });
            void utils.accounts.list.invalidate();
            notify(t('accounts.auth.statusChanged'), 'success');
            setMode(null);
          },
          onError: (error) => notify(describeError(error, t), 'error'),
        },
      );
    } else if (mode === 'manual') {
      setPassword.mutate(
        { id: accountId, password },
        {
          onSuccess: () => {
            setPasswordErrors(undefined);
            setPasswordText('');
            notify(t('accounts.auth.passwordUpdated'), 'success');
            void utils.accounts.auth.invalidate({ id: accountId });
            void utils.accounts.byId.invalidate({ id: accountId });
          },
          onError: (error) => {
            const fields = getApiError(error)?.fields ?? {};
            // the error is kept under the field; a policy-governed change also says so (spec section 8)
            setPasswordErrors(fields.password ?? [describeError(error, t)]);
            if (policyGoverned) notify(t('accounts.auth.passwordUpdateFailed'), 'error');
          },
        },
      );
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Box component="form" noValidate onSubmit={submit} aria-label={t('accounts.auth.resetCard')} sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="subtitle1" component="h3">
            {t('accounts.auth.resetCard')}
          </Typography>
          <FormControlLabel label={t('accounts.auth.nextLogin')} control={<Switch checked={mode === 'next-login'} onChange={(event) => toggle('next-login')(event.target.checked)} />} />
          <FormControlLabel label={t('accounts.auth.manual')} control={<Switch checked={mode === 'manual'} onChange={(event) => toggle('manual')(event.target.checked)} />} />
          {mode === 'manual' && (
            <CountedTextField
              type="password"
              label={t('accounts.auth.newPassword')}
              name="password"
              autoComplete="new-password"
              value={password}
              onValueChange={(value) => {
                setPasswordText(value);
                setPasswordErrors(undefined);
              }}
              errors={passwordErrors}
              hint={t('accounts.auth.newPasswordHint')}
            />
          )}
          <Box>
            <Button type="submit" variant="contained" disabled={mode === null || (mode === 'manual' && !password)} loading={requireChange.isPending || setPassword.isPending}>
              {t('accounts.auth.updatePassword')}
            </Button>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
