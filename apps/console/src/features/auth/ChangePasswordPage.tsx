import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PasswordChangeForm } from '../../components/password-change/PasswordChangeForm';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { toIndex } from '../../paths';

/**
 * /change-password: where the sign-in form sends a session that must change its password (status 3
 * or an aged password). Until the change succeeds the server refuses every other call with 403. The
 * form is the one of the page of one's own (components/password-change).
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { notify } = useSnackbar();
  const change = trpc.auth.changePassword.useMutation({
    onSuccess: () => {
      notify(t('accounts.auth.passwordUpdated'), 'success');
      // the root page sends the account on: to its first screen, or to its own page
      void navigate(toIndex(), { replace: true });
    },
  });

  return (
    <Paper component="section" variant="outlined" aria-labelledby="change-password-title" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
      <Typography id="change-password-title" variant="h5" component="h1" gutterBottom>
        {t('changePassword.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('changePassword.intro')}
      </Typography>
      <PasswordChangeForm onSubmit={(input) => change.mutateAsync(input)} pending={change.isPending} error={change.error} size="large" />
    </Paper>
  );
}
