import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/api-error';

/**
 * The sign-in's second step (docs/adr/0025): a code from the authenticator app or a recovery code,
 * sent back with the first step's challenge. One field takes both: six digits are a TOTP code,
 * anything else is tried as a recovery code. An account with a passkey may use it instead
 * (`onPasskey`, docs/adr/0029): the browser's own dialog asks for it.
 */
export function SecondFactorStep({
  pending,
  error,
  onSubmit,
  onBack,
  onPasskey,
  passkeyPending = false,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (code: string) => void;
  onBack: () => void;
  /** present when the account has a passkey and the browser can use one */
  onPasskey?: () => void;
  passkeyPending?: boolean;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code.trim());
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }} aria-labelledby="second-factor-title">
      <Typography id="second-factor-title" variant="subtitle1" component="h2">
        {t('secondFactors.signIn.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {onPasskey ? t('secondFactors.signIn.passkeyIntro') : t('secondFactors.signIn.intro')}
      </Typography>
      {Boolean(error) && (
        <Alert severity="error" role="alert">
          {describeError(error, t)}
        </Alert>
      )}
      {onPasskey && (
        <>
          <Button variant="contained" size="large" onClick={onPasskey} loading={passkeyPending} disabled={pending}>
            {t('secondFactors.signIn.usePasskey')}
          </Button>
          <Divider>{t('secondFactors.signIn.or')}</Divider>
        </>
      )}
      <TextField
        label={t('secondFactors.signIn.code')}
        name="code"
        autoComplete="one-time-code"
        autoFocus={!onPasskey}
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
        helperText={t('secondFactors.signIn.codeHint')}
        slotProps={{ htmlInput: { maxLength: 64, spellCheck: false, autoCapitalize: 'off' } }}
      />
      <Button type="submit" variant={onPasskey ? 'outlined' : 'contained'} size="large" loading={pending} disabled={!code.trim() || passkeyPending}>
        {t('secondFactors.signIn.submit')}
      </Button>
      <Button onClick={onBack}>{t('secondFactors.signIn.back')}</Button>
    </Box>
  );
}
