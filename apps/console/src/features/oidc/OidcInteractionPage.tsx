import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/LoadingState';
import { CredentialsFields, type Credentials } from '../../components/CredentialsFields';
import { abortInteraction, interactionDetails, InteractionCallError, passkeyStepOptions, submitConsent, submitLogin, submitPasskeyStep, submitSecondFactor, type LoginAnswer, type OidcInteractionDetails } from './interaction-api';
import Divider from '@mui/material/Divider';
import { getPasskeyAssertion, passkeyCancelled, passkeysSupported } from '../../components/passkeys/passkey-ceremony';
import TextField from '@mui/material/TextField';

/** The provider continues at the URL it answered: the next step, or back to the application. */
const go = ({ redirect_to }: { redirect_to: string }) => window.location.assign(redirect_to);

const messageOf = (error: unknown, fallback: string) => (error instanceof InteractionCallError ? error.message : fallback);

function Card({ children, labelledBy }: { children: React.ReactNode; labelledBy: string }) {
  return (
    <Paper component="section" variant="outlined" aria-labelledby={labelledBy} sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
      {children}
    </Paper>
  );
}

function SignInStep({ details }: { details: OidcInteractionDetails }) {
  const { t } = useTranslation();
  const [credentials, setCredentials] = useState<Credentials>({ username: details.login_hint ?? '', password: '' });
  const [challenge, setChallenge] = useState<string | null>(null);
  const [withPasskey, setWithPasskey] = useState(false);
  const [code, setCode] = useState('');
  const signIn = useMutation({
    mutationFn: () => submitLogin(details.uid, credentials.username, credentials.password),
    onSuccess: (answer: LoginAnswer) => {
      if (!('second_factor' in answer)) return go(answer);
      setChallenge(answer.second_factor.challenge);
      setWithPasskey(answer.second_factor.methods.includes('passkey') && passkeysSupported());
    },
  });
  const verify = useMutation({ mutationFn: () => submitSecondFactor(details.uid, challenge ?? '', code.trim()), onSuccess: go });
  // a closed browser dialog is no error: the page stays as it was
  const passkey = useMutation({
    mutationFn: async () => {
      try {
        return await submitPasskeyStep(details.uid, challenge ?? '', await getPasskeyAssertion(await passkeyStepOptions(details.uid, challenge ?? '')));
      } catch (error) {
        if (passkeyCancelled(error)) return null;
        throw error;
      }
    },
    onSuccess: (answer) => answer && go(answer),
  });
  const cancel = useMutation({ mutationFn: () => abortInteraction(details.uid), onSuccess: go });
  const fields = signIn.error instanceof InteractionCallError ? signIn.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  if (challenge) {
    // the code step (docs/adr/0025): a code from the authenticator app or a recovery code
    return (
      <Card labelledBy="oidc-sign-in-title">
        <Typography id="oidc-sign-in-title" variant="h5" component="h1" gutterBottom>
          {t('secondFactors.signIn.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {withPasskey ? t('secondFactors.signIn.passkeyIntro') : t('secondFactors.signIn.intro')}
        </Typography>
        {(verify.error ?? passkey.error) && (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {messageOf(verify.error ?? passkey.error, t('oidc.failed'))}
          </Alert>
        )}
        <Box component="form" noValidate onSubmit={(event) => (event.preventDefault(), verify.mutate())} sx={{ display: 'grid', gap: 2 }}>
          {withPasskey && (
            <>
              <Button variant="contained" size="large" onClick={() => (verify.reset(), passkey.mutate())} loading={passkey.isPending} disabled={verify.isPending}>
                {t('secondFactors.signIn.usePasskey')}
              </Button>
              <Divider>{t('secondFactors.signIn.or')}</Divider>
            </>
          )}
          <TextField label={t('secondFactors.signIn.code')} name="code" autoComplete="one-time-code" autoFocus={!withPasskey} required value={code} onChange={(event) => setCode(event.target.value)} helperText={t('secondFactors.signIn.codeHint')} slotProps={{ htmlInput: { maxLength: 64 } }} />
          <Button type="submit" variant={withPasskey ? 'outlined' : 'contained'} size="large" loading={verify.isPending} disabled={!code.trim() || passkey.isPending}>
            {t('secondFactors.signIn.submit')}
          </Button>
          <Button variant="text" onClick={() => cancel.mutate()} disabled={verify.isPending} loading={cancel.isPending}>
            {t('oidc.cancel')}
          </Button>
        </Box>
      </Card>
    );
  }
  return (
    <Card labelledBy="oidc-sign-in-title">
      <Typography id="oidc-sign-in-title" variant="h5" component="h1" gutterBottom>
        {t('oidc.signIn.title', { application: details.application.title })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('oidc.signIn.intro')}
      </Typography>
      {signIn.error && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {messageOf(signIn.error, t('oidc.failed'))}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <CredentialsFields value={credentials} onChange={setCredentials} errors={fields} />
        <Button type="submit" variant="contained" size="large" loading={signIn.isPending}>
          {t('signIn.submit')}
        </Button>
        <Button variant="text" onClick={() => cancel.mutate()} disabled={signIn.isPending} loading={cancel.isPending}>
          {t('oidc.cancel')}
        </Button>
      </Box>
    </Card>
  );
}

function ConsentStep({ details }: { details: OidcInteractionDetails }) {
  const { t } = useTranslation();
  const allow = useMutation({ mutationFn: () => submitConsent(details.uid), onSuccess: go });
  const deny = useMutation({ mutationFn: () => abortInteraction(details.uid), onSuccess: go });
  const error = allow.error ?? deny.error;
  return (
    <Card labelledBy="oidc-consent-title">
      <Typography id="oidc-consent-title" variant="h5" component="h1" gutterBottom>
        {t('oidc.consent.title', { application: details.application.title })}
      </Typography>
      {details.account && (
        <Typography variant="body2" color="text.secondary">
          {t('oidc.consent.signedInAs', { name: details.account.name, username: details.account.username })}
        </Typography>
      )}
      {details.application.description && (
        <Typography variant="body2" sx={{ mt: 2 }}>
          {details.application.description}
        </Typography>
      )}
      <Typography variant="subtitle2" sx={{ mt: 3 }}>
        {t('oidc.consent.asks')}
      </Typography>
      <List dense aria-label={t('oidc.consent.asks')}>
        {details.scopes.map((scope) => (
          <ListItem key={scope.scope} disableGutters>
            <ListItemText primary={scope.description} secondary={scope.scope} />
          </ListItem>
        ))}
      </List>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {messageOf(error, t('oidc.failed'))}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button variant="outlined" onClick={() => deny.mutate()} disabled={allow.isPending} loading={deny.isPending}>
          {t('oidc.consent.deny')}
        </Button>
        <Button variant="contained" onClick={() => allow.mutate()} disabled={deny.isPending} loading={allow.isPending}>
          {t('oidc.consent.allow')}
        </Button>
      </Stack>
    </Card>
  );
}

/** /oidc/interaction/:uid: signing in to an application through Rollcall, then consent (docs/adr/0014). */
export default function OidcInteractionPage() {
  const { t } = useTranslation();
  const { uid = '' } = useParams();
  const details = useQuery({ queryKey: ['oidc-interaction', uid], queryFn: () => interactionDetails(uid), retry: false, staleTime: Infinity });
  if (details.isPending) return <LoadingState />;
  if (details.isError)
    return (
      <Card labelledBy="oidc-expired-title">
        <Typography id="oidc-expired-title" variant="h5" component="h1" gutterBottom>
          {t('oidc.expired.title')}
        </Typography>
        <Alert severity="warning">{messageOf(details.error, t('oidc.failed'))}</Alert>
      </Card>
    );
  return details.data.prompt === 'consent' ? <ConsentStep key={uid} details={details.data} /> : <SignInStep key={uid} details={details.data} />;
}
