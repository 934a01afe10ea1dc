import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PasswordChangeForm } from '../../components/password-change/PasswordChangeForm';
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
 * wrong under the field; on success every other session of the account ends. The form is the one of
 * the forced change at sign-in (components/password-change).
 */
function PasswordCard() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const profile = trpc.me.profile.useQuery();
  const change = trpc.me.changePassword.useMutation({
    onSuccess: async () => {
      notify(t('me.password.changed'), 'success');
      await utils.me.sessions.invalidate();
    },
  });
  const account = profile.data;
  return (
    <Paper component="section" variant="outlined" aria-labelledby="me-password-title" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="me-password-title" variant="h6" component="h2" gutterBottom>
        {t('me.password.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('me.password.intro')}
      </Typography>
      <PasswordChangeForm
        onSubmit={(input) => change.mutateAsync(input)}
        pending={change.isPending}
        error={change.error}
        userInputs={account ? [account.username, account.first_name, account.last_name, account.email] : undefined}
      />
    </Paper>
  );
}
