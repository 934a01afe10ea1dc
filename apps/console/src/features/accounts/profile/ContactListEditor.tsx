import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useTranslation } from 'react-i18next';
import { CountedTextField } from '../../../components/CountedTextField';

/** The types the console offers; the API takes any short text, so a stored other type stays pickable. */
export const CONTACT_TYPES = ['mobile', 'work', 'home', 'other'] as const;

export interface ContactRow {
  /** React's key: rows have no id of their own, and values may repeat while typed */
  key: number;
  value: string;
  type: string;
}

let nextKey = 0;
export const contactRow = (value = '', type: string = CONTACT_TYPES[0]): ContactRow => ({ key: (nextKey += 1), value, type });

export type ContactKind = 'telephone' | 'email';

interface ContactListEditorProps {
  kind: ContactKind;
  rows: ContactRow[];
  onChange: (rows: ContactRow[]) => void;
  /** the server's messages keyed '<index>.value', '<index>.type', or '' for the list as a whole */
  errors: Record<string, string[]>;
  /** the type a new row starts with */
  defaultType: string;
}

/** Adds, changes and removes the {value, type} entries of `additional.telephone` or `additional.email`. */
export function ContactListEditor({ kind, rows, onChange, errors, defaultType }: ContactListEditorProps) {
  const { t } = useTranslation();
  const texts = {
    title: t(kind === 'telephone' ? 'accounts.profile.telephones' : 'accounts.profile.emails'),
    value: t(kind === 'telephone' ? 'accounts.profile.telephoneNumber' : 'accounts.profile.emailAddress'),
    add: t(kind === 'telephone' ? 'accounts.profile.addTelephone' : 'accounts.profile.addEmail'),
  };
  const typeLabel = (type: string) => t(`accounts.profile.contactType.${type}`, { defaultValue: type });
  const change = (index: number, patch: Partial<ContactRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const listErrors = errors[''];

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'grid', gap: 1.5 }}>
      <Typography component="legend" variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {texts.title}
      </Typography>
      {rows.map((row, index) => {
        const rowName = t('accounts.profile.contactRow', { title: texts.title, number: index + 1 });
        const types = (CONTACT_TYPES as readonly string[]).includes(row.type) ? CONTACT_TYPES : [...CONTACT_TYPES, row.type];
        return (
          <Box key={row.key} role="group" aria-label={rowName} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: 'minmax(0, 1fr) 140px auto' }, gap: 1, alignItems: 'start' }}>
            <CountedTextField
              label={texts.value}
              name={`${kind}.${index}.value`}
              type={kind === 'email' ? 'email' : 'tel'}
              value={row.value}
              onValueChange={(value) => change(index, { value })}
              errors={errors[`${index}.value`]}
              size="small"
            />
            <TextField
              select
              size="small"
              label={t('accounts.profile.contactTypeLabel')}
              name={`${kind}.${index}.type`}
              value={row.type}
              onChange={(event) => change(index, { type: event.target.value })}
              error={Boolean(errors[`${index}.type`]?.length)}
              helperText={errors[`${index}.type`]?.join(' ')}
              sx={{ gridRow: { xs: 2, sm: 'auto' } }}
            >
              {types.map((type) => (
                <MenuItem key={type} value={type}>
                  {typeLabel(type)}
                </MenuItem>
              ))}
            </TextField>
            <IconButton
              aria-label={t('accounts.profile.removeContact', { name: rowName })}
              title={t('accounts.profile.removeContact', { name: rowName })}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
              sx={{ mt: 0.25 }}
            >
              <DeleteIcon />
            </IconButton>
          </Box>
        );
      })}
      {listErrors?.length ? <FormHelperText error>{listErrors.join(' ')}</FormHelperText> : null}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...rows, contactRow('', defaultType)])}>
          {texts.add}
        </Button>
      </Box>
    </Box>
  );
}
