import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TAttendanceStatus } from '@rollcall/contracts';
import { CountedTextField } from '../../components/CountedTextField';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';

const FIELD_NAMES = ['title', 'active'] as const;

interface AttendanceStatusDialogProps {
  open: boolean;
  /** null: create mode; a status: update mode (spec section 4, 'Status dialog') */
  status: TAttendanceStatus | null;
  onClose: () => void;
}

/** 'Create or Update status': Title and Active. Closing unmounts the form, so it reopens fresh. */
export function AttendanceStatusDialog({ open, status, onClose }: AttendanceStatusDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} aria-labelledby={titleId}>
      <StatusForm key={status?.id ?? 'new'} titleId={titleId} status={status} onClose={onClose} />
    </Dialog>
  );
}

function StatusForm({ titleId, status, onClose }: { titleId: string; status: TAttendanceStatus | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState(status?.title ?? '');
  // Active when the stored value is 1; a new status starts active
  const [active, setActive] = useState(status ? status.active === 1 : true);
  const { errors, clearErrors, showServerErrors: onError } = useFieldErrors(FIELD_NAMES);
  const create = trpc.attendanceStatuses.create.useMutation();
  const update = trpc.attendanceStatuses.update.useMutation();
  const saving = create.isPending || update.isPending;

  const onSaved = (message: string) => {
    notify(message, 'success');
    void utils.attendanceStatuses.list.invalidate();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (status) update.mutate({ id: status.id, title, active }, { onSuccess: () => onSaved(t('attendanceStatuses.updated')), onError });
    else create.mutate({ title, active }, { onSuccess: () => onSaved(t('attendanceStatuses.created')), onError });
  };

  return (
    <FormDialogLayout
      titleId={titleId}
      title={status ? t('attendanceStatuses.dialog.updateTitle') : t('attendanceStatuses.dialog.createTitle')}
      onSubmit={submit}
      onCancel={onClose}
      submitLabel={status ? t('attendanceStatuses.dialog.update') : t('attendanceStatuses.dialog.create')}
      busy={saving}
    >
      <CountedTextField
        label={t('attendanceStatuses.dialog.title')}
        name="title"
        required
        autoFocus
        autoComplete="off"
        value={title}
        onValueChange={(value) => {
          setTitle(value);
          clearErrors('title');
        }}
        errors={errors.title}
      />
      <FormControlLabel
        label={t('attendanceStatuses.dialog.active')}
        control={
          <Switch
            checked={active}
            onChange={(event) => {
              setActive(event.target.checked);
              clearErrors('active');
            }}
          />
        }
      />
    </FormDialogLayout>
  );
}
