import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useGrants } from '../../../../auth/use-grants';
import { ErrorState } from '../../../../components/ErrorState';
import { LoadingState } from '../../../../components/LoadingState';
import { ReadOnly } from '../../../../components/read-only';
import { trpc } from '../../../../trpc';
import { AccountConsentsSection } from './AccountConsentsSection';
import { AccountApplicationRoles } from './AccountApplicationRoles';
import { SsoClaimsForm } from './SsoClaimsForm';

/**
 * Account tab 'Single Sign-on Claims' (spec tab 10, docs/adr/0014): the claim values by scope, then
 * the account's application roles and the applications it consented to (revocable). Each part is read-only without the permission its calls need
 * (accounts:write for claims, applications:write for roles); the server decides per account anyway.
 */
export function AccountSsoClaimsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const grants = useGrants();
  const claims = trpc.ssoClaims.ofAccount.useQuery({ id: accountId });
  const claimsReadOnly = !grants.may('accounts:write');

  return (
    <>
      <Typography variant="h6" component="h2">
        {t('ssoClaims.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('ssoClaims.description')}
      </Typography>
      {claimsReadOnly ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('common.readOnly')}
        </Alert>
      ) : null}
      {claims.isLoading ? (
        <LoadingState />
      ) : claims.error || !claims.data ? (
        <ErrorState error={claims.error} onRetry={() => void claims.refetch()} />
      ) : (
        <ReadOnly.Provider value={claimsReadOnly}>
          {/* keyed by the account: another account starts from its own values */}
          <SsoClaimsForm key={accountId} accountId={accountId} groups={claims.data} />
        </ReadOnly.Provider>
      )}
      {grants.may('applications:read') ? (
        <ReadOnly.Provider value={!grants.may('applications:write')}>
          <AccountApplicationRoles accountId={accountId} />
          <AccountConsentsSection accountId={accountId} readOnly={!grants.may('applications:write')} />
        </ReadOnly.Provider>
      ) : null}
    </>
  );
}
