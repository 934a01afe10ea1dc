import { useMemo } from 'react';
import Link from '@mui/material/Link';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { DateTimeCell, ShortId } from '../../components/data-table/cells';
import { toApplication } from '../../paths';
import type { ApplicationRow } from './types';

/**
 * The spec shows no columns for /applications: ID, Title (a link to the details), URL, Client type,
 * Roles, Permissions, Created at, Actions (Details, Delete), as the teams list has them.
 */
export function useApplicationColumns({ onDelete, mayWrite }: { onDelete: (application: ApplicationRow) => void; mayWrite: boolean }): ColumnDef<ApplicationRow>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<ApplicationRow>[]>(
    () => [
      { accessorKey: 'id', header: t('applications.columns.id'), enableSorting: false, cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        accessorKey: 'title',
        header: t('applications.columns.title'),
        cell: ({ row }) => (
          <Link component={RouterLink} to={toApplication(row.original.id)} sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {row.original.title}
          </Link>
        ),
      },
      { accessorKey: 'url', header: t('applications.columns.url'), enableSorting: false, cell: ({ row }) => row.original.url ?? '' },
      { accessorKey: 'client_type', header: t('applications.columns.clientType'), enableSorting: false, cell: ({ row }) => t(`applications.clientTypes.${row.original.client_type}`) },
      { accessorKey: 'num_roles', header: t('applications.columns.roles'), enableSorting: false, cell: ({ row }) => row.original.num_roles },
      { accessorKey: 'num_permissions', header: t('applications.columns.permissions'), enableSorting: false, cell: ({ row }) => row.original.num_permissions },
      { accessorKey: 'created_at', header: t('applications.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('applications.columns.actions'),
        enableSorting: false,
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('applications.actionsFor', { title: row.original.title })}
            actions={[
              { label: t('applications.menu.details'), to: toApplication(row.original.id) },
              ...(mayWrite ? [{ label: t('applications.menu.delete'), changes: true, onSelect: () => onDelete(row.original) }] : []),
            ]}
          />
        ),
      },
    ],
    [t, onDelete, mayWrite],
  );
}
