import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useReadOnly } from './read-only';

export interface RowAction {
  label: string;
  /** a link (Details, Account info) ... */
  to?: string;
  /** ... or an action (Delete, Remove) */
  onSelect?: () => void;
  disabled?: boolean;
  /** why a disabled item is disabled (a protected item), read under its label */
  hint?: string;
  /** it changes something: disabled in a read-only view (read-only.ts) */
  changes?: boolean;
}

/** The '⋮' button of a table row and its menu: links and actions, some disabled (a protected item's delete); the menu closes before an action runs. */
export function RowActionsMenu({ label, actions }: { label: string; actions: RowAction[] }) {
  const { t } = useTranslation();
  const readOnly = useReadOnly();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const shown = readOnly ? actions.map((item) => (item.changes ? { ...item, disabled: true, hint: t('common.readOnly') } : item)) : actions;
  return (
    <>
      <IconButton size="small" aria-label={label} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {shown.map((item) =>
          item.to ? (
            <MenuItem key={item.label} component={RouterLink} to={item.to} disabled={item.disabled} onClick={close}>
              {item.label}
            </MenuItem>
          ) : (
            <MenuItem
              key={item.label}
              disabled={item.disabled}
              onClick={() => {
                close();
                item.onSelect?.();
              }}
            >
              <ListItemText primary={item.label} secondary={item.disabled ? item.hint : undefined} />
            </MenuItem>
          ),
        )}
      </Menu>
    </>
  );
}
