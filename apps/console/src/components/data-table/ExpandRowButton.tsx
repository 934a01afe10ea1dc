import IconButton from '@mui/material/IconButton';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

/** The Expand column's button: turns its arrow and tells assistive technology what it opens. */
export function ExpandRowButton({ label, expanded, controls, onToggle }: { label: string; expanded: boolean; controls: string; onToggle: () => void }) {
  return (
    <IconButton size="small" aria-label={label} aria-expanded={expanded} aria-controls={expanded ? controls : undefined} onClick={onToggle}>
      <ExpandMoreIcon fontSize="small" sx={{ transition: 'transform 150ms', transform: expanded ? 'rotate(180deg)' : 'none' }} />
    </IconButton>
  );
}
