import { useMemo } from 'react';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { TAttendanceStatus } from '@rollcall/contracts';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useGrants } from '../../auth/use-grants';

export interface AttendanceStatusRowActions {
  onEdit: (status: TAttendanceStatus) => void;
  onDelete: (status: TAttendanceStatus) => void;
}

/** Title, Active, Actions. */
export function useAttendanceStatusColumns(actions: AttendanceStatusRowActions): ColumnDef<TAttendanceStatus>[] {
  const { t } = useTranslation();
  const { onEdit, onDelete } = actions;
  return useMemo<ColumnDef<TAttendanceStatus>[]>(
    () => [
      {
        accessorKey: 'title',
        header: t('attendanceStatuses.columns.title'),
        cell: ({ row }) => (
          <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>
            {row.original.title}
          </Typography>
        ),
      },
      {
        accessorKey: 'active',
        header: t('attendanceStatuses.columns.active'),
        cell: ({ row }) =>
          row.original.active === 1 ? (
            <Chip size="small" color="success" variant="outlined" label={t('attendanceStatuses.activeYes')} />
          ) : (
            <Chip size="small" variant="outlined" label={t('attendanceStatuses.activeNo')} />
          ),
      },
      { id: 'actions', header: t('attendanceStatuses.columns.actions'), cell: ({ row }) => <RowMenu status={row.original} onEdit={onEdit} onDelete={onDelete} /> },
    ],
    [t, onEdit, onDelete],
  );
}

function RowMenu({ status, onEdit, onDelete }: { status: TAttendanceStatus } & AttendanceStatusRowActions) {
  const { t } = useTranslation();
  // statuses belong to no organization: only who may change them everywhere sees the menu
  if (!useGrants().mayEverywhere('attendance:write')) return null;
  return (
    <RowActionsMenu
      label={t('attendanceStatuses.actionsFor', { title: status.title })}
      actions={[
        { label: t('common.edit'), onSelect: () => onEdit(status) },
        { label: t('common.delete'), onSelect: () => onDelete(status) },
      ]}
    />
  );
}
