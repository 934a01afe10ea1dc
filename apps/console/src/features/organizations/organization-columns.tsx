import { useMemo } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { DateTimeCell, ShortId } from '../../components/data-table/cells';
import { toOrganization } from '../../paths';
import type { OrganizationRow } from './types';

/** ID, Title, Parent ('belongs to'), Num. members, Created at, Actions. Sortable: title, created at. */
export function useOrganizationColumns(): ColumnDef<OrganizationRow>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<OrganizationRow>[]>(
    () => [
      { accessorKey: 'id', header: t('organizations.columns.id'), enableSorting: false, cell: ({ row }) => <ShortId id={row.original.id} /> },
      {
        accessorKey: 'title',
        header: t('organizations.columns.title'),
        cell: ({ row }) => (
          <Link component={RouterLink} to={toOrganization(row.original.id)} sx={{ fontWeight: 500 }}>
            {row.original.title}
          </Link>
        ),
      },
      {
        accessorKey: 'parent_title',
        header: t('organizations.columns.parent'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.parent_id ? (
            <Link component={RouterLink} to={toOrganization(row.original.parent_id)}>
              {row.original.parent_title}
            </Link>
          ) : (
            <Typography component="span" variant="body2" color="text.secondary">
              {t('organizations.topLevel')}
            </Typography>
          ),
      },
      { accessorKey: 'num_members', header: t('organizations.columns.members'), enableSorting: false, cell: ({ row }) => row.original.num_members },
      { accessorKey: 'created_at', header: t('organizations.columns.createdAt'), cell: ({ row }) => <DateTimeCell value={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('organizations.columns.actions'),
        enableSorting: false,
        cell: ({ row }) => <RowActionsMenu label={t('organizations.actionsFor', { title: row.original.title })} actions={[{ label: t('organizations.menu.details'), to: toOrganization(row.original.id) }]} />,
      },
    ],
    [t],
  );
}
