import { useId } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { fullName } from '../../../lib/account-name';
import { MemberRoleSwitches } from '../../../components/organizations/MemberRoleSwitches';
import type { MemberRow, OrganizationOption } from '../types';

/** The members' 'Manage roles': one switch per role of the organization, each change saved at once. */
export function ManageRolesDialog({ open, organization, member, onClose }: { open: boolean; organization: OrganizationOption; member: MemberRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const name = member ? fullName(member) : '';
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)', m: 2 } } }}>
      <DialogTitle id={titleId}>{t('organizations.memberRoles.title')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText id={textId} sx={{ mb: 2 }}>
          {t('organizations.memberRoles.intro', { name, title: organization.title })}
        </DialogContentText>
        {member ? <MemberRoleSwitches organizationId={organization.id} accountId={member.id} label={t('organizations.memberRoles.listLabel', { name })} layout="list" /> : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
