import { useMemo } from 'react';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { TSmartCard } from '@rollcall/contracts';
import { EntityId } from '../../../../components/EntityId';
import { RowActionsMenu } from '../../../../components/RowActionsMenu';
import { ZonedDateTime } from '../../../../components/ZonedTime';

const mono = { fontFamily: 'monospace' } as const;

/** Card ID, Card UID, Added at, Actions ('Remove card'). */
export function useSmartCardColumns(onRemove: (card: TSmartCard) => void): ColumnDef<TSmartCard>[] {
  const { t } = useTranslation();
  return useMemo<ColumnDef<TSmartCard>[]>(
    () => [
      {
        accessorKey: 'id',
        header: t('smartCards.columns.id'),
        enableSorting: false,
        cell: ({ row }) => <EntityId id={row.original.id} variant="caption" />,
      },
      {
        accessorKey: 'card_uid',
        header: t('smartCards.columns.uid'),
        cell: ({ row }) => (
          <Typography component="span" variant="body2" sx={{ ...mono, fontWeight: 500 }}>
            {row.original.card_uid}
          </Typography>
        ),
      },
      { id: 'created_at', accessorKey: 'created_at', header: t('smartCards.columns.addedAt'), cell: ({ row }) => <ZonedDateTime at={row.original.created_at} /> },
      {
        id: 'actions',
        header: t('smartCards.columns.actions'),
        enableSorting: false,
        cell: ({ row }) => (
          <RowActionsMenu
            label={t('smartCards.actionsFor', { uid: row.original.card_uid })}
            actions={[{ label: t('smartCards.remove'), onSelect: () => onRemove(row.original), changes: true }]}
          />
        ),
      },
    ],
    [t, onRemove],
  );
}
