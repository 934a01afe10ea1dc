import { useTranslation } from 'react-i18next';
import { AssociatedAccountsDialog, type AssociatedAccount } from '../../../components/AssociatedAccountsDialog';
import { trpc } from '../../../trpc';
import { toAccount } from '../../accounts/routes';
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
export function PermissionAccountsDialog({ organizationId, permission, open, onClose }: { organizationId: string; permission: PermissionRow | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const roles = trpc.organizations.roles.useQuery({ id: organizationId }, { enabled: open && Boolean(permission) });
  const carrying = permission ? (roles.data ?? []).filter((role) => role.permissions.some((held) => held.id === permission.id)) : [];
  const perRole = trpc.useQueries((q) => carrying.map((role) => q.organizations.roleAccounts({ role_id: role.id }, { enabled: open })));
  const error = roles.error ?? perRole.find((query) => query.error)?.error;
  let accounts: AssociatedAccount[] | undefined;
  if (roles.data && perRole.every((query) => query.data)) {
    const byId = new Map<string, AssociatedAccount>();
    for (const query of perRole) for (const account of query.data ?? []) byId.set(account.id, account);
    accounts = [...byId.values()];
  }
  return (
    <AssociatedAccountsDialog
      open={open && Boolean(permission)}
      title={t('organizations.permissions.accountsTitle', { title: permission?.title ?? '' })}
      accounts={accounts}
      error={error}
      onRetry={() => {
        void roles.refetch();
        for (const query of perRole) void query.refetch();
      }}
      profileHref={toAccount}
      onClose={onClose}
    />
  );
}
