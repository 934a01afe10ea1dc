import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/api-error';
import { ErrorState } from '../ErrorState';
import { LoadingState } from '../LoadingState';
import { useSnackbar } from '../snackbar/snackbar-context';
import { SwitchList, type SwitchItem } from '../SwitchList';
import { trpc } from '../../trpc';

/**
 * One switch per role of the organization for one account (label the role slug, hint its title):
 * on adds the role ('Role added to account'), off removes it ('Role removed from account'). Serves
 * the members' 'Manage account roles' dialog and the account's expanded organization row.
 */
export function MemberRoleSwitches({ organizationId, accountId, label, layout }: { organizationId: string; accountId: string; label: string; layout?: 'grid' | 'list' }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const roles = trpc.organizations.memberRoles.useQuery({ id: organizationId, account_id: accountId });
  const setRole = trpc.organizations.setMemberRole.useMutation();

  if (roles.isLoading) return <LoadingState minHeight={72} />;
  if (roles.error || !roles.data) return <ErrorState error={roles.error} onRetry={() => void roles.refetch()} />;

  const items: SwitchItem[] = roles.data.map((role) => ({ id: role.id, label: role.slug, hint: role.title, checked: Boolean(role.associated) }));
  const toggle = async (item: SwitchItem, associated: boolean) => {
    try {
      await setRole.mutateAsync({ id: organizationId, account_id: accountId, role_id: item.id, associated });
      notify(t(associated ? 'organizations.memberRoles.added' : 'organizations.memberRoles.removed'), 'success');
    } catch (error) {
      notify(describeError(error, t), 'error');
    }
    // the chips of the members, the account's rows and the roles' counts change with it
    await Promise.all([
      utils.organizations.memberRoles.invalidate({ id: organizationId, account_id: accountId }),
      utils.organizations.members.invalidate({ id: organizationId }),
      utils.organizations.ofAccount.invalidate({ account_id: accountId }),
      utils.organizations.roles.invalidate({ id: organizationId }),
      utils.organizations.roleAccounts.invalidate({ role_id: item.id }),
    ]);
  };
  return <SwitchList label={label} items={items} onToggle={toggle} emptyText={t('organizations.memberRoles.empty')} layout={layout} />;
}
