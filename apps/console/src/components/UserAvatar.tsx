import Avatar from '@mui/material/Avatar';
import type { TCurrentAccount } from '@rollcall/contracts';
import { fullName, initials } from '../lib/account-name';

/** The picture when there is one, else the initials (on a colour dark enough for white text). */
export function UserAvatar({ account, size = 36 }: { account: TCurrentAccount; size?: number }) {
  const picture = account.additional?.profilePicture;
  return (
    <Avatar
      src={picture ?? undefined}
      alt={picture ? fullName(account) : undefined}
      sx={{ width: size, height: size, bgcolor: 'primary.dark', color: '#fff', fontSize: size * 0.42 }}
    >
      {initials(account)}
    </Avatar>
  );
}
