import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { DescriptionField } from '../DescriptionField';
import { FormDialogLayout } from '../FormDialogLayout';
import { TEAM_DESCRIPTION_MAX, type TAccountSearchItem, type TOrganizationSearchItem } from '@rollcall/contracts';
import { CountedTextField } from '../CountedTextField';
import { useSnackbar } from '../snackbar/snackbar-context';
import { useFieldErrors } from '../use-field-errors';
import { trpc } from '../../trpc';
import { OrganizationPicker } from '../organizations/OrganizationPicker';
import { AccountsPicker } from './AccountsPicker';

const FIELD_NAMES = ['title', 'description', 'interorg', 'organization', 'accounts'] as const;

interface CreateTeamDialogProps {
  open: boolean;
  /** 'Add Team' on an organization's Teams tab: the organization is fixed */
  organization?: TOrganizationSearchItem | null;
  onClose: () => void;
}

/**
 * 'Create new team' (spec section 2 and 4): Title (255), Description, the 'Multi-organization team'
 * switch, the organization picker while it is off, the first members. With a preset organization the
 * organization is fixed and so is the switch (off: docs/adr/0010); turning the switch on clears the
 * organization. After 'Create team' the dialog closes, and opens empty next time.
 */
export function CreateTeamDialog({ open, organization = null, onClose }: CreateTeamDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={titleId}>
      {/* the content unmounts after closing: each opening starts from an empty form */}
      <CreateTeamForm titleId={titleId} preset={organization} onClose={onClose} />
    </Dialog>
  );
}

function CreateTeamForm({ titleId, preset, onClose }: { titleId: string; preset: TOrganizationSearchItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [interorg, setInterorg] = useState(false);
  const [organization, setOrganization] = useState<TOrganizationSearchItem | null>(preset);
  const [accounts, setAccounts] = useState<TAccountSearchItem[]>([]);
  const { errors, clearErrors, showServerErrors } = useFieldErrors(FIELD_NAMES);
  const create = trpc.teams.create.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { title, description: description || undefined, interorg, organization: interorg ? null : (organization?.id ?? null), accounts: accounts.map((account) => account.id) },
      {
        onSuccess: () => {
          notify(t('teams.create.success'), 'success');
          void utils.teams.invalidate();
          onClose();
        },
        onError: showServerErrors,
      },
    );
  };

  return (
    <>
      <FormDialogLayout titleId={titleId} title={t('teams.create.title')} onSubmit={submit} onCancel={onClose} submitLabel={t('teams.create.submit')} busy={create.isPending}>
        <CountedTextField
          label={t('teams.fields.title')}
          name="title"
          required
          autoFocus
          autoComplete="off"
          value={title}
          onValueChange={(value) => {
            setTitle(value);
            clearErrors('title');
          }}
          hint={t('teams.create.titleHint')}
          errors={errors.title}
        />
        <DescriptionField
          label={t('teams.fields.description')} value={description} errors={errors.description} maxLength={TEAM_DESCRIPTION_MAX}
          onValueChange={(value) => {
            setDescription(value);
            clearErrors('description');
          }}
        />
        <Box>
          <FormControlLabel
            control={
              <Switch
                name="interorg"
                checked={interorg}
                disabled={Boolean(preset)}
                onChange={(event) => {
                  setInterorg(event.target.checked);
                  if (event.target.checked) setOrganization(null);
                  clearErrors('interorg', 'organization');
                }}
              />
            }
            label={t('teams.fields.interorg')}
          />
          <FormHelperText sx={{ mt: 0 }}>{preset ? t('teams.create.presetHint', { title: preset.title }) : t('teams.create.interorgHint')}</FormHelperText>
        </Box>
        {interorg ? null : (
          <OrganizationPicker
            label={t('teams.fields.organization')}
            name="organization"
            required
            disabled={Boolean(preset)}
            value={organization}
            onChange={(value) => {
              setOrganization(value);
              clearErrors('organization');
            }}
            errors={errors.organization}
          />
        )}
        <AccountsPicker
          label={t('teams.fields.accounts')}
          name="accounts"
          value={accounts}
          onChange={(value) => {
            setAccounts(value);
            clearErrors('accounts');
          }}
          hint={interorg ? t('teams.create.accountsHintAny') : t('teams.create.accountsHint')}
          errors={errors.accounts}
        />
      </FormDialogLayout>
    </>
  );
}
