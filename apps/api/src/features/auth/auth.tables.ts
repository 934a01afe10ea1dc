/** The read tables of auth (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */
export interface SessionTable {
  id: string;
  token_hash: string;
  account_id: string;
  started_at: string;
  expires_at: string;
  ended_at: string | null;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    sessions_v1: SessionTable;
  }
}
