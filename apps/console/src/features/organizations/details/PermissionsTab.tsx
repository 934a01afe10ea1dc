import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { ConfirmItemDialog } from '../../../components/ConfirmItemDialog';
import { useConfirmation } from '../../../components/use-confirmation';
import { useLocalPaging } from '../../../components/use-local-paging';
import { DataTable, localPage } from '../../../components/data-table';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { trpc } from '../../../trpc';
import { DateTimeCell } from '../../../components/data-table/cells';
import type { OrganizationDetails, PermissionRow } from '../types';
import { CreatePermissionDialog } from './CreatePermissionDialog';
import { PermissionAccountsDialog } from './RoleAccountsDialog';
import { TabHeading } from './TabHeading';
import { titleSlugColumns } from './title-slug-columns';

/** Permissions: Title and Slug (edited inline), Num. uses, Created at, Actions (Associated accounts, delete); Add permission. */
export function PermissionsTab({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const paging = useLocalPaging();
  const list = trpc.organizations.permissions.useQuery({ id: organization.id });
  const { mutateAsync: rename } = trpc.organizations.renamePermission.useMutation();
  const { mutateAsync: reslug } = trpc.organizations.reslugPermission.useMutation();
  const remove = trpc.organizations.deletePermission.useMutation();
  const [createOpen, setCreateOpen] = useState(false);
  // the permission stays set while the dialog fades out
  const [accountsOf, setAccountsOf] = useState<PermissionRow | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const confirmation = useConfirmation<PermissionRow>();
  const askToConfirm = confirmation.ask;

  const columns = useMemo<ColumnDef<PermissionRow>[]>(() => {
    // a slug shows in the roles' switches too
    const reload = () => Promise.all([utils.organizations.permissions.invalidate({ id: organization.id }), utils.organizations.roles.invalidate({ id: organization.id })]);
    return [
      ...titleSlugColumns<PermissionRow>({ t, texts: 'organizations.permissions', rename, reslug, afterTitle: reload }),
      { accessorKey: 'num_uses', header: t('organizations.permissions.columns.uses'), cell: ({ row }) => row.original.num_uses },
      { accessorKey: 'created_at', header: t('organizations.permissions.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('organizations.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('organizations.permissions.actionsFor', { title: row.original.title })}
            actions={[
              {
                label: t('organizations.permissions.menu.accounts'),
                onSelect: () => {
                  setAccountsOf(row.original);
                  setAccountsOpen(true);
                },
              },
              {
                label: t('organizations.permissions.menu.delete'),
                changes: true,
                disabled: row.original.protected,
                hint: t('organizations.permissions.protected'),
                onSelect: () => {
                  askToConfirm(row.original);
                },
              },
            ]}
          />
        ),
      },
    ];
  }, [askToConfirm, t, utils, organization.id, rename, reslug]);

  const shown = localPage(list, paging.page, paging.pageSize);
  return (
    <>
      <TabHeading
        title={t('organizations.tabs.permissions')}
        action={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
            {t('organizations.permissions.add')}
          </Button>
        }
      />
      <DataTable
        {...shown}
        label={t('organizations.permissions.tableLabel', { title: organization.title })}
        columns={columns}
        getRowId={(row) => row.id}
        {...paging.tableProps}
        emptyText={t('organizations.permissions.empty')}
      />
      <CreatePermissionDialog open={createOpen} organization={organization} onClose={() => setCreateOpen(false)} />
      <PermissionAccountsDialog permission={accountsOf} open={accountsOpen} onClose={() => setAccountsOpen(false)} />
      <ConfirmItemDialog
        confirmation={confirmation}
        title={t('organizations.permissions.deleteTitle', { title: confirmation.item?.title ?? '' })}
        message={t('organizations.permissions.deleteMessage')}
        busy={remove.isPending}
        onConfirm={(permission) =>
          remove.mutate(
            { id: permission.id },
            confirmation.outcome(
              () => t('organizations.permissions.deleted'),
              () => {
                void utils.organizations.permissions.invalidate({ id: organization.id });
                void utils.organizations.roles.invalidate({ id: organization.id });
              },
            ),
          )
        }
      />
    </>
  );
}
