import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useTranslation } from 'react-i18next';
import { DELETION_CHOICES } from '@rollcall/contracts';
import { splitFieldErrors } from '../../api/api-error';
import { useSnackbar } from '../../components/snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { OrganizationPicker } from '../../components/organizations/OrganizationPicker';
import type { DeletionChoice, OrganizationOption } from './types';
import { fieldMessages } from '../../components/field-messages';

const CHOICES: readonly DeletionChoice[] = DELETION_CHOICES;
const FIELD_NAMES = ['suborganizations', 'suborganizations_move_to', 'accounts', 'accounts_move_to'] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type FieldErrors = Partial<Record<FieldName, string[]>>;

/** what becomes of the sub-organizations or of the accounts */
type Part = 'suborganizations' | 'accounts';

interface DeleteOrganizationDialogProps {
  /** the organization to delete; null: closed */
  organization: OrganizationOption | null;
  onClose: () => void;
  /** after 'Organization removed': go to the list, or refresh the parent's sub-organizations */
  onDeleted: () => void;
}

/**
 * 'Delete organization' (spec section 4): one choice for the sub-organizations and one for the
 * accounts (disconnect, delete, move); move needs a destination, which may not be the organization
 * itself. Shared by the summary card and the sub-organizations' row menu.
 */
export function DeleteOrganizationDialog({ organization, onClose, onDeleted }: DeleteOrganizationDialogProps) {
  const titleId = useId();
  // the organization stays shown while the dialog fades out
  const [shown, setShown] = useState(organization);
  if (organization && organization !== shown) setShown(organization);
  return (
    <Dialog open={Boolean(organization)} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      {shown ? <DeleteOrganizationForm key={shown.id} titleId={titleId} organization={shown} onClose={onClose} onDeleted={onDeleted} /> : null}
    </Dialog>
  );
}

function DeleteOrganizationForm({ titleId, organization, onClose, onDeleted }: { titleId: string; organization: OrganizationOption; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const formId = useId();
  const messageId = useId();
  const remove = trpc.organizations.delete.useMutation();
  // ask only about what exists: an organization without sub-organizations or accounts has nothing to decide
  const details = trpc.organizations.byId.useQuery({ id: organization.id }, { staleTime: 0 });
  const present: Part[] = details.data ? (['suborganizations', 'accounts'] as const).filter((name) => (name === 'suborganizations' ? details.data.num_children : details.data.num_members) > 0) : [];
  // while its contents are unknown (loading, failed) both choices are shown
  const choose: Part | 'both' | null = !details.data || present.length === 2 ? 'both' : (present[0] ?? null);
  const [choice, setChoice] = useState<Record<Part, DeletionChoice>>({ suborganizations: 'disconnect', accounts: 'disconnect' });
  const [destination, setDestination] = useState<Record<Part, OrganizationOption | null>>({ suborganizations: null, accounts: null });
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);

  /** the client's own checks: a destination for move, and never the organization itself */
  const clientError = (part: Part): string | undefined => {
    if (choice[part] !== 'move') return undefined;
    const to = destination[part];
    if (to?.id === organization.id) return t(`organizations.delete.same.${part}`);
    if (!to && attempted) return t(`organizations.delete.required.${part}`);
    return undefined;
  };
  const errorsOf = (part: Part): string[] | undefined => {
    const own = clientError(part);
    if (own) return [own];
    const server = [...(serverErrors[part] ?? []), ...(serverErrors[`${part}_move_to`] ?? [])];
    return server.length ? server : undefined;
  };

  const clearServer = (part: Part) =>
    setServerErrors((current) => {
      const next = { ...current };
      delete next[part];
      delete next[`${part}_move_to`];
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const blocked = (['suborganizations', 'accounts'] as const).some((part) => choice[part] === 'move' && (!destination[part] || destination[part]?.id === organization.id));
    if (blocked) return;
    remove.mutate(
      {
        id: organization.id,
        suborganizations: choice.suborganizations,
        suborganizations_move_to: choice.suborganizations === 'move' ? destination.suborganizations?.id : undefined,
        accounts: choice.accounts,
        accounts_move_to: choice.accounts === 'move' ? destination.accounts?.id : undefined,
      },
      {
        onSuccess: () => {
          notify(t('organizations.delete.removed'), 'success');
          void utils.organizations.invalidate();
          onClose();
          onDeleted();
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, FIELD_NAMES, t);
          setServerErrors(fields);
          if (notice) notify(notice, 'error');
        },
      },
    );
  };

  const part = (name: Part) => {
    const labelId = `${formId}-${name}`;
    return (
      <FormControl component="fieldset" key={name} sx={{ display: 'grid', gap: 1 }}>
        <FormLabel component="legend" id={labelId} sx={{ fontWeight: 600, color: 'text.primary' }}>
          {t(`organizations.delete.${name}`)}
        </FormLabel>
        <RadioGroup
          aria-labelledby={labelId}
          name={name}
          value={choice[name]}
          onChange={(event) => {
            setChoice((current) => ({ ...current, [name]: event.target.value as DeletionChoice }));
            clearServer(name);
          }}
        >
          {CHOICES.map((value) => (
            <FormControlLabel key={value} value={value} control={<Radio size="small" />} label={t(`organizations.delete.choices.${name}.${value}`)} />
          ))}
        </RadioGroup>
        {choice[name] !== 'move' && errorsOf(name) ? <FormHelperText error>{fieldMessages(errorsOf(name))}</FormHelperText> : null}
        {choice[name] === 'move' ? (
          <OrganizationPicker
            label={t(`organizations.delete.destination.${name}`)}
            name={`${name}_move_to`}
            required
            value={destination[name]}
            onChange={(value) => {
              setDestination((current) => ({ ...current, [name]: value }));
              clearServer(name);
            }}
            errors={errorsOf(name)}
          />
        ) : null}
      </FormControl>
    );
  };

  return (
    <>
      <DialogTitle id={titleId}>{t('organizations.delete.title')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText id={messageId} sx={{ mb: 2 }}>
          {t('organizations.delete.message', { title: organization.title })}
          {/* the choices asked for, and only those: none for an organization with nothing inside */}
          {choose ? ` ${t(`organizations.delete.choose.${choose}`)}` : null}
        </DialogContentText>
        <Box component="form" id={formId} noValidate onSubmit={submit} aria-describedby={messageId} sx={{ display: 'grid', gap: 3 }}>
          {details.isLoading ? <LinearProgress aria-label={t('common.loading')} /> : null}
          {details.isError ? part('suborganizations') : null}
          {details.isError ? part('accounts') : null}
          {present.map((name) => part(name))}
          {details.data && !present.length ? <DialogContentText>{t('organizations.delete.nothingInside')}</DialogContentText> : null}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={remove.isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" form={formId} variant="contained" color="error" loading={remove.isPending}>
          {t('common.confirm')}
        </Button>
      </DialogActions>
    </>
  );
}
