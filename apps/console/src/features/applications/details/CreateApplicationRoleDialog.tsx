import { useId, type FormEvent } from 'react';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import { useTranslation } from 'react-i18next';
import { APPLICATION_DESCRIPTION_MAX } from '@rollcall/contracts';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { TitleSlugDescriptionFields } from '../../../components/TitleSlugDescriptionFields';
import { useFormFields } from '../../../components/use-form-fields';
import { trpc } from '../../../trpc';
import type { ApplicationPermissionRow } from '../types';
import { fieldMessages } from '../../../components/field-messages';

const FIELDS = ['title', 'slug', 'description', 'permissions'] as const;

interface CreateApplicationRoleDialogProps {
  open: boolean;
  applicationId: string;
  permissions: ApplicationPermissionRow[];
  onClose: () => void;
}

/** 'Create new role for an application' (800px): title, slug, description, the permissions (offered by slug, chosen by id; menu at most 400px high). */
export function CreateApplicationRoleDialog({ open, applicationId, permissions, onClose }: CreateApplicationRoleDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 800, maxWidth: 'calc(100% - 32px)', m: 2 } } }} maxWidth={false}>
      <CreateRoleForm titleId={titleId} applicationId={applicationId} permissions={permissions} onClose={onClose} />
    </Dialog>
  );
}

function CreateRoleForm({ titleId, applicationId, permissions, onClose }: Omit<CreateApplicationRoleDialogProps, 'open'> & { titleId: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const labelId = useId();
  const { values, errors, change, textField, showServerErrors } = useFormFields({ title: '', slug: '', description: '', permissions: [] as string[] }, FIELDS);
  const create = trpc.applications.createRole.useMutation();
  const slugOf = new Map(permissions.map((permission) => [permission.id, permission.slug]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { application_id: applicationId, ...values },
      {
        onSuccess: () => {
          notify(t('applications.roles.created'), 'success');
          void utils.applications.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('applications.roles.createTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('applications.roles.createSubmit')} busy={create.isPending}>
      <TitleSlugDescriptionFields
        field={textField}
        texts={{
          title: t('applications.roles.fields.title'),
          slug: t('applications.roles.fields.slug'),
          slugHint: t('applications.roles.fields.slugHint'),
          description: t('applications.roles.fields.description'),
        }}
        descriptionMax={APPLICATION_DESCRIPTION_MAX}
      />
      <FormControl error={Boolean(errors.permissions)}>
        <InputLabel id={labelId}>{t('applications.roles.fields.permissions')}</InputLabel>
        <Select
          labelId={labelId}
          multiple
          name="permissions"
          value={values.permissions}
          onChange={(event) => {
            const value = event.target.value;
            change('permissions', typeof value === 'string' ? value.split(',') : value);
          }}
          input={<OutlinedInput label={t('applications.roles.fields.permissions')} />}
          renderValue={(selected) => selected.map((id) => slugOf.get(id) ?? id).join(', ')}
          MenuProps={{ slotProps: { paper: { sx: { maxHeight: 400 } } } }}
        >
          {permissions.length === 0 ? (
            <MenuItem disabled value="">
              {t('applications.roles.noPermissions')}
            </MenuItem>
          ) : (
            permissions.map((permission) => (
              <MenuItem key={permission.id} value={permission.id}>
                <Checkbox checked={values.permissions.includes(permission.id)} size="small" />
                <ListItemText primary={permission.slug} secondary={permission.description || null} slotProps={{ primary: { sx: { fontFamily: 'monospace' } } }} />
              </MenuItem>
            ))
          )}
        </Select>
        <FormHelperText>{fieldMessages(errors.permissions) ?? t('applications.roles.fields.permissionsHint')}</FormHelperText>
      </FormControl>
    </FormDialogLayout>
  );
}
