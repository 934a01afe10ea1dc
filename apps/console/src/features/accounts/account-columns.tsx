import { useMemo } from 'react';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TAccountListItem } from '@rollcall/contracts';
import { EntityId } from '../../components/EntityId';
import { fullName } from '../../lib/account-name';
import { formatDate } from '../../lib/format-date';
import { ZonedDateTime } from '../../components/ZonedTime';
import { useStatusLabel } from '../../lib/use-status-label';
import { toAccount } from '../../paths';

/** Column ids (accessor keys) of sortable columns are the server's sortBy values. */
export function useAccountColumns(): ColumnDef<TAccountListItem>[] {
  const { t } = useTranslation();
  const statusLabel = useStatusLabel();
  return useMemo<ColumnDef<TAccountListItem>[]>(
    () => [
      {
        accessorKey: 'id',
        header: t('accounts.columns.id'),
        enableSorting: false,
        // the last characters: a v7 id begins with its creation time, so accounts made together share the first ones
        cell: ({ row }) => <EntityId id={row.original.id} />,
      },
      {
        accessorKey: 'first_name',
        header: t('accounts.columns.name'),
        cell: ({ row }) => (
          <>
            <Link component={RouterLink} to={toAccount(row.original.id)} sx={{ fontWeight: 500 }}>
              {fullName(row.original)}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {row.original.username_readable}
            </Typography>
          </>
        ),
      },
      {
        accessorKey: 'email',
        header: t('accounts.columns.email'),
        cell: ({ row }) => row.original.email,
      },
      {
        accessorKey: 'status_id',
        header: t('accounts.columns.status'),
        cell: ({ row }) => statusLabel(row.original.status_id, row.original.status_title),
      },
      {
        accessorKey: 'created_at',
        header: t('accounts.columns.createdAt'),
        cell: ({ row }) => formatDate(row.original.created_at),
      },
      {
        accessorKey: 'last_login_at',
        header: t('accounts.columns.lastLogin'),
        cell: ({ row }) =>
          row.original.last_login_at ? (
            <ZonedDateTime at={row.original.last_login_at} />
          ) : (
            <Typography component="span" variant="body2" sx={{ color: 'error.dark', fontWeight: 500 }}>
              {t('accounts.never')}
            </Typography>
          ),
      },
    ],
    [t, statusLabel],
  );
}
