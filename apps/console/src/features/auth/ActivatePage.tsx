import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TActivationInfo } from '@rollcall/contracts';
import { describeError, getApiError } from '../../api/api-error';
import { CountedTextField } from '../../components/CountedTextField';
import { LoadingState } from '../../components/LoadingState';
import { trpc } from '../../trpc';
import { toSignIn } from '../../paths';

/**
 * /activate/:token, public: the link of an activation e-mail. The owner of an account awaiting
 * activation chooses the first password under the account's policy; the link then stops working.
 */
export default function ActivatePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = trpc.accounts.activation.useQuery({ token }, { retry: false, staleTime: Infinity, refetchOnWindowFocus: false });
  const activate = trpc.accounts.activate.useMutation();

  let content;
  if (activate.isSuccess) {
    content = (
      <>
        <Alert severity="success" sx={{ mb: 3 }} role="status">
          {t('activate.done', { username: activate.data.username })}
        </Alert>
        <Button component={RouterLink} to={toSignIn()} variant="contained" size="large" fullWidth>
          {t('activate.signIn')}
        </Button>
      </>
    );
  } else if (info.isLoading) {
    content = <LoadingState />;
  } else if (info.error || !info.data) {
    content = (
      <>
        <Alert severity="error" sx={{ mb: 3 }} role="alert">
          {getApiError(info.error)?.code === 'activation.invalid' ? t('activate.invalid') : describeError(info.error, t)}
        </Alert>
        <Button component={RouterLink} to={toSignIn()} variant="outlined" fullWidth>
          {t('activate.signIn')}
        </Button>
      </>
    );
  } else {
    content = <ActivateForm token={token} info={info.data} activate={activate} />;
  }

  return (
    <Paper component="section" variant="outlined" aria-labelledby="activate-title" sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
      <Typography id="activate-title" variant="h5" component="h1" gutterBottom>
        {t('activate.title')}
      </Typography>
      {content}
    </Paper>
  );
}

function ActivateForm({ token, info, activate }: { token: string; info: TActivationInfo; activate: ReturnType<typeof trpc.accounts.activate.useMutation> }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const apiError = getApiError(activate.error);
  const fields = apiError?.fields ?? {};
  const placed = Boolean(fields.password?.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    activate.mutate({ token, password });
  };

  const rules = info.policy
    ? [t('activate.ruleLength', { count: info.policy.min_length }), ...(info.policy.min_strength > 0 ? [t('activate.ruleStrength', { score: info.policy.min_strength })] : [])]
    : [t('activate.ruleAny')];

  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('activate.intro')}
      </Typography>
      <Typography variant="body1" sx={{ mb: 2 }}>
        {t('activate.account')} <strong data-testid="activation-username">{info.username}</strong>
      </Typography>
      <Alert severity="info" sx={{ mb: 2 }} aria-label={t('activate.rules')}>
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {rules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </Box>
      </Alert>
      {activate.error && !placed && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {apiError?.code === 'activation.invalid' ? t('activate.invalid') : describeError(activate.error, t)}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }} aria-label={t('activate.title')}>
        {/* lets password managers store the new password under the right name */}
        <input type="text" name="username" autoComplete="username" value={info.username} readOnly hidden />
        <CountedTextField
          label={t('activate.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onValueChange={(value) => {
            setPassword(value);
            setMismatch(false);
            activate.reset();
          }}
          errors={fields.password}
          hint={t('accounts.auth.newPasswordHint')}
        />
        <TextField
          label={t('activate.confirm')}
          name="confirm_password"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => {
            setConfirm(event.target.value);
            setMismatch(false);
          }}
          error={mismatch}
          helperText={mismatch ? t('activate.mismatch') : ' '}
          slotProps={{ htmlInput: { maxLength: 255 } }}
        />
        <Button type="submit" variant="contained" size="large" loading={activate.isPending} disabled={!password || !confirm}>
          {t('activate.submit')}
        </Button>
      </Box>
    </>
  );
}
