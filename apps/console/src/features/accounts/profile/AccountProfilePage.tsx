import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { PageHeader } from '../../../components/PageHeader';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { fullName } from '../../../lib/account-name';
import { trpc } from '../../../trpc';
import { toAccounts } from '../routes';
import { AccountAuthSection } from './AccountAuthSection';
import { ProfileCard } from './ProfileCard';
import { ProfileForm } from './ProfileForm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /accounts/profile/:id: the profile card and the profile form (spec tabs 1-2), account status and
 * reset password (tab 7), and deletion. The other tabs (smart cards, organizations, teams, tokens,
 * calendar, attendance, claims)
 * arrive with their issues.
 */
export default function AccountProfilePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const account = trpc.accounts.byId.useQuery({ id }, { enabled: valid });

  return (
    <>
      <PageHeader title={t('accounts.profileTitle')} actions={account.data ? <DeleteAccountButton account={account.data} /> : undefined} />
      {!valid ? (
        <Alert severity="info">{t('accounts.profile.noAccount')}</Alert>
      ) : account.isLoading ? (
        <LoadingState />
      ) : account.error || !account.data ? (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} />
      ) : (
        <>
          <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '320px 1fr' }, alignItems: 'start' }}>
            <ProfileCard account={account.data} />
            {/* keyed by the account: another account's profile starts from its own values */}
            <ProfileForm key={account.data.id} account={account.data} />
          </Box>
          <AccountAuthSection key={account.data.id} accountId={account.data.id} />
        </>
      )}
    </>
  );
}

function DeleteAccountButton({ account }: { account: { id: string; first_name: string; last_name: string; protected: boolean } }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const remove = trpc.accounts.delete.useMutation();
  const [confirmOpen, setConfirmOpen] = useState(false);

  const confirm = () =>
    remove.mutate(
      { id: account.id },
      {
        onSuccess: ({ message }) => {
          setConfirmOpen(false);
          notify(message, 'success');
          void utils.accounts.list.invalidate();
          void navigate(toAccounts());
        },
        onError: (error) => {
          setConfirmOpen(false);
          notify(describeError(error, t), 'error');
        },
      },
    );

  const button = (
    <Button color="error" variant="outlined" startIcon={<DeleteIcon />} disabled={account.protected} onClick={() => setConfirmOpen(true)}>
      {t('accounts.profile.delete')}
    </Button>
  );
  return (
    <>
      {account.protected ? (
        <Tooltip title={t('accounts.profile.protected')}>
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      <ConfirmDialog
        open={confirmOpen}
        title={t('accounts.profile.deleteTitle', { name: fullName(account) })}
        message={t('accounts.profile.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirmOpen(false)}
      />
    </>
  );
}
