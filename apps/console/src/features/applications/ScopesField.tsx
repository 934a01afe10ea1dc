import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useTranslation } from 'react-i18next';
import { TEXT_MAX } from '@rollcall/contracts';
import type { ApplicationScope } from './types';
import { fieldMessages } from '../../components/field-messages';

interface ScopesFieldProps {
  value: ApplicationScope[];
  onChange: (scopes: ApplicationScope[]) => void;
  errors?: string[];
  /** under a heading that already says 'Scopes': the legend stays for screen readers only */
  legendHidden?: boolean;
}

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** The create dialog's repeatable scopes: a scope label and its description (shown on the consent form), each removable; 'Add scope'. */
export function ScopesField({ value, onChange, errors, legendHidden }: ScopesFieldProps) {
  const { t } = useTranslation();
  const change = (index: number, next: Partial<ApplicationScope>) => onChange(value.map((item, at) => (at === index ? { ...item, ...next } : item)));
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      <Typography component="legend" variant="subtitle2" sx={legendHidden ? VISUALLY_HIDDEN : { mb: 1 }}>
        {t('applications.fields.scopes')}
      </Typography>
      {value.map((item, index) => (
        <Box key={index} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: '200px 1fr auto' }, gap: 1, alignItems: 'start' }}>
          <TextField
            size="small"
            label={t('applications.fields.scope')}
            value={item.scope}
            onChange={(event) => change(index, { scope: event.target.value })}
            slotProps={{ htmlInput: { maxLength: TEXT_MAX, 'aria-label': t('applications.fields.scopeNumber', { number: index + 1 }) } }}
          />
          <TextField
            size="small"
            label={t('applications.fields.scopeDescription')}
            value={item.description}
            onChange={(event) => change(index, { description: event.target.value })}
            sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' }, gridRow: { xs: 2, sm: 'auto' } }}
          />
          <IconButton aria-label={t('applications.fields.removeScope', { scope: item.scope || index + 1 })} onClick={() => onChange(value.filter((_item, at) => at !== index))}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      {errors?.length ? <FormHelperText error>{fieldMessages(errors)}</FormHelperText> : <FormHelperText>{t('applications.fields.scopesHint')}</FormHelperText>}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...value, { scope: '', description: '' }])}>
          {t('applications.fields.addScope')}
        </Button>
      </Box>
    </Box>
  );
}
