import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Link as RouterLink } from 'react-router-dom';

export interface RowAction {
  label: string;
  /** a link (Details, Account info) ... */
  to?: string;
  /** ... or an action (Delete, Remove) */
  onSelect?: () => void;
  disabled?: boolean;
  /** why a disabled item is disabled (a protected item), read under its label */
  hint?: string;
}

/** The '⋮' button of a table row and its menu: links and actions, some disabled (a protected item's delete); the menu closes before an action runs. */
export function RowActionsMenu({ label, actions }: { label: string; actions: RowAction[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton size="small" aria-label={label} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {actions.map((item) =>
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
