import { useEffect, useRef, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_DEBOUNCE_MS } from '../lib/use-debounced-value';

/**
 * A search input that reports its text 300 ms after the last keystroke (spec: search debounce), and
 * shows a value that changed from outside (the URL's search after Back).
 */
export function SearchField({ label, value, onSearch, error = false }: { label: string; value: string; onSearch: (value: string) => void; error?: boolean }) {
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const [synced, setSynced] = useState(value);
  if (value !== synced) {
    setSynced(value);
    if (value !== text.trim()) setText(value);
  }
  return (
    <TextField
      type="search"
      label={label}
      value={text}
      error={error}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => onSearch(next.trim()), SEARCH_DEBOUNCE_MS);
      }}
      sx={{ flex: '1 1 260px', maxWidth: 420 }}
      slotProps={{
        htmlInput: { maxLength: 255 },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
