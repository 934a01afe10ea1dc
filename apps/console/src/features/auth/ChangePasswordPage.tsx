import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';
import { CountedTextField } from '../../components/CountedTextField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { toIndex } from '../../paths';

/**
 * /change-password: where the sign-in form sends a session that must change its password (status 3
 * or an aged password). Until the change succeeds the server refuses every other call with 403.
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { notify } = useSnackbar();
  const change = trpc.auth.changePassword.useMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const fields = getApiError(change.error)?.fields ?? {};
  const placed = Boolean(fields.current_password?.length || fields.new_password?.length);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          notify(t('accounts.auth.passwordUpdated'), 'success');
          // the root page sends the account on: to its first screen, or to its own page
          void navigate(toIndex(), { replace: true });
        },
      },
    );
  };

  return (
    <Paper component="section" variant="outlined" aria-labelledby="change-password-title" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
      <Typography id="change-password-title" variant="h5" component="h1" gutterBottom>
        {t('changePassword.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('changePassword.intro')}
      </Typography>
      {change.error && !placed && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {describeError(change.error, t)}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <TextField
          label={t('changePassword.current')}
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
          error={Boolean(fields.current_password?.length)}
          helperText={fields.current_password?.join(' ')}
          slotProps={{ htmlInput: { maxLength: 255 } }}
        />
        <CountedTextField
          label={t('changePassword.new')}
          name="new_password"
          type="password"
          autoComplete="new-password"
          required
          value={next}
          onValueChange={setNext}
          errors={fields.new_password}
          hint={t('accounts.auth.newPasswordHint')}
        />
        <Button type="submit" variant="contained" size="large" loading={change.isPending} disabled={!current || !next}>
          {t('changePassword.submit')}
        </Button>
      </Box>
    </Paper>
  );
}
