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
import { passkeyCancelled, passkeysSupported, getPasskeyAssertion } from '../../components/passkeys/passkey-ceremony';
import Divider from '@mui/material/Divider';

type SignInAnswer = ReturnType<typeof trpc.auth.signIn.useMutation>['data'];

/**
 * Username, password, 'Sign in'; then, for an account with a second factor, its code or a passkey
 * (docs/adr/0025, 0029). Where a password policy lets accounts sign in with a passkey alone, 'Sign
 * in with a passkey' ('Continue with a passkey') asks the browser for a discoverable one. The token is kept in memory; the
 * server also sets the cookie.
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
  const passkeyStepOptions = trpc.auth.passkeyStepOptions.useMutation();
  const completeWithPasskey = trpc.auth.completeSignInWithPasskey.useMutation();
  const passkeyOffered = trpc.auth.passkeySignInOffered.useQuery(undefined, { enabled: passkeysSupported(), staleTime: 60_000 });
  const passkeySignInOptions = trpc.auth.passkeySignInOptions.useMutation();
  const signInWithPasskey = trpc.auth.signInWithPasskey.useMutation();
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const [methods, setMethods] = useState<string[]>([]);
  const fieldErrors = getApiError(signIn.error)?.fields ?? {};

  const proceed = (answer: SignInAnswer) => {
    if (!answer) return;
    if (answer.status === 'second_factor_required') {
      completeSignIn.reset();
      setPasskeyError(null);
      setChallenge(answer.second_factor.challenge);
      setMethods(answer.second_factor.methods);
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
    setPasskeyError(null);
    signIn.mutate(credentials, { onSuccess: proceed });
  };

  /** a passkey ceremony: the server's options, the browser's dialog, the server's answer; closing the dialog is no error */
  const withPasskey = async (ceremony: () => Promise<SignInAnswer>) => {
    setPasskeyBusy(true);
    setPasskeyError(null);
    completeSignIn.reset();
    try {
      proceed(await ceremony());
    } catch (error) {
      if (!passkeyCancelled(error)) setPasskeyError(error);
    } finally {
      setPasskeyBusy(false);
    }
  };
  const secondStepWithPasskey = (signInChallenge: string) =>
    void withPasskey(async () => completeWithPasskey.mutateAsync({ challenge: signInChallenge, passkey: await getPasskeyAssertion(await passkeyStepOptions.mutateAsync({ challenge: signInChallenge })) }));
  const passwordless = () =>
    void withPasskey(async () => {
      signIn.reset();
      return signInWithPasskey.mutateAsync({ passkey: await getPasskeyAssertion(await passkeySignInOptions.mutateAsync()) });
    });

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
      {Boolean(passkeyError) && !challenge && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {getApiError(passkeyError)?.code === 'auth.passkey_sign_in_not_allowed' ? describeError(passkeyError, t) : t('secondFactors.passwordless.failed')}
        </Alert>
      )}
      {challenge ? (
        <SecondFactorStep
          pending={completeSignIn.isPending}
          error={completeSignIn.error ?? (passkeyError ? new Error(t('secondFactors.signIn.passkeyFailed')) : null)}
          onSubmit={(code) => {
            setPasskeyError(null);
            completeSignIn.mutate({ challenge, code }, { onSuccess: proceed });
          }}
          onPasskey={methods.includes('passkey') && passkeysSupported() ? () => secondStepWithPasskey(challenge) : undefined}
          passkeyPending={passkeyBusy}
          onBack={() => {
            setChallenge(null);
            setPasskeyError(null);
            signIn.reset();
          }}
        />
      ) : (
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
          <CredentialsFields value={credentials} onChange={setCredentials} errors={fieldErrors} />
          <Button type="submit" variant="contained" size="large" loading={signIn.isPending} disabled={passkeyBusy}>
            {t('signIn.submit')}
          </Button>
          {passkeyOffered.data?.offered && (
            <>
              <Divider>{t('secondFactors.signIn.or')}</Divider>
              <Button variant="outlined" size="large" onClick={passwordless} loading={passkeyBusy} disabled={signIn.isPending}>
                {t('secondFactors.passwordless.button')}
              </Button>
            </>
          )}
        </Box>
      )}
    </Paper>
  );
}
