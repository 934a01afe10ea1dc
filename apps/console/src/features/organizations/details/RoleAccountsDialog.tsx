import { useTranslation } from 'react-i18next';
import { AssociatedAccountsDialog } from '../../../components/AssociatedAccountsDialog';
import { trpc } from '../../../trpc';
import { toAccount } from '../../../paths';
import type { PermissionRow, RoleRow } from '../types';

/** 'Associated accounts for a role': the accounts holding it. The role stays set while the dialog fades out. */
export function RoleAccountsDialog({ role, open, onClose }: { role: RoleRow | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const accounts = trpc.organizations.roleAccounts.useQuery({ role_id: role?.id ?? '' }, { enabled: open && Boolean(role) });
  return (
    <AssociatedAccountsDialog
      open={open && Boolean(role)}
      title={t('organizations.roles.accountsTitle', { title: role?.title ?? '' })}
      accounts={accounts.data}
      error={accounts.error}
      onRetry={() => void accounts.refetch()}
      profileHref={toAccount}
      onClose={onClose}
    />
  );
}

/** A permission's associated accounts: those holding it through one of the roles that carry it. */
export function PermissionAccountsDialog({ permission, open, onClose }: { permission: PermissionRow | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const accounts = trpc.organizations.permissionAccounts.useQuery({ permission_id: permission?.id ?? '' }, { enabled: open && Boolean(permission) });
  return (
    <AssociatedAccountsDialog
      open={open && Boolean(permission)}
      title={t('organizations.permissions.accountsTitle', { title: permission?.title ?? '' })}
      accounts={accounts.data}
      error={accounts.error}
      onRetry={() => void accounts.refetch()}
      profileHref={toAccount}
      onClose={onClose}
    />
  );
}
