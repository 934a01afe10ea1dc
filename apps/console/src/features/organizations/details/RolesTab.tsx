import { useCallback, useId, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/api-error';
import { ConfirmItemDialog } from '../../../components/ConfirmItemDialog';
import { useConfirmation } from '../../../components/use-confirmation';
import { useLocalPaging } from '../../../components/use-local-paging';
import { DataTable, ExpandRowButton, localPage } from '../../../components/data-table';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { SwitchList, type SwitchItem } from '../../../components/SwitchList';
import { trpc } from '../../../trpc';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import type { OrganizationDetails, RoleRow } from '../types';
import { CreateRoleDialog } from './CreateRoleDialog';
import { RoleAccountsDialog } from './RoleAccountsDialog';
import { TabHeading } from './TabHeading';
import { titleSlugColumns } from './title-slug-columns';

/**
 * Roles: ID, Expand (one switch per permission of the organization), Title and Slug (edited
 * inline), Num. associations, Created at, Actions (Associated accounts, Delete role); Add role.
 */
export function RolesTab({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const baseId = useId();
  const paging = useLocalPaging();
  const list = trpc.organizations.roles.useQuery({ id: organization.id });
  const { mutateAsync: rename } = trpc.organizations.renameRole.useMutation();
  const { mutateAsync: reslug } = trpc.organizations.reslugRole.useMutation();
  const remove = trpc.organizations.deleteRole.useMutation();
  const [expanded, setExpanded] = useState<string | null>(null);
  const [createOpen, setCreateOpen] = useState(false);
  // a role stays set while its dialog fades out
  const [accountsOf, setAccountsOf] = useState<RoleRow | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const confirmation = useConfirmation<RoleRow>();
  const askToConfirm = confirmation.ask;
  const panelId = useCallback((roleId: string) => `${baseId}-permissions-${roleId}`, [baseId]);

  const columns = useMemo<ColumnDef<RoleRow>[]>(() => {
    const reload = () => Promise.all([utils.organizations.roles.invalidate({ id: organization.id }), utils.organizations.memberRoles.invalidate({ id: organization.id })]);
    return [
      { accessorKey: 'id', header: t('organizations.roles.columns.id'), cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        id: 'expand',
        header: t('organizations.roles.columns.expand'),
        cell: ({ row }) => (
          <ExpandRowButton
            label={t('organizations.roles.expand', { title: row.original.title })}
            expanded={row.getIsExpanded()}
            controls={panelId(row.original.id)}
            onToggle={() => row.toggleExpanded()}
          />
        ),
      },
      ...titleSlugColumns<RoleRow>({ t, texts: 'organizations.roles', rename, reslug, afterTitle: reload, afterSlug: () => Promise.all([reload(), utils.organizations.members.invalidate({ id: organization.id }), utils.organizations.ofAccount.invalidate()]) }),
      { accessorKey: 'num_associations', header: t('organizations.roles.columns.associations'), cell: ({ row }) => row.original.num_associations },
      { accessorKey: 'created_at', header: t('organizations.roles.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('organizations.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('organizations.roles.actionsFor', { title: row.original.title })}
            actions={[
              {
                label: t('organizations.roles.menu.accounts'),
                onSelect: () => {
                  setAccountsOf(row.original);
                  setAccountsOpen(true);
                },
              },
              {
                label: t('organizations.roles.menu.delete'),
                changes: true,
                disabled: row.original.protected,
                hint: t('organizations.roles.protected'),
                onSelect: () => {
                  askToConfirm(row.original);
                },
              },
            ]}
          />
        ),
      },
    ];
  }, [askToConfirm, t, utils, organization.id, rename, reslug, panelId]);

  const shown = localPage(list, paging.page, paging.pageSize);
  return (
    <>
      <TabHeading
        title={t('organizations.tabs.roles')}
        action={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
            {t('organizations.roles.add')}
          </Button>
        }
      />
      <DataTable
        {...shown}
        label={t('organizations.roles.tableLabel', { title: organization.title })}
        columns={columns}
        getRowId={(row) => row.id}
        {...paging.tableProps}
        emptyText={t('organizations.roles.empty')}
        expandedRowId={expanded}
        onExpandedRowChange={setExpanded}
        renderExpandedRow={(role) => (
          <Box id={panelId(role.id)}>
            <RolePermissionSwitches organizationId={organization.id} role={role} />
          </Box>
        )}
      />
      <CreateRoleDialog open={createOpen} organization={organization} onClose={() => setCreateOpen(false)} />
      <RoleAccountsDialog role={accountsOf} open={accountsOpen} onClose={() => setAccountsOpen(false)} />
      <ConfirmItemDialog
        confirmation={confirmation}
        title={t('organizations.roles.deleteTitle', { title: confirmation.item?.title ?? '' })}
        message={t('organizations.roles.deleteMessage')}
        busy={remove.isPending}
        onConfirm={(role) => remove.mutate({ id: role.id }, confirmation.outcome(() => t('organizations.roles.deleted'), () => void utils.organizations.invalidate()))}
      />
    </>
  );
}

/** An expanded role: one switch per permission of the organization (label the slug, hint the title). */
function RolePermissionSwitches({ organizationId, role }: { organizationId: string; role: RoleRow }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const permissions = trpc.organizations.permissions.useQuery({ id: organizationId });
  const setPermission = trpc.organizations.setRolePermission.useMutation();

  if (permissions.isLoading) return <LoadingState minHeight={72} />;
  if (permissions.error || !permissions.data) return <ErrorState error={permissions.error} onRetry={() => void permissions.refetch()} />;

  const held = new Set(role.permissions.map((permission) => permission.id));
  const items: SwitchItem[] = permissions.data.map((permission) => ({ id: permission.id, label: permission.slug, hint: permission.title, checked: held.has(permission.id) }));
  const toggle = async (item: SwitchItem, enabled: boolean) => {
    try {
      await setPermission.mutateAsync({ role_id: role.id, permission_id: item.id, enabled });
      notify(t(enabled ? 'organizations.roles.permissionEnabled' : 'organizations.roles.permissionDisabled', { slug: item.label }), 'success');
    } catch (error) {
      notify(describeError(error, t), 'error');
    }
    await Promise.all([utils.organizations.roles.invalidate({ id: organizationId }), utils.organizations.permissions.invalidate({ id: organizationId })]);
  };
  const label = t('organizations.roles.permissionsOf', { title: role.title });
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <SwitchList label={label} items={items} onToggle={toggle} emptyText={t('organizations.roles.noPermissions')} />
    </>
  );
}
