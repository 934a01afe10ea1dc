import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatInstant } from '../../../../lib/zone-label';
import { describeError } from '../../../../api/api-error';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { ErrorState } from '../../../../components/ErrorState';
import { LoadingState } from '../../../../components/LoadingState';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { trpc } from '../../../../trpc';

/**
 * An account's single sign-on consents: each application it agreed to share data with, the scopes,
 * and Revoke (the next sign-in there asks again; the application's tokens stop working at once).
 */
export function AccountConsentsSection({ accountId, readOnly = false }: { accountId: string; readOnly?: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const utils = trpc.useUtils();
  const consents = trpc.consents.ofAccount.useQuery({ account_id: accountId });
  const [revoking, setRevoking] = useState<{ id: string; title: string } | null>(null);
  const revoke = trpc.consents.revoke.useMutation({
    onSuccess: async () => {
      setRevoking(null);
      snackbar.notify(t('oidc.consents.revoked'), 'success');
      await utils.consents.ofAccount.invalidate({ account_id: accountId });
    },
  });

  return (
    <section aria-labelledby="account-consents-title">
      <Typography id="account-consents-title" variant="h6" component="h2" gutterBottom>
        {t('oidc.consents.title')}
      </Typography>
      {consents.isPending && <LoadingState minHeight={80} />}
      {consents.isError && <ErrorState error={consents.error} onRetry={() => void consents.refetch()} />}
      {consents.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('oidc.consents.none')}
        </Typography>
      )}
      {consents.data && consents.data.length > 0 && (
        <List aria-labelledby="account-consents-title">
          {consents.data.map((consent) => (
            <ListItem
              key={consent.application_id}
              divider
              secondaryAction={
                readOnly ? undefined : (
                  <Button color="error" size="small" onClick={() => setRevoking({ id: consent.application_id, title: consent.application_title })}>
                    {t('oidc.consents.revoke')}
                  </Button>
                )
              }
            >
              <ListItemText
                primary={consent.application_title}
                secondary={t('oidc.consents.scopes', { scopes: consent.scopes.join(', '), date: formatInstant(consent.updated_at) })}
              />
            </ListItem>
          ))}
        </List>
      )}
      {revoke.error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {describeError(revoke.error, t)}
        </Alert>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={t('oidc.consents.confirmTitle')}
        message={t('oidc.consents.confirmMessage', { application: revoking?.title ?? '' })}
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ account_id: accountId, application_id: revoking.id })}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}
