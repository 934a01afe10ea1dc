/** What the live channel pushes to consoles. Grows with attendance (arrivals, scans, ...). */
export type TLiveMessage =
  | { kind: 'account.changed'; accountId: string; position: string }
  | { kind: 'projection.lag'; projection: string; lag: number };
