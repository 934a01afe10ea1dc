import { useMemo, useState, type FormEvent } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import type { TAccountClaimGroup } from '@rollcall/contracts';
import { describeError, getApiError } from '../../../../api/api-error';
import { CountedTextField } from '../../../../components/CountedTextField';
import { useReadOnly } from '../../../../components/read-only';
import { useSnackbar } from '../../../../components/snackbar/snackbar-context';
import { trpc } from '../../../../trpc';
import { changedClaims, claimErrors, claimValuesOf, type ClaimValues } from './claim-values';

/**
 * The claims part of tab 10: one accordion per scope (title, member count, description), each claim
 * a text field with the 255 counter and its scope as hint. Save sends only what changed; the server's
 * messages appear under their fields (a group holding one opens). Titles and descriptions of the
 * standard scopes and claims (libs/contracts sso-claims.ts, English) are the catalogue's, by claim name.
 */
export function SsoClaimsForm({ accountId, groups }: { accountId: string; groups: TAccountClaimGroup[] }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const readOnly = useReadOnly();
  const utils = trpc.useUtils();
  const save = trpc.ssoClaims.set.useMutation();
  const loaded = useMemo(() => claimValuesOf(groups), [groups]);
  const claims = useMemo(() => Object.keys(loaded), [loaded]);
  const [values, setValues] = useState<ClaimValues>(loaded);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [expanded, setExpanded] = useState<string[]>(groups.length ? [groups[0].scope] : []);
  const changes = changedClaims(loaded, values);
  const dirty = Object.keys(changes).length > 0;

  const change = (claim: string, value: string) => {
    setValues((current) => ({ ...current, [claim]: value }));
    setErrors(({ [claim]: _cleared, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!dirty) return;
    save.mutate(
      { id: accountId, claims: changes },
      {
        onSuccess: ({ groups: saved }) => {
          setErrors({});
          setValues(claimValuesOf(saved));
          utils.ssoClaims.ofAccount.setData({ id: accountId }, saved);
          notify(t('ssoClaims.saved'), 'success');
        },
        onError: (error) => {
          const { byClaim, other } = claimErrors(getApiError(error)?.fields ?? {}, claims);
          setErrors(byClaim);
          // open every group with a message, so none stays hidden
          const withErrors = groups.filter((group) => group.members.some((member) => byClaim[member.claim])).map((group) => group.scope);
          setExpanded((current) => [...new Set([...current, ...withErrors])]);
          if (other.length || !Object.keys(byClaim).length) notify(other.length ? other.join(' ') : describeError(error, t), 'error');
        },
      },
    );
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('ssoClaims.title')}>
      {groups.map((group) => {
        const open = expanded.includes(group.scope);
        const summaryId = `sso-claims-${group.scope}`;
        return (
          <Accordion
            key={group.scope}
            expanded={open}
            onChange={(_event, next) => setExpanded((current) => (next ? [...current, group.scope] : current.filter((scope) => scope !== group.scope)))}
            disableGutters
          >
            <AccordionSummary expandIcon={<ExpandMoreIcon />} id={summaryId} aria-controls={`${summaryId}-details`}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, rowGap: 0.5 }}>
                <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600 }}>
                  {t(`ssoClaims.scopes.${group.scope}.title`, { defaultValue: group.title })}
                </Typography>
                <Chip size="small" label={t('ssoClaims.members', { count: group.num_members })} />
                <Typography variant="body2" component="span" color="text.secondary">
                  {t(`ssoClaims.scopes.${group.scope}.description`, { defaultValue: group.description })}
                </Typography>
              </Box>
            </AccordionSummary>
            <AccordionDetails id={`${summaryId}-details`}>
              <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
                {group.members.map((member) => (
                  <Box key={member.claim} sx={{ minWidth: 0 }}>
                    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                      {t(`ssoClaims.claims.${member.claim}.description`, { defaultValue: member.description })}
                    </Typography>
                    <CountedTextField
                      fullWidth
                      label={t(`ssoClaims.claims.${member.claim}.title`, { defaultValue: member.title })}
                      name={member.claim}
                      disabled={readOnly}
                      value={values[member.claim] ?? ''}
                      onValueChange={(value) => change(member.claim, value)}
                      errors={errors[member.claim]}
                      hint={t('ssoClaims.scopeHint', { scope: member.scope })}
                      // while empty, what the profile releases shows greyed in the field
                      placeholder={member.fallback_value ?? undefined}
                      slotProps={member.fallback_value ? { inputLabel: { shrink: true } } : undefined}
                    />
                  </Box>
                ))}
              </Box>
            </AccordionDetails>
          </Accordion>
        );
      })}
      {readOnly ? null : (
        <Box sx={{ mt: 2, display: 'flex', gap: 2, alignItems: 'center' }}>
          <Button type="submit" variant="contained" disabled={!dirty} loading={save.isPending}>
            {t('ssoClaims.save')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('ssoClaims.fallbackNote')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
