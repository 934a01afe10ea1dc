import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TReader } from '@rollcall/contracts';
import { EntityId } from '../../components/EntityId';
import { FormDialogLayout } from '../../components/FormDialogLayout';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../components/use-field-errors';
import { trpc } from '../../trpc';
import { ReaderNameDoorFields } from './ReaderNameDoorFields';

const FIELD_NAMES = ['name', 'door'] as const;

/** 'Edit reader': rename it (`readers.rename`) and move it to another door (`readers.move`). */
export function EditReaderDialog({ reader, onClose }: { reader: TReader | null; onClose: () => void }) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={Boolean(reader)} onClose={onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} aria-labelledby={titleId}>
      {reader ? <EditReaderForm key={reader.id} titleId={titleId} reader={reader} onClose={onClose} /> : null}
    </Dialog>
  );
}

function EditReaderForm({ titleId, reader, onClose }: { titleId: string; reader: TReader; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [name, setName] = useState(reader.name);
  const [door, setDoor] = useState(reader.door);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const rename = trpc.readers.rename.useMutation();
  const move = trpc.readers.move.useMutation();
  const saving = rename.isPending || move.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    try {
      // two calls, each its own event: the name first, so a taken name leaves the door unchanged too
      if (name.trim() !== reader.name) await rename.mutateAsync({ id: reader.id, name });
      if (door.trim() !== reader.door) await move.mutateAsync({ id: reader.id, door });
      notify(t('readers.updated', { name: name.trim() }), 'success');
      void utils.readers.list.invalidate();
      onClose();
    } catch (error) {
      void utils.readers.list.invalidate();
      showServerErrors(error);
    }
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('readers.dialog.editTitle')} onSubmit={(event) => void submit(event)} onCancel={onClose} submitLabel={t('readers.dialog.save')} busy={saving}>
      {/* the id the door agent is configured with (ROLLCALL_AGENT_READER_ID): it never changes */}
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          {t('readers.token.readerId')}
        </Typography>
        <EntityId id={reader.id} full />
      </Box>
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
    </FormDialogLayout>
  );
}
