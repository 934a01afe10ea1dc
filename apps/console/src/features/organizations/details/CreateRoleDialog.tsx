import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DescriptionField } from '../../../components/DescriptionField';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { CountedTextField } from '../../../components/CountedTextField';
import { ErrorState } from '../../../components/ErrorState';
import { LoadingState } from '../../../components/LoadingState';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useFieldErrors } from '../../../lib/use-field-errors';
import { trpc } from '../../../trpc';
import type { OrganizationOption } from '../types';

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
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELDS);
  const permissions = trpc.organizations.permissions.useQuery({ id: organization.id });
  const create = trpc.organizations.createRole.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { organization_id: organization.id, title: title.trim(), slug: slug.trim(), description: description.trim(), permissions: chosen },
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
  const choose = (id: string, on: boolean) => {
    setChosen((current) => (on ? [...current, id] : current.filter((held) => held !== id)));
    clearErrors('permissions');
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('organizations.roles.createTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.roles.createSubmit')} busy={create.isPending} formSx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <Paper variant="outlined" component="section" aria-labelledby={detailsId} sx={{ p: 2, display: 'grid', gap: 2.5 }}>
          <Typography id={detailsId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('organizations.roles.detailsPanel')}
          </Typography>
          <CountedTextField
            label={t('organizations.roles.fields.title')}
            name="title"
            required
            autoFocus
            value={title}
            onValueChange={(value) => {
              setTitle(value);
              clearErrors('title');
            }}
            errors={errors.title}
          />
          <CountedTextField
            label={t('organizations.roles.fields.slug')}
            name="slug"
            required
            value={slug}
            onValueChange={(value) => {
              setSlug(value);
              clearErrors('slug');
            }}
            hint={t('organizations.roles.slugHint')}
            errors={errors.slug}
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none', style: { fontFamily: 'monospace' } } }}
          />
          <DescriptionField
            label={t('organizations.roles.fields.description')} value={description} errors={errors.description}
            onValueChange={(value) => {
              setDescription(value);
              clearErrors('description');
            }}
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
                  control={<Checkbox size="small" name="permissions" value={permission.id} checked={chosen.includes(permission.id)} onChange={(_event, on) => choose(permission.id, on)} sx={{ pt: 0.25 }} />}
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
          {errors.permissions ? <FormHelperText error>{errors.permissions.join(' ')}</FormHelperText> : null}
        </Paper>
      </FormDialogLayout>
    </>
  );
}
