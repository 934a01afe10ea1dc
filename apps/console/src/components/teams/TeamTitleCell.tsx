import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { TEXT_MAX } from '@rollcall/contracts';
import { splitFieldErrors } from '../../api/api-error';
import { useSnackbar } from '../snackbar/snackbar-context';
import { trpc } from '../../trpc';
import { fieldMessages } from '../field-messages';

/**
 * A team title edited in place (spec: 'Inline title edit', notice 'Team title updated'): the pencil
 * opens a field, Enter or the tick saves, Escape or the cross cancels; the server's message shows
 * under the field. `to`: where the title leads (the team's details page, from a list).
 */
export function TeamTitleCell({ teamId, title, to }: { teamId: string; title: string; to?: string }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const utils = trpc.useUtils();
  const rename = trpc.teams.rename.useMutation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(title);
  const [errors, setErrors] = useState<string[] | undefined>(undefined);

  const start = () => {
    setValue(title);
    setErrors(undefined);
    setEditing(true);
  };
  const cancel = () => setEditing(false);
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (value.trim() === title) {
      setEditing(false);
      return;
    }
    rename.mutate(
      { id: teamId, title: value },
      {
        onSuccess: () => {
          notify(t('teams.titleUpdated'), 'success');
          setEditing(false);
          void utils.teams.invalidate();
          void utils.audit.history.invalidate();
        },
        onError: (error) => {
          const { fields, notice } = splitFieldErrors(error, ['title'], t);
          setErrors(fields.title ?? (notice ? [notice] : undefined));
        },
      },
    );
  };

  if (!editing) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        {to ? (
          <Link component={RouterLink} to={to} variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {title}
          </Link>
        ) : (
          <Typography component="span" variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
        )}
        <IconButton size="small" aria-label={t('teams.editTitle', { title })} onClick={start}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Box>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={save} sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, minWidth: 220 }}>
      <TextField
        size="small"
        autoFocus
        label={t('teams.fields.title')}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setErrors(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            cancel();
          }
        }}
        error={Boolean(errors)}
        helperText={fieldMessages(errors)}
        slotProps={{ htmlInput: { maxLength: TEXT_MAX } }}
        sx={{ flex: 1 }}
      />
      <IconButton type="submit" size="small" aria-label={t('teams.saveTitle')} loading={rename.isPending} sx={{ mt: 0.5 }}>
        <CheckIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('teams.cancelTitle')} onClick={cancel} sx={{ mt: 0.5 }}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}
