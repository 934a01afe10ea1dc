import { useId, useState, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { READER_ROLES, type TReader, type TReaderRole } from '@rollcall/contracts';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { ReaderNameDoorFields } from './ReaderNameDoorFields';
import { fieldMessages } from '../../components/field-messages';

const FIELD_NAMES = ['name', 'door', 'role'] as const;

interface RegisterReaderDialogProps {
  open: boolean;
  onClose: () => void;
  /** the reader is registered: the page issues its token and shows it once */
  onRegistered: (reader: TReader) => void;
}

/** 'Register a reader': name, door and role (door or enrollment). Closing unmounts the form. */
export function RegisterReaderDialog({ open, onClose, onRegistered }: RegisterReaderDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} aria-labelledby={titleId}>
      {open ? <RegisterReaderForm titleId={titleId} onClose={onClose} onRegistered={onRegistered} /> : null}
    </Dialog>
  );
}

function RegisterReaderForm({ titleId, onClose, onRegistered }: { titleId: string } & Omit<RegisterReaderDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [door, setDoor] = useState('');
  const [role, setRole] = useState<TReaderRole>('door');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const register = trpc.readers.register.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    register.mutate({ name, door, role }, { onSuccess: onRegistered, onError: showServerErrors });
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('readers.dialog.registerTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('readers.dialog.register')} busy={register.isPending}>
      <ReaderNameDoorFields
        name={name}
        door={door}
        onName={(value) => {
          setName(value);
          clearErrors('name');
        }}
        onDoor={(value) => {
          setDoor(value);
          clearErrors('door');
        }}
        errors={errors}
      />
      <TextField
        select
        label={t('readers.dialog.role')}
        name="role"
        value={role}
        onChange={(event) => {
          setRole(event.target.value as TReaderRole);
          clearErrors('role');
        }}
        error={Boolean(errors.role?.length)}
        helperText={fieldMessages(errors.role) ?? t(`readers.roleHint.${role}`)}
      >
        {READER_ROLES.map((value) => (
          <MenuItem key={value} value={value}>
            {t(`readers.role.${value}`)}
          </MenuItem>
        ))}
      </TextField>
    </FormDialogLayout>
  );
}
