import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TCurrentAccount } from '@rollcall/contracts';
import { fullName } from '../../lib/account-name';
import { trpc } from '../../trpc';
import { useSignOut } from '../../auth/use-sign-out';

/**
 * A signed-in account that holds no system permission anywhere (docs/adr/0011): there is nothing for
 * it to administer, so it is told so plainly instead of meeting a page that answers 403.
 */
export function NoAdministrationNotice({ account }: { account: TCurrentAccount }) {
  const { t } = useTranslation();
  const { signOut, isPending } = useSignOut();
  const utils = trpc.useUtils();
  // this notice is the root page already: signing out does not move it, so ask again who is here (no one: the sign-in form)
  const leave = async () => {
    await signOut();
    await utils.auth.me.reset();
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby="no-administration-title" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
      <Typography id="no-administration-title" variant="h5" component="h1" gutterBottom>
        {t('signIn.noAdministrationTitle', { name: fullName(account) })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('signIn.noAdministration')}
      </Typography>
      <Button variant="contained" onClick={() => void leave()} disabled={isPending}>
        {t('layout.logout')}
      </Button>
    </Paper>
  );
}
