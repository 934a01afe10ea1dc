import { useTranslation } from 'react-i18next';
import type { TAttendanceStatus } from '@rollcall/contracts';
import { EditableListPage } from '../../components/EditableListPage';
import { useListEditor } from '../../components/use-list-editor';
import { useGrants } from '../../auth/use-grants';
import { trpc } from '../../trpc';
import { useAttendanceStatusColumns } from './attendance-status-columns';
import { AttendanceStatusDialog } from './AttendanceStatusDialog';

/** /attendance-statuses: every status, Add status, row menu Edit / Delete (with confirmation). */
export default function AttendanceStatusesPage() {
  const { t } = useTranslation();
  const grants = useGrants();
  const utils = trpc.useUtils();
  const list = trpc.attendanceStatuses.list.useQuery();
  const remove = trpc.attendanceStatuses.delete.useMutation();
  const editor = useListEditor<TAttendanceStatus>();
  const columns = useAttendanceStatusColumns({ onEdit: editor.edit, onDelete: editor.confirmation.ask });

  return (
    <EditableListPage
      title={t('attendanceStatuses.title')}
      addLabel={t('attendanceStatuses.addButton')}
      mayAdd={grants.mayEverywhere('attendance:write')}
      tableLabel={t('attendanceStatuses.tableLabel')}
      emptyText={t('attendanceStatuses.empty')}
      list={list}
      columns={columns}
      editor={editor}
      dialog={<AttendanceStatusDialog open={editor.dialogOpen} status={editor.editing} onClose={editor.closeDialog} />}
      deleteTitle={(status) => t('attendanceStatuses.deleteTitle', { title: status?.title ?? '' })}
      deleteMessage={t('attendanceStatuses.deleteMessage')}
      deleting={remove.isPending}
      onDelete={(status) =>
        remove.mutate(
          { id: status.id },
          editor.confirmation.outcome(
            () => t('attendanceStatuses.deleted'),
            () => void utils.attendanceStatuses.list.invalidate(),
          ),
        )
      }
    />
  );
}
