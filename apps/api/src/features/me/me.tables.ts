/** The read tables of the page of one's own (docs/adr/0022): declared here, added to the platform's ReadDatabase below. */

/**
 * session_activity: when and from where each session last used the page of its own, and with which
 * client. Observed, not a business fact: no event carries a user agent, so the table is kept beside
 * the read models like access_token_usage and never rebuilt (SessionActivityRecorder).
 */
export interface SessionActivityTable {
  session_id: string;
  account_id: string;
  /** the User-Agent header, cut to USER_AGENT_MAX */
  user_agent: string | null;
  /** how the session's token came: 'cookie' (a browser's console) or 'bearer' (a program) */
  via: string;
  address: string | null;
  last_seen_at: string;
}

declare module '../../platform/read-db/read-database' {
  interface ReadDatabase {
    session_activity: SessionActivityTable;
  }
}
