import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorState } from './ErrorState';
import { LoadingState } from './LoadingState';

export interface AssociatedAccount {
  id: string;
  first_name: string;
  last_name: string;
  username_readable: string;
}

interface AssociatedAccountsDialogProps {
  open: boolean;
  /** 'Associated accounts for a role' or '... for a team', naming which */
  title: string;
  /** undefined while loading */
  accounts: AssociatedAccount[] | undefined;
  error?: unknown;
  onRetry?: () => void;
  /** where an account's edit button goes (its profile) */
  profileHref: (id: string) => string;
  onClose: () => void;
}

/** The accounts holding a role (or in a team), 400px wide: first and last name, readable username, an edit button to the profile. */
export function AssociatedAccountsDialog({ open, title, accounts, error, onRetry, profileHref, onClose }: AssociatedAccountsDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} slotProps={{ paper: { sx: { width: 400, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ px: 1, py: 0 }}>
        {error && !accounts ? (
          <ErrorState error={error} onRetry={onRetry} />
        ) : !accounts ? (
          <LoadingState minHeight={96} />
        ) : !accounts.length ? (
          <Typography color="text.secondary" sx={{ px: 2, py: 3 }}>
            {t('associatedAccounts.empty')}
          </Typography>
        ) : (
          <List aria-label={title}>
            {accounts.map((account) => {
              const name = `${account.first_name} ${account.last_name}`.trim();
              return (
                <ListItem
                  key={account.id}
                  divider
                  secondaryAction={
                    <IconButton component={RouterLink} to={profileHref(account.id)} edge="end" aria-label={t('associatedAccounts.edit', { name: name || account.username_readable })}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  }
                >
                  <ListItemText primary={name} secondary={account.username_readable} slotProps={{ primary: { sx: { fontWeight: 500 } } }} />
                </ListItem>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
