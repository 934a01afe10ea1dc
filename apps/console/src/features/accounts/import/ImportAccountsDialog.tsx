import { useId, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useTranslation } from 'react-i18next';
import { IMPORT_REQUIRED_FIELDS, IMPORT_TARGET_FIELDS, type TImportRowResult, type TImportTargetField } from '@rollcall/contracts';
import { describeError } from '../../../api/api-error';
import { trpc } from '../../../trpc';
import { saveDownload } from '../../../lib/save-download';
import {
  ACCEPTED_CSV_TYPES,
  chunk,
  decodeUtf8,
  failedLines,
  translateRowErrors,
  guessMapping,
  isAcceptedFileType,
  isMappingComplete,
  parseCsv,
  reportCsv,
  toMappedRows,
  type ColumnMapping,
  type FailedLine,
  type ParsedCsv,
} from './csv-import';

const STEPS = ['file', 'map', 'import', 'report'] as const;
type StepName = (typeof STEPS)[number];
const PREVIEW_ROWS = 2;
/** a report of thousands of failures stays readable; the download has them all */
const REPORT_TABLE_LIMIT = 200;
const FIELD_LABEL_KEYS: Record<TImportTargetField, string> = {
  first_name: 'accounts.import.fields.firstName',
  last_name: 'accounts.import.fields.lastName',
  email: 'accounts.import.fields.email',
  username: 'accounts.import.fields.username',
  password: 'accounts.import.fields.password',
};

interface ImportAccountsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** 'Import CSV': choose a file, map its columns, import in chunks, read the report. */
export function ImportAccountsDialog({ open, onClose }: ImportAccountsDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog open={open} onClose={(_event, reason) => reason !== 'backdropClick' && onClose()} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby={titleId}>
      {/* unmounted on close: every opening starts again at the first step */}
      <ImportWizard titleId={titleId} onClose={onClose} />
    </Dialog>
  );
}

interface ChosenFile {
  name: string;
  /** null when the type is refused; the text is not read then */
  text: string | null;
  typeInvalid: boolean;
  notUtf8: boolean;
}

interface Progress {
  done: number;
  total: number;
}

function ImportWizard({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const utils = trpc.useUtils();
  const importCsv = trpc.accounts.importCsv.useMutation();
  const policies = trpc.policies.list.useQuery(undefined, { staleTime: 60_000 });
  const [step, setStep] = useState<StepName>('file');
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [hasHeader, setHasHeader] = useState(true);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [policyId, setPolicyId] = useState('');
  const [progress, setProgress] = useState<Progress>({ done: 0, total: 0 });
  const [report, setReport] = useState<{ created: number; failed: number; lines: FailedLine[] }>({ created: 0, failed: 0, lines: [] });
  const [stopError, setStopError] = useState<string | null>(null);
  const cancelled = useRef(false);

  // parsed once per file and header choice, not on every progress update of a 10,000-row import
  const parsed: ParsedCsv | null = useMemo(() => (file?.text != null ? parseCsv(file.text, hasHeader) : null), [file, hasHeader]);
  const fileReady = Boolean(parsed && parsed.rows.length > 0 && parsed.problems.length === 0);

  const chooseFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setMapping(null);
    if (!isAcceptedFileType(chosen)) return setFile({ name: chosen.name, text: null, typeInvalid: true, notUtf8: false });
    const text = decodeUtf8(await chosen.arrayBuffer());
    setFile({ name: chosen.name, text, typeInvalid: false, notUtf8: text === null });
  };

  const toMapping = () => {
    if (!parsed) return;
    setMapping((current) => current ?? guessMapping(parsed.columns, hasHeader));
    setStep('map');
  };

  const runImport = async () => {
    if (!parsed || !mapping) return;
    const rows = toMappedRows(parsed.rows, mapping);
    const lines = chunk(parsed.lines);
    setStep('import');
    setProgress({ done: 0, total: rows.length });
    setStopError(null);
    const collected: TImportRowResult[] = [];
    let offset = 0;
    try {
      // one chunk at a time: the server creates each chunk's rows in parallel already
      for (const [index, part] of chunk(rows).entries()) {
        if (cancelled.current) break;
        // each row's line in the file goes along, so the report and a duplicate's message name the file's lines
        const answer = await importCsv.mutateAsync({ csv: part, policyId: policyId || null, lines: lines[index] });
        collected.push(...answer.rows);
        offset += part.length;
        setProgress({ done: offset, total: rows.length });
      }
    } catch (error) {
      setStopError(describeError(error, t));
    }
    const created = collected.filter((result) => result.status === 'created').length;
    // each message in the console's language by its rule (the row's `rules`), as a form's errors are
    const language = i18n.resolvedLanguage ?? i18n.language;
    const translated = collected.map((result) => (result.status === 'failed' ? { ...result, errors: translateRowErrors(result, t, language) } : result));
    setReport({ created, failed: collected.length - created, lines: failedLines(translated, rows) });
    void utils.accounts.list.invalidate();
    if (!cancelled.current) setStep('report');
  };

  const close = () => {
    cancelled.current = true;
    onClose();
  };

  const { lines } = report;
  const downloadReport = () => {
    saveDownload(new Blob([reportCsv(lines)], { type: 'text/csv;charset=utf-8' }), 'account-import-report.csv');
  };

  return (
    <>
      <DialogTitle id={titleId}>{t('accounts.import.title')}</DialogTitle>
      <DialogContent dividers>
        <Stepper activeStep={STEPS.indexOf(step)} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((name) => (
            <Step key={name}>
              <StepLabel>{t(`accounts.import.steps.${name}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {step === 'file' && (
          <FileStep file={file} parsed={parsed} hasHeader={hasHeader} onHeaderChange={(on) => { setHasHeader(on); setMapping(null); }} onFile={(chosen) => void chooseFile(chosen)} />
        )}

        {step === 'map' && parsed && mapping && (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <Typography variant="body2" color="text.secondary" sx={{ gridColumn: '1 / -1' }}>
              {t('accounts.import.mapHint', { count: parsed.rows.length })}
            </Typography>
            {IMPORT_TARGET_FIELDS.map((field) => (
              <TextField
                key={field}
                select
                label={t(FIELD_LABEL_KEYS[field])}
                required={IMPORT_REQUIRED_FIELDS.includes(field)}
                value={mapping[field]}
                onChange={(event) => setMapping({ ...mapping, [field]: Number(event.target.value) })}
                error={IMPORT_REQUIRED_FIELDS.includes(field) && mapping[field] < 0}
                helperText={IMPORT_REQUIRED_FIELDS.includes(field) && mapping[field] < 0 ? t('accounts.import.pickColumn') : field === 'password' ? t('accounts.import.passwordHint') : ' '}
              >
                <MenuItem value={-1}>
                  <em>{t('accounts.import.notMapped')}</em>
                </MenuItem>
                {parsed.columns.map((column, index) => (
                  <MenuItem key={index} value={index}>
                    {column}
                  </MenuItem>
                ))}
              </TextField>
            ))}
            <TextField
              select
              label={t('accounts.import.policy')}
              value={policyId}
              onChange={(event) => setPolicyId(event.target.value)}
              error={policies.isError}
              helperText={policies.isError ? describeError(policies.error, t) : t('accounts.import.policyHint')}
            >
              <MenuItem value="">
                <em>{t('accounts.import.noPolicy')}</em>
              </MenuItem>
              {policies.data?.map((policy) => (
                <MenuItem key={policy.id} value={String(policy.id)}>
                  {policy.title}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        )}

        {step === 'import' && (
          <Box sx={{ py: 2 }}>
            <Typography id={`${titleId}-progress`} gutterBottom>
              {t('accounts.import.progress', { done: progress.done, total: progress.total })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={progress.total ? (100 * progress.done) / progress.total : 0}
              aria-labelledby={`${titleId}-progress`}
            />
          </Box>
        )}

        {step === 'report' && (
          <Box sx={{ display: 'grid', gap: 2 }}>
            {stopError && <Alert severity="error">{t('accounts.import.stopped', { done: progress.done, total: progress.total, message: stopError })}</Alert>}
            <Alert severity={lines.length ? 'warning' : 'success'}>
              {t('accounts.import.summary', { created: report.created, failed: report.failed })}
            </Alert>
            {lines.length > 0 && (
              <>
                <TableContainer sx={{ maxHeight: 360 }}>
                  <Table size="small" stickyHeader aria-label={t('accounts.import.failedRows')}>
                    <TableHead>
                      <TableRow>
                        <TableCell>{t('accounts.import.reportRow')}</TableCell>
                        <TableCell>{t('accounts.import.reportUsername')}</TableCell>
                        <TableCell>{t('accounts.import.reportField')}</TableCell>
                        <TableCell>{t('accounts.import.reportMessage')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {lines.slice(0, REPORT_TABLE_LIMIT).map((line, index) => (
                        <TableRow key={index}>
                          <TableCell>{line.line}</TableCell>
                          <TableCell>{line.username}</TableCell>
                          <TableCell>{line.field in FIELD_LABEL_KEYS ? t(FIELD_LABEL_KEYS[line.field as TImportTargetField]) : line.field}</TableCell>
                          <TableCell>{line.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
                {lines.length > REPORT_TABLE_LIMIT && (
                  <Typography variant="body2" color="text.secondary">
                    {t('accounts.import.moreInReport', { count: lines.length - REPORT_TABLE_LIMIT })}
                  </Typography>
                )}
              </>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        {step === 'file' && (
          <>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button variant="contained" disabled={!fileReady} onClick={toMapping}>
              {t('accounts.import.next')}
            </Button>
          </>
        )}
        {step === 'map' && (
          <>
            <Button onClick={() => setStep('file')}>{t('accounts.import.back')}</Button>
            <Button variant="contained" disabled={!mapping || !isMappingComplete(mapping)} onClick={() => void runImport()}>
              {t('accounts.import.submit')}
            </Button>
          </>
        )}
        {step === 'import' && <Button onClick={close}>{t('common.cancel')}</Button>}
        {step === 'report' && (
          <>
            {lines.length > 0 && <Button onClick={downloadReport}>{t('accounts.import.download')}</Button>}
            <Button variant="contained" onClick={close}>
              {t('accounts.import.close')}
            </Button>
          </>
        )}
      </DialogActions>
    </>
  );
}

interface FileStepProps {
  file: ChosenFile | null;
  parsed: ParsedCsv | null;
  hasHeader: boolean;
  onHeaderChange: (on: boolean) => void;
  onFile: (file: File | undefined) => void;
}

function FileStep({ file, parsed, hasHeader, onHeaderChange, onFile }: FileStepProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const preview = parsed?.rows.slice(0, PREVIEW_ROWS) ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button component="label" htmlFor={inputId} variant="outlined" startIcon={<UploadFileIcon />}>
          {t('accounts.import.chooseFile')}
        </Button>
        <input
          id={inputId}
          type="file"
          hidden
          aria-label={t('accounts.import.chooseFile')}
          accept={['.csv', '.txt', ...ACCEPTED_CSV_TYPES].join(',')}
          onChange={(event) => {
            onFile(event.target.files?.[0]);
            // the same file chosen again (after editing it) must be read again
            event.target.value = '';
          }}
        />
        <Typography color={file ? 'text.primary' : 'text.secondary'}>{file?.name ?? t('accounts.import.noFile')}</Typography>
      </Box>
      <FormControlLabel control={<Switch checked={hasHeader} onChange={(event) => onHeaderChange(event.target.checked)} />} label={t('accounts.import.hasHeader')} />
      {file?.typeInvalid && <Alert severity="error">{t('accounts.import.typeInvalid')}</Alert>}
      {file?.notUtf8 && <Alert severity="error">{t('accounts.import.notUtf8')}</Alert>}
      {parsed?.problems.map((problem, index) => (
        <Alert key={index} severity="error">
          {t(problem.kind === 'quotes' ? 'accounts.import.quotesProblem' : 'accounts.import.parseProblem', { line: problem.line })}
        </Alert>
      ))}
      {parsed && parsed.rows.length === 0 && parsed.problems.length === 0 && <Alert severity="warning">{t('accounts.import.noRows')}</Alert>}
      {parsed?.singleColumn && <Alert severity="info">{t('accounts.import.singleColumn')}</Alert>}
      {parsed && preview.length > 0 && (
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            {t('accounts.import.preview', { count: parsed.rows.length })}
          </Typography>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" aria-label={t('accounts.import.previewLabel')}>
              <TableHead>
                <TableRow>
                  {parsed.columns.map((column, index) => (
                    <TableCell key={index}>{column}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {preview.map((row, rowIndex) => (
                  <TableRow key={rowIndex}>
                    {parsed.columns.map((_column, index) => (
                      <TableCell key={index}>{row[index] ?? ''}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      )}
    </Box>
  );
}
