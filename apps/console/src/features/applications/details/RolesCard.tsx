import { useCallback, useId, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/api-error';
import { ConfirmItemDialog } from '../../../components/ConfirmItemDialog';
import { DataTable, ExpandRowButton, localPage } from '../../../components/data-table';
import { InlineEditCell } from '../../../components/InlineEditCell';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { SwitchList, type SwitchItem } from '../../../components/SwitchList';
import { useConfirmation } from '../../../components/use-confirmation';
import { useLocalPaging } from '../../../components/use-local-paging';
import { trpc } from '../../../trpc';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import type { ApplicationDetails, ApplicationPermissionRow, ApplicationRoleRow } from '../types';
import { CreateApplicationRoleDialog } from './CreateApplicationRoleDialog';
import { SectionCard } from './SectionCard';

/**
 * Application roles: ID, Expand (one switch per permission: label its slug, hint its description),
 * Title (inline 'Update Title'), Created at, Actions (Delete, after 'Remove ({title}) from
 * application'); 'Add Role' opens the 800px dialog.
 */
export function RolesCard({ application }: { application: ApplicationDetails }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const baseId = useId();
  const applicationId = application.app.id;
  const paging = useLocalPaging();
  const [expanded, setExpanded] = useState<string | null>(null);
  const [createOpen, setCreateOpen] = useState(false);
  const { mutateAsync: rename } = trpc.applications.renameRole.useMutation();
  const remove = trpc.applications.deleteRole.useMutation();
  const confirmation = useConfirmation<ApplicationRoleRow>();
  const askToConfirm = confirmation.ask;
  const panelId = useCallback((roleId: string) => `${baseId}-permissions-${roleId}`, [baseId]);

  const columns = useMemo<ColumnDef<ApplicationRoleRow>[]>(
    () => [
      { accessorKey: 'id', header: t('applications.roles.columns.id'), cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        id: 'expand',
        header: t('applications.roles.columns.expand'),
        cell: ({ row }) => (
          <ExpandRowButton label={t('applications.roles.expand', { title: row.original.title })} expanded={row.getIsExpanded()} controls={panelId(row.original.id)} onToggle={() => row.toggleExpanded()} />
        ),
      },
      {
        accessorKey: 'title',
        header: t('applications.roles.columns.title'),
        cell: ({ row }) => (
          <InlineEditCell
            value={row.original.title}
            field="title"
            label={t('applications.roles.fields.title')}
            editLabel={t('applications.roles.editTitle', { title: row.original.title })}
            savedMessage={t('applications.roles.titleUpdated')}
            onSave={async (title) => {
              await rename({ id: row.original.id, title });
              await utils.applications.byId.invalidate({ id: applicationId });
            }}
          />
        ),
      },
      { accessorKey: 'created_at', header: t('applications.roles.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('applications.roles.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('applications.roles.actionsFor', { title: row.original.title })}
            actions={[{ label: t('applications.roles.menu.delete'), changes: true, onSelect: () => askToConfirm(row.original) }]}
          />
        ),
      },
    ],
    [t, rename, utils, applicationId, panelId, askToConfirm],
  );

  const shown = localPage({ data: application.roles, isLoading: false, isFetching: false, error: null, refetch: () => undefined }, paging.page, paging.pageSize);
  return (
    <SectionCard
      title={t('applications.roles.title')}
      action={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
          {t('applications.roles.add')}
        </Button>
      }
    >
      <DataTable
        {...shown}
        label={t('applications.roles.tableLabel', { title: application.app.title })}
        columns={columns}
        getRowId={(row) => row.id}
        {...paging.tableProps}
        emptyText={t('applications.roles.empty')}
        expandedRowId={expanded}
        onExpandedRowChange={setExpanded}
        renderExpandedRow={(role) => (
          <Box id={panelId(role.id)}>
            <RolePermissionSwitches applicationId={applicationId} role={role} permissions={application.permissions} />
          </Box>
        )}
      />
      <CreateApplicationRoleDialog open={createOpen} applicationId={applicationId} permissions={application.permissions} onClose={() => setCreateOpen(false)} />
      <ConfirmItemDialog
        confirmation={confirmation}
        title={t('applications.roles.deleteTitle', { title: confirmation.item?.title ?? '' })}
        message={t('applications.roles.deleteMessage')}
        busy={remove.isPending}
        onConfirm={(role) => remove.mutate({ id: role.id }, confirmation.outcome(() => t('applications.roles.deleted'), () => void utils.applications.invalidate()))}
      />
    </SectionCard>
  );
}

/**
 * An expanded role: one switch per permission of the application. Switching on answers the relation
 * id, which the role's data then carries; switching off removes the relation by that id.
 */
function RolePermissionSwitches({ applicationId, role, permissions }: { applicationId: string; role: ApplicationRoleRow; permissions: ApplicationPermissionRow[] }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const add = trpc.applications.addRolePermission.useMutation();
  const removeRelation = trpc.applications.removeRolePermission.useMutation();
  const relationOf = new Map(role.permissions.map((link) => [link.id, link.relation_id]));
  const items: SwitchItem[] = permissions.map((permission) => ({ id: permission.id, label: permission.slug, hint: permission.description || undefined, checked: relationOf.has(permission.id) }));

  const toggle = async (item: SwitchItem, enabled: boolean) => {
    try {
      const relationId = relationOf.get(item.id);
      if (enabled) await add.mutateAsync({ role_id: role.id, permission_id: item.id });
      else if (relationId) await removeRelation.mutateAsync({ id: relationId });
      notify(t(enabled ? 'applications.roles.permissionEnabled' : 'applications.roles.permissionDisabled', { slug: item.label }), 'success');
    } catch (error) {
      notify(describeError(error, t), 'error');
    }
    await utils.applications.byId.invalidate({ id: applicationId });
  };
  const label = t('applications.roles.permissionsOf', { title: role.title });
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {label}
      </Typography>
      <SwitchList label={label} items={items} onToggle={toggle} emptyText={t('applications.roles.noPermissions')} />
    </>
  );
}
