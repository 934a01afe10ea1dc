import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import AddIcon from '@mui/icons-material/Add';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DataTable, pageQueryProps } from '../../../components/data-table';
import { trpc } from '../../../trpc';
import { CreateOrganizationDialog } from '../CreateOrganizationDialog';
import { DeleteOrganizationDialog } from '../DeleteOrganizationDialog';
import { RowActionsMenu } from '../../../components/RowActionsMenu';
import { useLocalPaging } from '../../../components/use-local-paging';
import { DateTimeCell, ShortId } from '../../../components/data-table/cells';
import { toOrganization } from '../../../paths';
import type { OrganizationDetails, OrganizationOption, SubOrganizationRow } from '../types';
import { TabHeading } from './TabHeading';

/** Sub-organizations: ID, Title, Num. members, Created at, Actions (Details, Delete organization); Add Suborg. */
export function SubOrganizationsTab({ organization }: { organization: OrganizationDetails }) {
  const { t } = useTranslation();
  const { page, pageSize, tableProps } = useLocalPaging();
  const list = trpc.organizations.subOrganizations.useQuery({ id: organization.id, page, limit: pageSize }, { placeholderData: (previous) => previous });
  const [createOpen, setCreateOpen] = useState(false);
  const [deleting, setDeleting] = useState<OrganizationOption | null>(null);

  const columns = useMemo<ColumnDef<SubOrganizationRow>[]>(
    () => [
      { accessorKey: 'id', header: t('organizations.columns.id'), cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        accessorKey: 'title',
        header: t('organizations.columns.title'),
        cell: ({ row }) => (
          <Link component={RouterLink} to={toOrganization(row.original.id)} sx={{ fontWeight: 500 }}>
            {row.original.title}
          </Link>
        ),
      },
      { accessorKey: 'num_members', header: t('organizations.columns.members'), cell: ({ row }) => row.original.num_members },
      { accessorKey: 'created_at', header: t('organizations.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('organizations.columns.actions'),
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('organizations.actionsFor', { title: row.original.title })}
            actions={[
              { label: t('organizations.menu.details'), to: toOrganization(row.original.id) },
              { label: t('organizations.menu.delete'), changes: true, disabled: row.original.protected, hint: t('organizations.protected'), onSelect: () => setDeleting({ id: row.original.id, title: row.original.title }) },
            ]}
          />
        ),
      },
    ],
    [t],
  );

  return (
    <>
      <TabHeading
        title={t('organizations.tabs.subOrganizations')}
        action={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreateOpen(true)}>
            {t('organizations.subOrganizations.add')}
          </Button>
        }
      />
      <DataTable
        {...pageQueryProps(list)}
        label={t('organizations.subOrganizations.tableLabel', { title: organization.title })}
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        {...tableProps}
        emptyText={t('organizations.subOrganizations.empty')}
      />
      <CreateOrganizationDialog open={createOpen} parent={{ id: organization.id, title: organization.title }} onClose={() => setCreateOpen(false)} />
      {/* the list refreshes itself: the delete invalidates every organization query */}
      <DeleteOrganizationDialog organization={deleting} onClose={() => setDeleting(null)} onDeleted={() => undefined} />
    </>
  );
}
