import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { useTranslation } from 'react-i18next';
import { APPLICATION_DESCRIPTION_MAX, TEXT_MAX } from '@rollcall/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useReadOnly } from '../../../components/read-only';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useConfirmation } from '../../../components/use-confirmation';
import { useFieldErrors } from '../../../components/use-field-errors';
import { trpc } from '../../../trpc';
import type { ApplicationPermissionRow } from '../types';
import { SectionCard } from './SectionCard';
import { fieldMessages } from '../../../components/field-messages';

const FIELD_NAMES = ['slug', 'description'] as const;

/**
 * Application permissions: one row per permission with its 'Permission title' (the slug: an
 * application permission has no other title, docs/adr/0014) and 'Description. Shown in user consent
 * form', each with its own Save and Remove (after a confirmation); 'Add Permission' adds an empty row
 * whose Save creates it ('Permission created!').
 */
export function PermissionsCard({ applicationId, permissions }: { applicationId: string; permissions: ApplicationPermissionRow[] }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [drafts, setDrafts] = useState<number[]>([]);
  const [nextDraft, setNextDraft] = useState(1);
  const remove = trpc.applications.removePermission.useMutation();
  const confirmation = useConfirmation<ApplicationPermissionRow>();

  const confirmRemove = () => {
    const removing = confirmation.item;
    if (!removing) return;
    remove.mutate({ id: removing.id }, confirmation.outcome(() => t('applications.permissions.deleted'), () => void utils.applications.byId.invalidate({ id: applicationId })));
  };

  return (
    <SectionCard
      title={t('applications.permissions.title')}
      action={
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => {
            setDrafts((current) => [...current, nextDraft]);
            setNextDraft((current) => current + 1);
          }}
        >
          {t('applications.permissions.add')}
        </Button>
      }
    >
      <Box sx={{ display: 'grid', gap: 2 }}>
        {permissions.length === 0 && drafts.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('applications.permissions.empty')}
          </Typography>
        ) : null}
        {permissions.map((permission) => (
          <PermissionRow key={permission.id} applicationId={applicationId} permission={permission} onRemove={() => confirmation.ask(permission)} />
        ))}
        {drafts.map((draft) => (
          <PermissionRow key={`draft-${draft}`} applicationId={applicationId} permission={null} onRemove={() => setDrafts((current) => current.filter((item) => item !== draft))} onCreated={() => setDrafts((current) => current.filter((item) => item !== draft))} />
        ))}
      </Box>
      <ConfirmDialog
        open={confirmation.open}
        title={t('applications.permissions.deleteTitle', { slug: confirmation.item?.slug ?? '' })}
        message={t('applications.permissions.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={confirmation.cancel}
      />
    </SectionCard>
  );
}

interface PermissionRowProps {
  applicationId: string;
  /** null: a new row, not saved yet */
  permission: ApplicationPermissionRow | null;
  onRemove: () => void;
  onCreated?: () => void;
}

function PermissionRow({ applicationId, permission, onRemove, onCreated }: PermissionRowProps) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const [slug, setSlug] = useState(permission?.slug ?? '');
  const [description, setDescription] = useState(permission?.description ?? '');
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const add = trpc.applications.addPermission.useMutation();
  const update = trpc.applications.updatePermission.useMutation();
  const reload = () => utils.applications.byId.invalidate({ id: applicationId });

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (permission) {
      update.mutate(
        { id: permission.id, slug, description },
        {
          onSuccess: () => {
            notify(t('applications.permissions.updated'), 'success');
            void reload();
          },
          onError: showServerErrors,
        },
      );
    } else {
      add.mutate(
        { application_id: applicationId, slug, description },
        {
          onSuccess: () => {
            notify(t('applications.permissions.created'), 'success');
            void reload().then(() => onCreated?.());
          },
          onError: showServerErrors,
        },
      );
    }
  };
  const name = permission?.slug || t('applications.permissions.newRow');
  return (
    <Box
      component="form"
      noValidate
      onSubmit={save}
      aria-label={t('applications.permissions.rowLabel', { slug: name })}
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(200px, 1fr) 2fr auto' }, gap: 1.5, alignItems: 'start' }}
    >
      <TextField
        size="small"
        label={t('applications.permissions.slug')}
        name="slug"
        required
        disabled={readOnly}
        value={slug}
        onChange={(event) => {
          setSlug(event.target.value);
          clearErrors('slug');
        }}
        error={Boolean(errors.slug)}
        helperText={fieldMessages(errors.slug) ?? t('applications.permissions.slugHint')}
        slotProps={{ htmlInput: { maxLength: TEXT_MAX, sx: { fontFamily: 'monospace' } } }}
      />
      <TextField
        size="small"
        label={t('applications.permissions.description')}
        name="description"
        disabled={readOnly}
        value={description}
        onChange={(event) => {
          setDescription(event.target.value);
          clearErrors('description');
        }}
        error={Boolean(errors.description)}
        helperText={fieldMessages(errors.description) ?? ' '}
        slotProps={{ htmlInput: { maxLength: APPLICATION_DESCRIPTION_MAX } }}
      />
      {readOnly ? null : (
        <Box sx={{ display: 'flex', gap: 0.5 }}>
          <Tooltip title={t('applications.permissions.save')}>
            <IconButton type="submit" aria-label={t('applications.permissions.saveRow', { slug: name })} loading={add.isPending || update.isPending}>
              <SaveIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('applications.permissions.remove')}>
            <IconButton aria-label={t('applications.permissions.removeRow', { slug: name })} onClick={onRemove}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Box>
      )}
    </Box>
  );
}
