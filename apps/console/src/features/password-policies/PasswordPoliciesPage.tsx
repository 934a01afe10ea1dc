import { useTranslation } from 'react-i18next';
import type { TPolicy } from '@rollcall/contracts';
import { EditableListPage } from '../../components/EditableListPage';
import { useListEditor } from '../../components/use-list-editor';
import { useGrants } from '../../auth/use-grants';
import { trpc } from '../../trpc';
import { usePolicyColumns } from './policy-columns';
import { PolicyDialog } from './PolicyDialog';

/** /password-policies: every policy, Add policy, row menu Edit / Delete. */
export default function PasswordPoliciesPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const utils = trpc.useUtils();
  const list = trpc.policies.list.useQuery();
  const remove = trpc.policies.delete.useMutation();
  const editor = useListEditor<TPolicy>();
  const columns = usePolicyColumns({ onEdit: editor.edit, onDelete: editor.confirmation.ask });

  return (
    <EditableListPage
      title={t('passwordPolicies.title')}
      addLabel={t('passwordPolicies.addButton')}
      mayAdd={grants.mayEverywhere('policies:write')}
      tableLabel={t('passwordPolicies.tableLabel')}
      emptyText={t('passwordPolicies.empty')}
      list={list}
      columns={columns}
      editor={editor}
      dialog={<PolicyDialog open={editor.dialogOpen} policy={editor.editing} onClose={editor.closeDialog} />}
      deleteTitle={(policy) => t('passwordPolicies.deleteTitle', { title: policy?.title ?? '' })}
      deleteMessage={t('passwordPolicies.deleteMessage')}
      deleting={remove.isPending}
      onDelete={(policy) =>
        remove.mutate(
          { id: policy.id },
          editor.confirmation.outcome(
            () => t('passwordPolicies.deleted'),
            () => void utils.policies.list.invalidate(),
          ),
        )
      }
    />
  );
}
