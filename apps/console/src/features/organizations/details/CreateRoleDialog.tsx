import { useId, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { TitleSlugDescriptionFields } from '../../../components/TitleSlugDescriptionFields';
import { useFormFields } from '../../../components/use-form-fields';
import { trpc } from '../../../trpc';
import type { OrganizationOption } from '../types';
import { fieldMessages } from '../../../components/field-messages';

const FIELDS = ['title', 'slug', 'description', 'permissions'] as const;

/** 'Create role for an organization' (800px): a Details panel (title, slug, description) and a Permissions panel (the organization's permissions); Create. */
export function CreateRoleDialog({ open, organization, onClose }: { open: boolean; organization: OrganizationOption; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 800, maxWidth: 'calc(100% - 32px)', m: 2 } } }} maxWidth={false}>
      <CreateRoleForm titleId={titleId} organization={organization} onClose={onClose} />
    </Dialog>
  );
}

function CreateRoleForm({ titleId, organization, onClose }: { titleId: string; organization: OrganizationOption; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const detailsId = useId();
  const permissionsId = useId();
  const { values, errors, change, textField, showServerErrors } = useFormFields({ title: '', slug: '', description: '', permissions: [] as string[] }, FIELDS);
  const permissions = trpc.organizations.permissions.useQuery({ id: organization.id });
  const create = trpc.organizations.createRole.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { organization_id: organization.id, title: values.title.trim(), slug: values.slug.trim(), description: values.description.trim(), permissions: values.permissions },
      {
        onSuccess: () => {
          notify(t('organizations.roles.created'), 'success');
          void utils.organizations.roles.invalidate({ id: organization.id });
          void utils.organizations.permissions.invalidate({ id: organization.id });
          void utils.organizations.memberRoles.invalidate({ id: organization.id });
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };
  const choose = (id: string, on: boolean) => change('permissions', on ? [...values.permissions, id] : values.permissions.filter((held) => held !== id));

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('organizations.roles.createTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.roles.createSubmit')} busy={create.isPending} formSx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <Paper variant="outlined" component="section" aria-labelledby={detailsId} sx={{ p: 2, display: 'grid', gap: 2.5 }}>
          <Typography id={detailsId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('organizations.roles.detailsPanel')}
          </Typography>
          <TitleSlugDescriptionFields
            field={textField}
            texts={{
              title: t('organizations.roles.fields.title'),
              slug: t('organizations.roles.fields.slug'),
              slugHint: t('organizations.roles.slugHint'),
              description: t('organizations.roles.fields.description'),
            }}
            codeSlug
          />
        </Paper>
        <Paper variant="outlined" component="fieldset" sx={{ p: 2, m: 0, minWidth: 0, display: 'grid', gap: 1 }}>
          <Typography component="legend" variant="subtitle1" id={permissionsId} sx={{ fontWeight: 600, float: 'left', width: '100%', mb: 1 }}>
            {t('organizations.roles.permissionsPanel')}
          </Typography>
          {permissions.isLoading ? (
            <LoadingState minHeight={96} />
          ) : permissions.error || !permissions.data ? (
            <ErrorState error={permissions.error} onRetry={() => void permissions.refetch()} />
          ) : !permissions.data.length ? (
            <Typography variant="body2" color="text.secondary">
              {t('organizations.roles.noPermissions')}
            </Typography>
          ) : (
            <Box sx={{ display: 'grid', gap: 0.5, maxHeight: 400, overflowY: 'auto' }}>
              {permissions.data.map((permission) => (
                <FormControlLabel
                  key={permission.id}
                  sx={{ alignItems: 'flex-start', mr: 0 }}
                  control={<Checkbox size="small" name="permissions" value={permission.id} checked={values.permissions.includes(permission.id)} onChange={(_event, on) => choose(permission.id, on)} sx={{ pt: 0.25 }} />}
                  label={
                    <Box component="span" sx={{ display: 'grid' }}>
                      <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                        {permission.slug}
                      </Typography>
                      <Typography component="span" variant="caption" color="text.secondary">
                        {permission.title}
                      </Typography>
                    </Box>
                  }
                />
              ))}
            </Box>
          )}
          {errors.permissions ? <FormHelperText error>{fieldMessages(errors.permissions)}</FormHelperText> : null}
        </Paper>
      </FormDialogLayout>
    </>
  );
}
