import { useId, type FormEvent } from 'react';
import Dialog from '@mui/material/Dialog';
import { useTranslation } from 'react-i18next';
import { FormDialogLayout } from '../../../components/FormDialogLayout';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { TitleSlugDescriptionFields } from '../../../components/TitleSlugDescriptionFields';
import { useFormFields } from '../../../components/use-form-fields';
import { trpc } from '../../../trpc';
import type { OrganizationOption } from '../types';

const FIELDS = ['title', 'slug', 'description'] as const;

/** 'Create new permission': title, slug (a short name used with OIDC/OAuth2), description (shown during authorization). */
export function CreatePermissionDialog({ open, organization, onClose }: { open: boolean; organization: OrganizationOption; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 560, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <CreatePermissionForm titleId={titleId} organization={organization} onClose={onClose} />
    </Dialog>
  );
}

function CreatePermissionForm({ titleId, organization, onClose }: { titleId: string; organization: OrganizationOption; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const { values, textField, showServerErrors } = useFormFields({ title: '', slug: '', description: '' }, FIELDS);
  const create = trpc.organizations.createPermission.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { organization_id: organization.id, title: values.title.trim(), slug: values.slug.trim(), description: values.description.trim() },
      {
        onSuccess: (permission) => {
          notify(t('organizations.permissions.created', { slug: permission.slug }), 'success');
          void utils.organizations.permissions.invalidate({ id: organization.id });
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <FormDialogLayout titleId={titleId} title={t('organizations.permissions.createTitle')} onSubmit={submit} onCancel={onClose} submitLabel={t('organizations.permissions.createSubmit')} busy={create.isPending}>
      <TitleSlugDescriptionFields
        field={textField}
        texts={{
          title: t('organizations.permissions.fields.title'),
          slug: t('organizations.permissions.fields.slug'),
          slugHint: t('organizations.permissions.slugHint'),
          description: t('organizations.permissions.fields.description'),
          descriptionHint: t('organizations.permissions.descriptionHint'),
        }}
        codeSlug
      />
    </FormDialogLayout>
  );
}
