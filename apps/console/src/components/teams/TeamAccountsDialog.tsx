import { useTranslation } from 'react-i18next';
import { AssociatedAccountsDialog } from '../AssociatedAccountsDialog';
import { trpc } from '../../trpc';
import { toAccount } from '../../paths';
import type { TeamOption } from './types';

/** 'Associated accounts for a team': its members. The team stays set while the dialog fades out. */
export function TeamAccountsDialog({ team, open, onClose }: { team: TeamOption | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const members = trpc.teams.members.useQuery({ id: team?.id ?? '' }, { enabled: open && Boolean(team) });
  return (
    <AssociatedAccountsDialog
      open={open && Boolean(team)}
      title={t('teams.members.title', { title: team?.title ?? '' })}
      accounts={members.data}
      error={members.error}
      onRetry={() => void members.refetch()}
      profileHref={toAccount}
      onClose={onClose}
    />
  );
}
