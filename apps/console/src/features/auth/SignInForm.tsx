import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';
import { authStore } from '../../api/auth-store';
import { trpc } from '../../trpc';
import { homeFor } from '../../layouts/nav-items';
import { CredentialsFields, type Credentials } from '../../components/CredentialsFields';
import { toChangePassword, toEnrolSecondFactor, toIndex } from '../../paths';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { SecondFactorStep } from './SecondFactorStep';

type SignInAnswer = ReturnType<typeof trpc.auth.signIn.useMutation>['data'];

/**
 * Username, password, 'Sign in'; then, for an account with a second factor, its code (docs/adr/0025).
 * The token is kept in memory; the server also sets the cookie.
 */
export function SignInForm({ notice }: { notice?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const [credentials, setCredentials] = useState<Credentials>({ username: '', password: '' });
  const { notify } = useSnackbar();
  const signIn = trpc.auth.signIn.useMutation();
  const completeSignIn = trpc.auth.completeSignIn.useMutation();
  const [challenge, setChallenge] = useState<string | null>(null);
  const fieldErrors = getApiError(signIn.error)?.fields ?? {};

  const proceed = (answer: SignInAnswer) => {
    if (!answer) return;
    if (answer.status === 'second_factor_required') {
      completeSignIn.reset();
      setChallenge(answer.second_factor.challenge);
      return;
    }
    const { token, account, password_change_required, second_factor_enrolment_required, recovery_codes_remaining } = answer;
    authStore.setToken(token);
    queryClient.removeQueries();
    utils.auth.me.setData(undefined, account);
    if (recovery_codes_remaining !== null) notify(t('secondFactors.signIn.recoveryCodesLeft', { count: recovery_codes_remaining }), 'notice');
    // such a session may do nothing else until the password is changed, or a second factor enrolled
    const next = password_change_required ? toChangePassword() : second_factor_enrolment_required ? toEnrolSecondFactor() : (homeFor(account.grants) ?? toIndex());
    void navigate(next, { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(credentials, { onSuccess: proceed });
  };

  return (
    <Paper component="section" variant="outlined" aria-labelledby="sign-in-title" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
      <Typography id="sign-in-title" variant="h5" component="h1" gutterBottom>
        {t('signIn.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('signIn.intro')}
      </Typography>
      {notice && !signIn.error && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      {signIn.error && !challenge && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {describeError(signIn.error, t)}
        </Alert>
      )}
      {challenge ? (
        <SecondFactorStep
          pending={completeSignIn.isPending}
          error={completeSignIn.error}
          onSubmit={(code) => completeSignIn.mutate({ challenge, code }, { onSuccess: proceed })}
          onBack={() => {
            setChallenge(null);
            signIn.reset();
          }}
        />
      ) : (
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
          <CredentialsFields value={credentials} onChange={setCredentials} errors={fieldErrors} />
          <Button type="submit" variant="contained" size="large" loading={signIn.isPending}>
            {t('signIn.submit')}
          </Button>
        </Box>
      )}
    </Paper>
  );
}
