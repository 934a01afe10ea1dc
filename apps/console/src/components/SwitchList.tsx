import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useReadOnly } from './read-only';

export interface SwitchItem {
  id: string;
  /** the switch's name (a slug) */
  label: string;
  /** read under it and announced as its description (a title) */
  hint?: string;
  checked: boolean;
}

interface SwitchListProps {
  /** the group's accessible name ('Permissions of Auditor') */
  label: string;
  items: SwitchItem[];
  /** turns one switch; resolves once the change is saved and the list reloaded */
  onToggle: (item: SwitchItem, checked: boolean) => Promise<unknown>;
  emptyText: string;
  /** 'grid' fills a wide expanded row; 'list' stacks them in a dialog */
  layout?: 'grid' | 'list';
}

/**
 * One switch per item (a role's permissions, an account's roles within an organization): a switch
 * shows its new position and waits, disabled, until the change is saved and the list reloaded.
 */
export function SwitchList({ label, items, onToggle, emptyText, layout = 'grid' }: SwitchListProps) {
  const readOnly = useReadOnly();
  const baseId = useId();
  const [pending, setPending] = useState<Record<string, boolean>>({});

  const toggle = (item: SwitchItem, checked: boolean) => {
    setPending((current) => ({ ...current, [item.id]: checked }));
    void onToggle(item, checked).finally(() =>
      setPending((current) => {
        const next = { ...current };
        delete next[item.id];
        return next;
      }),
    );
  };

  if (!items.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {emptyText}
      </Typography>
    );
  }
  return (
    <Box
      role="group"
      aria-label={label}
      sx={{ display: 'grid', gap: 1, gridTemplateColumns: layout === 'grid' ? 'repeat(auto-fill, minmax(240px, 1fr))' : '1fr' }}
    >
      {items.map((item, index) => {
        const hintId = `${baseId}-hint-${index}`;
        // the hint lines up under the label: the switch is 58px wide, pulled 11px to the left
        const waiting = item.id in pending;
        return (
          <Box key={item.id} sx={{ minWidth: 0 }}>
            <FormControlLabel
              sx={{ mr: 0, alignItems: 'center' }}
              control={
                <Switch
                  checked={waiting ? pending[item.id] : item.checked}
                  disabled={waiting || readOnly}
                  onChange={(_event, checked) => toggle(item, checked)}
                  slotProps={{ input: { 'aria-describedby': item.hint ? hintId : undefined } }}
                />
              }
              label={
                <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                  {item.label}
                </Typography>
              }
            />
            {item.hint ? (
              <FormHelperText id={hintId} sx={{ mt: -0.5, ml: '47px', overflowWrap: 'anywhere' }}>
                {item.hint}
              </FormHelperText>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
}
