import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { describeError, getApiError } from '../../api/api-error';
import { CountedTextField } from '../../components/CountedTextField';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';

/**
 * The Security tab: the own password change, and below it the place of the second factors.
 *
 * SECURITY SLOT: the second factors (TOTP, recovery codes) show in the section marked
 * `data-slot="second-factors"`: the second-factors feature's `SecondFactorsPanel`, which the shell
 * (App.tsx) hands this page through `SecuritySlot` (security-slot.ts; a feature imports no other, docs/adr/0022).
 */
export function SecuritySection({ secondFactors }: { secondFactors?: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, alignItems: 'start' }}>
      <PasswordCard />
      {secondFactors ? (
        <Box component="section" data-slot="second-factors">
          {secondFactors}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * The own password change (me.changePassword, the accounts feature's own command): the current
 * password is checked as a sign-in's, the account's policy (length, strength, history) names what is
 * wrong under the field; on success every other session of the account ends.
 */
function PasswordCard() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = trpc.me.changePassword.useMutation({
    onSuccess: async () => {
      setCurrent('');
      setNext('');
      notify(t('me.password.changed'), 'success');
      await utils.me.sessions.invalidate();
    },
  });
  const fields = getApiError(change.error)?.fields ?? {};
  const placed = Boolean(fields.current_password?.length || fields.new_password?.length);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ current_password: current, new_password: next });
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby="me-password-title" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="me-password-title" variant="h6" component="h2" gutterBottom>
        {t('me.password.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('me.password.intro')}
      </Typography>
      {change.error && !placed ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {describeError(change.error, t)}
        </Alert>
      ) : null}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
        <TextField
          label={t('me.password.current')}
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
          label={t('me.password.new')}
          name="new_password"
          type="password"
          autoComplete="new-password"
          required
          value={next}
          onValueChange={setNext}
          errors={fields.new_password}
          hint={t('me.password.newHint')}
        />
        <Box>
          <Button type="submit" variant="contained" loading={change.isPending} disabled={!current || !next}>
            {t('me.password.submit')}
          </Button>
        </Box>
      </Box>
    </Paper>
  );
}
