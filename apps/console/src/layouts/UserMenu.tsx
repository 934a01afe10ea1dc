import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { styled } from '@mui/material/styles';
import LogoutIcon from '@mui/icons-material/Logout';
import SettingsIcon from '@mui/icons-material/Settings';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TCurrentAccount } from '@rollcall/contracts';
import { UserAvatar } from '../components/UserAvatar';
import { fullName } from '../lib/account-name';
import { toAccount, toMe } from '../paths';
import { grantsFrom } from '../auth/use-grants';

/** out of sight, still read by screen readers */
const visuallyHidden = { border: 0, clip: 'rect(0 0 0 0)', height: '1px', margin: '-1px', overflow: 'hidden', padding: 0, position: 'absolute', whiteSpace: 'nowrap', width: '1px' } as const;

// static styles, made once (not `sx` worked out on every render)
const MenuButton = styled(Button)(({ theme }) => ({ textTransform: 'none', gap: theme.spacing(1), paddingLeft: theme.spacing(1), paddingRight: theme.spacing(1) }));
const AvatarSlot = styled('span')({ display: 'inline-flex' });
/** on a phone only the avatar shows: the name stays for screen readers */
const NameSlot = styled('span')({ display: 'block', textAlign: 'left', lineHeight: 1.2, '@media (max-width:599.95px)': visuallyHidden });
const Hidden = styled('span')(visuallyHidden);
const Name = styled(Typography)({ display: 'block', fontWeight: 600 }) as typeof Typography;
const Username = styled(Typography)({ display: 'block' }) as typeof Typography;
const MENU_HEADER_SX = { lineHeight: 1.4, py: 1, borderBottom: 1, borderColor: 'divider', color: 'text.primary' } as const;

interface UserMenuProps {
  account: TCurrentAccount | undefined;
  onSignOut: () => void;
}

export function UserMenu({ account, onSignOut }: UserMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  if (!account) return <Skeleton variant="circular" width={36} height={36} aria-hidden="true" />;

  const name = fullName(account);
  const close = () => setAnchor(null);

  return (
    <>
      <MenuButton
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        // named by what it shows (WCAG 2.5.3): what it opens, then the name and username; the initials are decoration
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
      >
        <AvatarSlot aria-hidden="true">
          <UserAvatar account={account} />
        </AvatarSlot>
        <NameSlot>
          <Hidden>{t('userMenu.opensMenu')} </Hidden>
          <Name component="span" variant="body2">
            {name}
          </Name>
          <Username component="span" variant="caption" color="text.secondary">
            {account.username_readable}
          </Username>
        </NameSlot>
      </MenuButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {/* ListSubheader itself, not a styled() wrapper: MenuList knows it by its static muiSkipListHighlight and gives it no tabindex (axe: aria-required-children) */}
        <ListSubheader role="none" sx={MENU_HEADER_SX}>
          <Name component="span" variant="body2">
            {name}
          </Name>
          <Username component="span" variant="caption" color="text.secondary">
            {account.username_readable}
          </Username>
        </ListSubheader>
        <MenuItem
          onClick={() => {
            close();
            void navigate(toMe());
          }}
        >
          <ListItemIcon>
            <AccountCircleIcon fontSize="small" />
          </ListItemIcon>
          {t('userMenu.myAccount')}
        </MenuItem>
        {/* the administrators' view of the account: only for who may read accounts (else it answers 403) */}
        {grantsFrom(account.grants).may('accounts:read') ? (
          <MenuItem
            onClick={() => {
              close();
              void navigate(toAccount(account.id));
            }}
          >
            <ListItemIcon>
              <SettingsIcon fontSize="small" />
            </ListItemIcon>
            {t('userMenu.accountSettings')}
          </MenuItem>
        ) : null}
        <MenuItem
          onClick={() => {
            close();
            onSignOut();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('userMenu.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
