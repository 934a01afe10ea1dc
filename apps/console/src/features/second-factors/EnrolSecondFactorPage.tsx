import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { authStore } from '../../api/auth-store';
import { trpc } from '../../trpc';
import { toIndex } from '../../paths';
import { passkeysSupported } from '../../components/passkeys/passkey-ceremony';
import { AddPasskeyDialog } from './AddPasskeyDialog';
import { TotpEnrolment } from './TotpEnrolment';

/**
 * /second-factor/enrol: where the sign-in sends a session whose password policy requires a second
 * factor it lacks (docs/adr/0025). Until one is enrolled the server refuses every other call with
 * 403 `auth.second_factor_enrolment_required`; once done, the root page sends the account on. A
 * passkey does as well as an app (docs/adr/0029).
 */
export default function EnrolSecondFactorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [addingPasskey, setAddingPasskey] = useState(false);
  // set by the registration, read when its dialog closes (after the recovery codes, if any)
  const passkeyAdded = useRef(false);
  const queryClient = useQueryClient();
  const signOut = trpc.auth.signOut.useMutation({
    onSettled: () => {
      authStore.clear();
      queryClient.removeQueries();
      void navigate(toIndex(), { replace: true });
    },
  });
  const done = () => {
    // the session's restriction is gone: every answer from before is stale
    queryClient.removeQueries();
    void navigate(toIndex(), { replace: true });
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby="enrol-second-factor-title" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 4 } }}>
      <Typography id="enrol-second-factor-title" variant="h5" component="h1" gutterBottom>
        {t('secondFactors.enrol.requiredTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t('secondFactors.enrol.requiredIntro')}
      </Typography>
      <TotpEnrolment onDone={done} />
      {passkeysSupported() && (
        <Box sx={{ display: 'grid', gap: 1, mt: 3 }}>
          <Divider />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('secondFactors.enrol.orPasskey')}
          </Typography>
          <Box>
            <Button variant="outlined" onClick={() => setAddingPasskey(true)}>
              {t('secondFactors.passkeys.add')}
            </Button>
          </Box>
        </Box>
      )}
      {addingPasskey && (
        <AddPasskeyDialog
          open
          onAdded={() => void (passkeyAdded.current = true)}
          onClose={() => {
            setAddingPasskey(false);
            if (passkeyAdded.current) done();
          }}
        />
      )}
      <Button sx={{ mt: 2 }} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        {t('secondFactors.enrol.signOut')}
      </Button>
    </Paper>
  );
}
