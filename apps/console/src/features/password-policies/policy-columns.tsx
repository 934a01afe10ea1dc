import { useMemo } from 'react';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import type { TPolicy } from '@rollcall/contracts';
import { formatDate } from '../../lib/format-date';
import { useGrants } from '../../auth/use-grants';
import { policyDescription, policyTitle } from '../../components/policy-texts';

export interface PolicyRowActions {
  onEdit: (policy: TPolicy) => void;
  onDelete: (policy: TPolicy) => void;
}

function Off() {
  const { t } = useTranslation();
  return (
    <Typography component="span" variant="body2" color="text.secondary">
      {t('passwordPolicies.off')}
    </Typography>
  );
}

/** Title, Description, Min. length, Min. strength, History, Max. age, Lockout, Created at, Actions. */
export function usePolicyColumns(actions: PolicyRowActions): ColumnDef<TPolicy>[] {
  const { t } = useTranslation();
  const { onEdit, onDelete } = actions;
  return useMemo<ColumnDef<TPolicy>[]>(
    () => [
      { accessorKey: 'title', header: t('passwordPolicies.columns.title'), cell: ({ row }) => <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>{policyTitle(row.original, t)}</Typography> },
      { accessorKey: 'description', header: t('passwordPolicies.columns.description'), cell: ({ row }) => policyDescription(row.original, t) },
      { accessorKey: 'min_length', header: t('passwordPolicies.columns.minLength'), cell: ({ row }) => row.original.min_length },
      { accessorKey: 'min_strength', header: t('passwordPolicies.columns.minStrength'), cell: ({ row }) => t('passwordPolicies.strengthOf', { score: row.original.min_strength }) },
      { accessorKey: 'history', header: t('passwordPolicies.columns.history'), cell: ({ row }) => (row.original.history ? t('passwordPolicies.historyValue', { count: row.original.history }) : <Off />) },
      { accessorKey: 'max_age', header: t('passwordPolicies.columns.maxAge'), cell: ({ row }) => (row.original.max_age ? t('passwordPolicies.days', { count: row.original.max_age }) : <Off />) },
      {
        accessorKey: 'lockout',
        header: t('passwordPolicies.columns.lockout'),
        cell: ({ row }) =>
          row.original.lockout ? t('passwordPolicies.lockoutValue', { attempts: row.original.lockout, seconds: row.original.lockout_duration }) : <Off />,
      },
      { accessorKey: 'created_at', header: t('passwordPolicies.columns.createdAt'), cell: ({ row }) => formatDate(row.original.created_at) },
      { id: 'actions', header: t('passwordPolicies.columns.actions'), cell: ({ row }) => <RowMenu policy={row.original} onEdit={onEdit} onDelete={onDelete} /> },
    ],
    [t, onEdit, onDelete],
  );
}

function RowMenu({ policy, onEdit, onDelete }: { policy: TPolicy } & PolicyRowActions) {
  const { t } = useTranslation();
  // password policies belong to no organization: only who may change them everywhere sees the menu
  if (!useGrants().mayEverywhere('policies:write')) return null;
  return (
    <RowActionsMenu
      label={t('passwordPolicies.actionsFor', { title: policy.title })}
      actions={[
        { label: t('common.edit'), onSelect: () => onEdit(policy) },
        { label: t('common.delete'), onSelect: () => onDelete(policy) },
      ]}
    />
  );
}
