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
import { toChangePassword, toIndex } from '../../paths';

/** Username, password, 'Sign in'. The token is kept in memory; the server also sets the cookie. */
export function SignInForm({ notice }: { notice?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const [credentials, setCredentials] = useState<Credentials>({ username: '', password: '' });
  const signIn = trpc.auth.signIn.useMutation();
  const fieldErrors = getApiError(signIn.error)?.fields ?? {};

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      credentials,
      {
        onSuccess: ({ token, account, password_change_required }) => {
          authStore.setToken(token);
          queryClient.removeQueries();
          utils.auth.me.setData(undefined, account);
          // such a session may do nothing else until the password is changed
          void navigate(password_change_required ? toChangePassword() : (homeFor(account.grants) ?? toIndex()), { replace: true });
        },
      },
    );
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
      {signIn.error && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {describeError(signIn.error, t)}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <CredentialsFields value={credentials} onChange={setCredentials} errors={fieldErrors} />
        <Button type="submit" variant="contained" size="large" loading={signIn.isPending}>
          {t('signIn.submit')}
        </Button>
      </Box>
    </Paper>
  );
}
