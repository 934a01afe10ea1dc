import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TUnknownCard } from '@rollcall/contracts';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { PageHeader } from '../../components/PageHeader';
import { useLive } from '../../live/use-live';
import { LiveChip, LiveNotice, isStale, staleSx } from '../../live/LiveStatus';
import { trpc } from '../../trpc';
import { AssignUnknownCardDialog } from './AssignUnknownCardDialog';
import { DismissUnknownCardDialog } from './DismissUnknownCardDialog';
import { unknownCardsLive } from './unknown-cards.live';
import { useSeenAt } from './seen-at';
import { ZonedDateTime } from '../../components/ZonedTime';

const uidSx = { fontFamily: 'monospace', fontSize: '0.95rem', wordBreak: 'break-all' } as const;

/** /unknown-cards: cards scanned that no account holds, where and how often; assign one to an account or dismiss it. */
export default function UnknownCardsPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const cards = trpc.smartCards.unknownCards.useQuery();
  const live = useLive(trpc.live.attendance, { cache: [unknownCardsLive] });
  const seenAt = useSeenAt();
  const [assigning, setAssigning] = useState<TUnknownCard | null>(null);
  const [dismissing, setDismissing] = useState<TUnknownCard | null>(null);

  const where = (card: TUnknownCard) => [card.door, card.reader_name].filter(Boolean).join(' · ');
  const actions = (card: TUnknownCard) => (
    <>
      <Button size="small" variant="outlined" aria-label={t('unknownCards.assignOf', { uid: card.card_uid })} onClick={() => setAssigning(card)}>
        {t('unknownCards.assign')}
      </Button>
      <Button size="small" color="inherit" aria-label={t('unknownCards.dismissOf', { uid: card.card_uid })} onClick={() => setDismissing(card)}>
        {t('unknownCards.dismiss')}
      </Button>
    </>
  );

  const list = cards.data ?? [];
  return (
    <>
      <PageHeader title={t('unknownCards.title')} actions={<LiveChip connection={live} />} />
      <LiveNotice connection={live} />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 900 }}>
        {t('unknownCards.intro')}
      </Typography>
      <Box sx={staleSx(live)} aria-busy={isStale(live)} data-stale={isStale(live) || undefined}>
        {cards.isLoading ? (
          <LoadingState />
        ) : cards.error ? (
          <ErrorState error={cards.error} onRetry={() => void cards.refetch()} />
        ) : list.length === 0 ? (
          <Typography color="text.secondary">{t('unknownCards.empty')}</Typography>
        ) : phone ? (
          <Box component="ul" aria-label={t('unknownCards.tableLabel')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {list.map((card) => (
              <Card component="li" key={card.card_uid} variant="outlined">
                <CardContent sx={{ pb: 0 }}>
                  <Typography sx={uidSx}>{card.card_uid}</Typography>
                  <Typography variant="body2">{where(card)}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {seenAt(card.scanned_at)} · {t('unknownCards.scans', { count: card.scans ?? 1 })}
                  </Typography>
                </CardContent>
                <CardActions sx={{ px: 2, pb: 2 }}>{actions(card)}</CardActions>
              </Card>
            ))}
          </Box>
        ) : (
          <TableContainer component={Paper}>
            <Table aria-label={t('unknownCards.tableLabel')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('unknownCards.columns.uid')}</TableCell>
                  <TableCell>{t('unknownCards.columns.seen')}</TableCell>
                  <TableCell>{t('unknownCards.columns.where')}</TableCell>
                  <TableCell align="right">{t('unknownCards.columns.scans')}</TableCell>
                  <TableCell>{t('unknownCards.columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((card) => (
                  <TableRow key={card.card_uid} hover>
                    <TableCell sx={uidSx}>{card.card_uid}</TableCell>
                    <TableCell>
                      <ZonedDateTime at={card.scanned_at} />
                    </TableCell>
                    <TableCell>{where(card)}</TableCell>
                    <TableCell align="right">{card.scans ?? 1}</TableCell>
                    <TableCell>
                      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions(card)}</Box>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Box>
      <AssignUnknownCardDialog card={assigning} onClose={() => setAssigning(null)} />
      <DismissUnknownCardDialog card={dismissing} onClose={() => setDismissing(null)} />
    </>
  );
}
